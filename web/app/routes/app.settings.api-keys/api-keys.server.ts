import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { api, OkWire } from "../../lib/api.server.js";
import type { WebSession } from "../../lib/session.server.js";

const ApiKeyWire = z.object({
  key_id: z.string(),
  name: z.string(),
  hint: z.string(),
  created_at_unix: z.number(),
  last_used_at_unix: z.number().nullable(),
});
const ApiKeysWire = z.object({ api_keys: z.array(ApiKeyWire) });
const CreatedApiKeyWire = ApiKeyWire.omit({ last_used_at_unix: true }).extend({ xi_api_key: z.string() });

export type ApiKey = z.infer<typeof ApiKeyWire>;

const byName = new Intl.Collator("en", { numeric: true, sensitivity: "base" });

/**
 * Newest first. Creation times are whole seconds, so keys made in the same second are ordered
 * by name, highest first ("Bulk 10" before "Bulk 9"), which is how such batches are usually named.
 */
export function newestFirst<T extends { created_at_unix: number; name: string }>(keys: readonly T[]): T[] {
  return [...keys].sort((a, b) => b.created_at_unix - a.created_at_unix || byName.compare(b.name, a.name));
}

/** The signed-in user's API keys in this workspace, through /v1/user/api-keys. */
export function apiKeys(context: AppLoadContext, request: Request, auth: WebSession) {
  const client = api(context, request, auth);
  return {
    list: async () => (await client.call("/v1/user/api-keys", { schema: ApiKeysWire })).api_keys,
    create: (name: string) => client.call("/v1/user/api-keys", { method: "POST", body: { name }, schema: CreatedApiKeyWire }),
    revoke: (keyId: string) => client.call(`/v1/user/api-keys/${encodeURIComponent(keyId)}`, { method: "DELETE", schema: OkWire }),
  };
}
