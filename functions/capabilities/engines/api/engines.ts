import { z } from "zod";
import type { ApiRouter } from "../../../platform/http/app.js";
import { json } from "../../../platform/http/types.js";
import { q, queryParams } from "../../../platform/http/validate.js";
import { remoteEngineHealth } from "../health.js";

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
}
