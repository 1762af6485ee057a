import { z } from "zod";
import type { ApiRouter } from "../../../platform/http/app.js";
import { json } from "../../../platform/http/types.js";
import { jsonBody, queryParams } from "../../../platform/http/validate.js";
import { RESOURCE_ROLES } from "../../../platform/contract/dictionaries.js";
import { resourceMetadata, setShare, SHAREABLE_TYPES } from "../sharing.js";
import {
  createServiceAccount,
  createServiceAccountKey,
  deleteServiceAccountKey,
  serviceAccountKeys,
  serviceAccountNotFound,
  serviceAccountsWire,
  updateServiceAccountKey,
} from "../serviceAccounts.js";

const ResourceType = z.enum(SHAREABLE_TYPES);
const Target = {
  user_email: z.string().trim().max(254).nullish(),
  group_id: z.string().max(64).nullish(),
  workspace_api_key_id: z.string().max(64).nullish(),
};
const ShareBody = z.object({ role: z.enum(RESOURCE_ROLES), resource_type: ResourceType, ...Target });
const UnshareBody = z.object({ resource_type: ResourceType, ...Target });

const KeyName = z.string().trim().min(1).max(100);
const Permissions = z.union([z.literal("all"), z.array(z.string().max(64)).max(64)]);
const CreateKeyBody = z.object({ name: KeyName, permissions: Permissions, character_limit: z.number().int().min(0).nullish() }).passthrough();
const PatchKeyBody = z
  .object({
    name: KeyName.nullish(),
    is_enabled: z.union([z.boolean(), z.literal("no_update")]).nullish(),
    permissions: z.union([Permissions, z.literal("no_update")]).nullish(),
    character_limit: z.union([z.number().int().min(0), z.literal("clear"), z.literal("no_update")]).nullish(),
  })
  .passthrough();

/** Resource sharing (contract §11 `workspace.resources`) and service accounts (§13c `serviceAccounts`). */
export function registerSharing(r: ApiRouter): void {
  r.onInvalidParam("service_account_user_id", serviceAccountNotFound);

  r.get("/v1/workspace/resources/:resource_id", async (req, rc) => {
    const { resource_type } = queryParams(req, z.object({ resource_type: ResourceType }));
    return json(await resourceMetadata(rc.app, await rc.caller(), resource_type, req.params.resource_id));
  });

  r.post("/v1/workspace/resources/:resource_id/share", async (req, rc) => {
    const b = jsonBody(req, ShareBody);
    await setShare(rc.app, await rc.caller(), b.resource_type, req.params.resource_id, b, b.role);
    return json({ status: "ok" });
  });

  r.post("/v1/workspace/resources/:resource_id/unshare", async (req, rc) => {
    const b = jsonBody(req, UnshareBody);
    await setShare(rc.app, await rc.caller(), b.resource_type, req.params.resource_id, b, null);
    return json({ status: "ok" });
  });

  r.get("/v1/service-accounts", async (_req, rc) => json(await serviceAccountsWire(rc.app, await rc.caller())));

  r.post("/v1/service-accounts", async (req, rc) => {
    const { name } = jsonBody(req, z.object({ name: KeyName }).passthrough());
    return json({ "service-account-user-id": await createServiceAccount(rc.app, await rc.caller(), name) }, 201);
  });

  r.get("/v1/service-accounts/:service_account_user_id/api-keys", async (req, rc) =>
    json(await serviceAccountKeys(rc.app, await rc.caller(), req.params.service_account_user_id)),
  );

  r.post("/v1/service-accounts/:service_account_user_id/api-keys", async (req, rc) => {
    const b = jsonBody(req, CreateKeyBody);
    return json(await createServiceAccountKey(rc.app, await rc.caller(), req.params.service_account_user_id, b), 201);
  });

  r.patch("/v1/service-accounts/:service_account_user_id/api-keys/:api_key_id", async (req, rc) => {
    const b = jsonBody(req, PatchKeyBody);
    await updateServiceAccountKey(rc.app, await rc.caller(), req.params.service_account_user_id, req.params.api_key_id, {
      name: b.name ?? undefined,
      is_enabled: b.is_enabled ?? undefined,
      permissions: b.permissions ?? undefined,
      character_limit: b.character_limit,
    });
    return json({ status: "ok" });
  });

  r.delete("/v1/service-accounts/:service_account_user_id/api-keys/:api_key_id", async (req, rc) => {
    await deleteServiceAccountKey(rc.app, await rc.caller(), req.params.service_account_user_id, req.params.api_key_id);
    return json({ status: "ok" });
  });
}
