import { z } from "zod";
import type { ApiRouter } from "../../../platform/http/app.js";
import { json } from "../../../platform/http/types.js";
import { jsonBody, q, queryParams } from "../../../platform/http/validate.js";
import { remoteEngineHealth } from "../health.js";
import { addEngine, engineWire, listEngines, removeEngine } from "../manage.js";

const EngineBody = z.object({
  engine_id: z.string().max(32),
  kind: z.enum(["openai", "elevenlabs"]).optional(),
  url: z.string().max(2048),
  key: z.string().max(512).nullish(),
  model: z.string().max(100).nullish(),
  language: z.string().max(16).nullish(),
});

/**
 * GET /v1/engines: each remote engine's state (ok / failing / open, the last error's class). Any
 * signed-in caller sees the states; `probe=true` (workspace administrators) also asks each server
 * for its voice list now.
 */
export function registerEngines(r: ApiRouter): void {
  r.get("/v1/engines", async (req, rc) => {
    const { probe } = queryParams(req, z.object({ probe: q.bool().optional() }));
    const caller = await rc.caller();
    if (probe) await caller.requireAdmin();
    return json({ engines: await remoteEngineHealth(rc.app, probe === true) });
  });

  // A workspace's own remote engines (administrators only): the key is never returned, a hint is.
  r.get("/v1/workspace/engines", async (_req, rc) => json({ engines: (await listEngines(rc.app, await rc.caller())).map(engineWire) }));
  r.post("/v1/workspace/engines", async (req, rc) => json(engineWire(await addEngine(rc.app, await rc.caller(), jsonBody(req, EngineBody))), 201));
  r.delete("/v1/workspace/engines/:engine_id", async (req, rc) => {
    await removeEngine(rc.app, await rc.caller(), req.params.engine_id);
    return json({ status: "ok" });
  });
}
