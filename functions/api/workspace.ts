import { z } from "zod";
import { FLAG_DEFAULTS, isFlagName } from "../domain/flags.js";
import { EVERYONE_GROUP_ID } from "../domain/permissions.js";
import type { ApiRouter } from "../http/app.js";
import { json } from "../http/types.js";
import { jsonBody } from "../http/validate.js";

const PatchWorkspace = z.object({
  name: z.string().trim().min(1).max(100).optional(),
  flags: z
    .record(z.boolean().nullable())
    .refine((f) => Object.keys(f).every(isFlagName), { message: `Unknown flag; known flags: ${Object.keys(FLAG_DEFAULTS).join(", ")}` })
    .optional(),
});

/** What the web shell needs about the caller's workspace: flags, permissions, groups. */
export function registerWorkspace(r: ApiRouter): void {
  r.get("/v1/workspace", async (_req, rc) => {
    const caller = await rc.caller();
    const [ws, member, groups, permissions, flags, tier] = await Promise.all([
      caller.workspace(),
      caller.member(),
      caller.groups(),
      caller.permissions(),
      caller.flags(),
      caller.tier(),
    ]);
    const everyone = groups.find((g) => g.group_id === EVERYONE_GROUP_ID);
    return json({
      workspace_id: ws.workspace_id,
      name: ws.name,
      tier: tier.id,
      status: ws.status,
      created_at_unix: ws.created_at,
      max_seats: tier.maxSeats,
      seat_type: member.seat_type,
      is_admin: member.seat_type === "workspace_admin",
      permissions: [...permissions],
      all_members_permissions: everyone?.permissions ?? [],
      groups: groups.map((g) => ({ group_id: g.group_id, name: g.name, permissions: g.permissions, members: g.member_user_ids })),
      flags,
      flag_overrides: ws.flags,
      pronunciation_dictionary_locators: ws.pronunciation_dictionary_locators,
      storing_shared_files_on_user: ws.storing_shared_files_on_user,
      custom_model_rates: ws.custom_model_rates,
    });
  });

  r.patch("/v1/workspace", async (req, rc) => {
    const caller = await rc.caller();
    await caller.requireAdmin();
    const input = jsonBody(req, PatchWorkspace);
    const ws = await caller.workspace();
    let flags: Record<string, boolean> | undefined;
    if (input.flags) {
      flags = { ...ws.flags };
      for (const [k, v] of Object.entries(input.flags)) {
        if (v === null) delete flags[k];
        else flags[k] = v;
      }
    }
    await rc.app.stores.workspaces.update(caller.workspaceId, { name: input.name, flags });
    return json({ status: "ok" });
  });
}
