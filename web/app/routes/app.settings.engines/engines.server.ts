import { z } from "zod";
import type { ApiClient } from "../../lib/api.server.js";
import { OkWire } from "../../lib/api.server.js";

const StateWire = z.object({ state: z.enum(["ok", "failing", "open"]), consecutive_failures: z.number(), last_error: z.string().nullable(), retry_after_seconds: z.number().nullable() }).passthrough();

export const EngineWire = z.object({
  engine_id: z.string(),
  kind: z.enum(["openai", "elevenlabs", "xtts"]),
  url: z.string(),
  model: z.string(),
  language: z.string(),
  key_hint: z.string().nullable(),
  first_byte_timeout_s: z.number(),
  total_timeout_s: z.number(),
  created_at_unix: z.number(),
  state: StateWire.optional(),
  voice_ids: z.array(z.string()).optional(),
  voices_error: z.string().nullable().optional(),
});
export type Engine = z.infer<typeof EngineWire>;

const ProbeWire = EngineWire.extend({ probe: z.object({ ok: z.boolean(), status: z.number().nullable(), error: z.string().nullable() }).optional() });

/** The Speech engines page's /v1 calls (workspace administrators): the key goes in, never comes back. */
export function engines(client: ApiClient) {
  return {
    list: async () => (await client.call("/v1/workspace/engines", { schema: z.object({ engines: z.array(EngineWire) }) })).engines,
    add: (body: { engine_id: string; kind: Engine["kind"]; url: string; key: string | null; model: string | null; language: string | null; first_byte_timeout_s: number | null; total_timeout_s: number | null }) => client.call("/v1/workspace/engines", { method: "POST", body, schema: EngineWire }),
    probe: (id: string) => client.call(`/v1/workspace/engines/${encodeURIComponent(id)}/probe`, { method: "POST", schema: ProbeWire }),
    timeouts: (id: string, body: { first_byte_timeout_s: number; total_timeout_s: number }) => client.call(`/v1/workspace/engines/${encodeURIComponent(id)}`, { method: "PATCH", body, schema: EngineWire }),
    remove: (id: string) => client.call(`/v1/workspace/engines/${encodeURIComponent(id)}`, { method: "DELETE", schema: OkWire }),
  };
}
