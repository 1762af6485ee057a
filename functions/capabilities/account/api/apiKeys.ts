import { CreateApiKeySchema } from "../../../platform/contract/accounts.js";
import { createApiKey } from "../../../platform/domain/accounts.js";
import { ApiError } from "../../../platform/http/errors.js";
import type { ApiRouter } from "../../../platform/http/app.js";
import { json } from "../../../platform/http/types.js";
import { jsonBody } from "../../../platform/http/validate.js";
import type { ApiKeyRecord } from "../../../platform/stores/credentials.js";

export const API_KEYS_PER_USER_MAX = 50;

const wire = (k: ApiKeyRecord) => ({
  key_id: k.key_id,
  name: k.name,
  hint: `${k.prefix}…`,
  created_at_unix: k.created_at,
  last_used_at_unix: k.last_used_at,
});

/** The caller's own API keys in the current workspace. Values are shown once, at creation. */
export function registerApiKeys(r: ApiRouter): void {
  r.onInvalidParam("key_id", () => new ApiError(404, "api_key_not_found", "No such API key."));
  r.get("/v1/user/api-keys", async (_req, rc) => {
    const caller = await rc.caller();
    const keys = await rc.app.stores.apiKeys.list(caller.workspaceId, caller.userId);
    return json({ api_keys: keys.map(wire) });
  });

  r.post("/v1/user/api-keys", async (req, rc) => {
    const caller = await rc.caller();
    await caller.require("create_user_api_key");
    const { name } = jsonBody(req, CreateApiKeySchema);
    const existing = await rc.app.stores.apiKeys.list(caller.workspaceId, caller.userId);
    if (existing.length >= API_KEYS_PER_USER_MAX) {
      throw new ApiError(400, "api_key_limit_reached", `You can have at most ${API_KEYS_PER_USER_MAX} API keys. Revoke one to create another.`);
    }
    const { value, record } = await createApiKey(rc.app, { workspaceId: caller.workspaceId, userId: caller.userId, name });
    return json({ ...wire(record), xi_api_key: value }, 201);
  });

  r.delete("/v1/user/api-keys/:key_id", async (req, rc) => {
    const caller = await rc.caller();
    if (!(await rc.app.stores.apiKeys.revoke(caller.workspaceId, caller.userId, req.params.key_id))) {
      throw new ApiError(404, "api_key_not_found", "No such API key.");
    }
    return json({ status: "ok" });
  });
}
