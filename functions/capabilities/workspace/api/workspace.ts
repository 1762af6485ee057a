import { z } from "zod";
import { FLAG_DEFAULTS, isFlagName } from "../../../platform/domain/flags.js";
import { EVERYONE_GROUP_ID } from "../../../platform/domain/permissions.js";
import type { ApiRouter } from "../../../platform/http/app.js";
import { json } from "../../../platform/http/types.js";
import { jsonBody } from "../../../platform/http/validate.js";
import { ApiError } from "../../../platform/http/errors.js";
import { PronunciationDictionaryLocator } from "../../../platform/contract/speech.js";
import { MAX_LOCATORS } from "../../../platform/contract/dictionaries.js";
import { dictionaryNotFound, resolveVersion } from "../../dictionaries/service.js";

const PatchWorkspace = z.object({
  name: z.string().trim().min(1).max(100).optional(),
  flags: z
    .record(z.boolean().nullable())
    .refine((f) => Object.keys(f).every(isFlagName), { message: `Unknown flag; known flags: ${Object.keys(FLAG_DEFAULTS).join(", ")}` })
    .optional(),
  /** Samples train only the workspace's own voices (professional-voice-clone.md §2, the training-use notice). */
  training_opt_out: z.boolean().optional(),
  /** Shared files are stored on the user: editors of a dictionary may share it too (app-shell.md §8). */
  storing_shared_files_on_user: z.boolean().optional(),
  /** Workspace-wide dictionaries, applied to every generation after the request's own. */
  pronunciation_dictionary_locators: z
    .array(PronunciationDictionaryLocator)
    .max(MAX_LOCATORS, `A workspace may apply up to ${MAX_LOCATORS} pronunciation dictionaries`)
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
      training_opt_out: ws.training_opt_out === true,
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
    let locators: Array<{ pronunciation_dictionary_id: string; version_id: string | null }> | undefined;
    if (input.pronunciation_dictionary_locators) {
      if (!(await caller.flag("workspace-pronunciation-dictionaries"))) {
        throw new ApiError(403, "feature_not_enabled", "Workspace-wide pronunciation dictionaries are not enabled for this workspace.");
      }
      locators = [];
      for (const l of input.pronunciation_dictionary_locators) {
        if (locators.some((x) => x.pronunciation_dictionary_id === l.pronunciation_dictionary_id)) continue;
        const dict = await rc.app.stores.dictionaries.get(caller.workspaceId, l.pronunciation_dictionary_id);
        if (!dict) throw dictionaryNotFound(l.pronunciation_dictionary_id);
        // A given version is pinned; without one the workspace follows the latest.
        locators.push({ pronunciation_dictionary_id: dict.dictionary_id, version_id: l.version_id ? await resolveVersion(rc.app, dict, l.version_id) : null });
      }
    }
    await rc.app.stores.workspaces.update(caller.workspaceId, { name: input.name, flags, pronunciation_dictionary_locators: locators, training_opt_out: input.training_opt_out, storing_shared_files_on_user: input.storing_shared_files_on_user });
    return json({ status: "ok" });
  });
}
