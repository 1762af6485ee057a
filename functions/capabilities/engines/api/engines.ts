import { z } from "zod";
import type { ApiRouter } from "../../../platform/http/app.js";
import { json } from "../../../platform/http/types.js";
import { jsonBody, q, queryParams } from "../../../platform/http/validate.js";
import { remoteEngineHealth } from "../health.js";
import { addEngine, editEngine, engineStatus, engineWire, listEngines, refreshEngineVoices, removeEngine } from "../manage.js";
import { remoteEngine } from "../health.js";
import { breakerKeyOf, configOf } from "../speak.js";

const EngineBody = z.object({
  engine_id: z.string().max(32),
  kind: z.enum(["openai", "elevenlabs", "xtts"]).optional(),
  url: z.string().max(2048),
  key: z.string().max(512).nullish(),
  model: z.string().max(100).nullish(),
  language: z.string().max(16).nullish(),
  voices: z.array(z.string().max(100)).max(500).nullish(),
  first_byte_timeout_s: z.number().nullish(),
  total_timeout_s: z.number().nullish(),
});
const EditBody = z.object({ first_byte_timeout_s: z.number().nullish(), total_timeout_s: z.number().nullish() });

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
  r.get("/v1/workspace/engines", async (_req, rc) => {
    const list = await listEngines(rc.app, await rc.caller());
    const engine = await remoteEngine(rc.app);
    return json({ engines: list.map((e) => engineWire(e, engine ? { state: engine.stateOf({ config: configOf(rc.app, e), breakerKey: breakerKeyOf(e) }) } : {})) });
  });
  r.post("/v1/workspace/engines", async (req, rc) => {
    const body = jsonBody(req, EngineBody);
    const record = await addEngine(rc.app, await rc.caller(), body);
    return json(engineWire(record, await refreshEngineVoices(rc.app, record, body.voices)), 201);
  });
  // Asks the server now (its voice list, or an XTTS server's languages) and lists its voices again.
  r.post("/v1/workspace/engines/:engine_id/probe", async (req, rc) => {
    const { record, state, probe } = await engineStatus(rc.app, await rc.caller(), req.params.engine_id, true);
    const voices = probe?.ok ? await refreshEngineVoices(rc.app, record) : {};
    return json({ ...engineWire(record, { state, ...voices }), probe });
  });
  // Its timeouts (first byte, total) change in place; the rest is the engine's identity: remove and add it again.
  r.patch("/v1/workspace/engines/:engine_id", async (req, rc) => {
    const record = await editEngine(rc.app, await rc.caller(), req.params.engine_id, jsonBody(req, EditBody));
    const engine = await remoteEngine(rc.app);
    return json(engineWire(record, engine ? { state: engine.stateOf({ config: configOf(rc.app, record), breakerKey: breakerKeyOf(record) }) } : {}));
  });
  r.delete("/v1/workspace/engines/:engine_id", async (req, rc) => {
    await removeEngine(rc.app, await rc.caller(), req.params.engine_id);
    return json({ status: "ok" });
  });
}
