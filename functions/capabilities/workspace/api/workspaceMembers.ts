import { z } from "zod";
import type { ApiRouter } from "../../../platform/http/app.js";
import { json } from "../../../platform/http/types.js";
import { jsonBody, queryParams } from "../../../platform/http/validate.js";
import { PERMISSION_IDS } from "../../../platform/domain/permissions.js";
import { acceptInvite, createInvites, deleteInvite, inviteByToken, listMembers, MAX_BATCH_INVITES, seatUsage, updateMember } from "../members.js";
import { createGroup, deleteGroup, groupNotFound, listGroups, setGroupMembership, updateGroup } from "../groups.js";

const SeatType = z.enum(["workspace_admin", "workspace_member", "workspace_lite_member"]);
const Email = z.string().trim().email().max(254);
const EmailBody = z.object({ email: Email });
const GroupIds = z.array(z.string().max(64)).max(100).nullish();
const Permissions = z.array(z.enum(PERMISSION_IDS)).max(PERMISSION_IDS.length);

const InviteBody = z.object({
  email: Email,
  seat_type: SeatType.nullish(),
  // Deprecated alias of seat_type in the wire.
  workspace_permission: z.string().nullish(),
  group_ids: GroupIds,
  usage_limit: z.number().int().min(0).nullish(),
});
const InviteBatchBody = z.object({
  emails: z.array(Email).min(1).max(MAX_BATCH_INVITES, `At most ${MAX_BATCH_INVITES} invites at once`),
  seat_type: SeatType.nullish(),
  group_ids: GroupIds,
  usage_limit: z.number().int().min(0).nullish(),
});
const UpdateMemberBody = z.object({
  email: Email,
  is_locked: z.boolean().nullish(),
  workspace_role: SeatType.nullish(),
  workspace_seat_type: SeatType.nullish(),
  allow_downgrade_to_basic_seat: z.boolean().nullish(),
  // Timbre's extension: the member's credits per period; null removes the cap.
  usage_limit: z.number().int().min(0).nullable().optional(),
});
const GroupName = z.string().trim().min(1, "Group name is required").max(80);
const CreateGroupBody = z.object({ name: GroupName, permissions: Permissions.optional() });
const PatchGroupBody = z.object({ name: GroupName.optional(), permissions: Permissions.optional() });

/** Members, invites and groups (contract §11), plus Timbre's group management and invite links. */
export function registerWorkspaceMembers(r: ApiRouter): void {
  r.onInvalidParam("group_id", (v) => groupNotFound(v));

  r.get("/v1/workspace/members", async (_req, rc) => json(await listMembers(rc.app, await rc.caller())));

  r.post("/v1/workspace/members", async (req, rc) => {
    const input = jsonBody(req, UpdateMemberBody);
    await updateMember(rc.app, await rc.caller(), {
      email: input.email,
      is_locked: input.is_locked,
      seat_type: input.workspace_seat_type ?? input.workspace_role,
      usage_limit: input.usage_limit,
    });
    return json({ status: "ok" });
  });

  r.post("/v1/workspace/invites/add", async (req, rc) => {
    const input = jsonBody(req, InviteBody);
    const [one] = await createInvites(rc.app, await rc.caller(), { emails: [input.email], seat_type: input.seat_type, group_ids: input.group_ids, usage_limit: input.usage_limit });
    // invite_url is Timbre's: the admin can pass the link on when no mail server is configured.
    return json({ status: "ok", invite_url: one.invite_url, email_delivery: one.delivery });
  });

  r.post("/v1/workspace/invites/add-bulk", async (req, rc) => {
    const input = jsonBody(req, InviteBatchBody);
    const invites = await createInvites(rc.app, await rc.caller(), input);
    return json({ status: "ok", invites: invites.map((i) => ({ email: i.email, invite_url: i.invite_url, email_delivery: i.delivery })) });
  });

  r.delete("/v1/workspace/invites", async (req, rc) => {
    const { email } = jsonBody(req, EmailBody);
    await deleteInvite(rc.app, await rc.caller(), email);
    return json({ status: "ok" });
  });

  // Timbre: pending invites, seats and the outbox for the Workspace settings page.
  r.get("/v1/workspace/invites", async (_req, rc) => {
    const caller = await rc.caller();
    await caller.requireAdmin();
    const now = Math.floor(rc.app.now() / 1000);
    const [invites, seats] = await Promise.all([rc.app.stores.invites.list(caller.workspaceId, now), seatUsage(rc.app, caller.workspaceId)]);
    return json({
      invites: invites
        .sort((a, b) => b.created_at - a.created_at)
        .map((i) => ({ email: i.email, seat_type: i.seat_type, group_ids: i.group_ids, created_at_unix: i.created_at, expires_at_unix: i.expires_at })),
      seats: { used: seats.used, max: seats.max, members: seats.members, invites: seats.invites },
    });
  });

  r.get("/v1/workspace/outbox", async (_req, rc) => {
    const caller = await rc.caller();
    await caller.requireAdmin();
    const messages = await rc.app.stores.invites.outbox(caller.workspaceId);
    return json({
      messages: messages.map((x) => ({ message_id: x.message_id, to: x.to, subject: x.subject, text: x.text, created_at_unix: x.created_at, delivery: x.delivery })),
    });
  });

  // Invite links: what a link is for (no credentials needed), and joining as the signed-in user.
  r.get("/v1/invites/:token", async (req, rc) => {
    const invite = await inviteByToken(rc.app, req.params.token);
    const [ws, account] = await Promise.all([rc.app.stores.workspaces.get(invite.workspace_id), rc.app.stores.users.findByEmail(invite.email)]);
    return json({ email: invite.email, workspace_name: ws?.name ?? "", has_account: account !== undefined, expires_at_unix: invite.expires_at });
  });

  r.post("/v1/invites/:token/accept", async (req, rc) => {
    const caller = await rc.caller();
    const invite = await inviteByToken(rc.app, req.params.token);
    await acceptInvite(rc.app, invite, await caller.user());
    // The web session follows the user into the workspace they joined.
    if (caller.principal.sessionHash) await rc.app.stores.sessions.setWorkspace(caller.principal.sessionHash, invite.workspace_id);
    return json({ status: "ok", workspace_id: invite.workspace_id });
  });

  r.get("/v1/workspace/groups", async (_req, rc) => {
    const groups = await listGroups(rc.app, await rc.caller());
    const out: Record<string, unknown> = {};
    for (const g of groups) out[g.id] = { name: g.name, id: g.id, members: g.members, permissions: g.permissions, member_user_ids: g.member_user_ids, is_everyone: g.is_everyone };
    return json(out);
  });

  r.get("/v1/workspace/groups/search", async (req, rc) => {
    const { name } = queryParams(req, z.object({ name: z.string().max(200).default("") }));
    const needle = name.trim().toLowerCase();
    const groups = await listGroups(rc.app, await rc.caller());
    return json(groups.filter((g) => g.name.toLowerCase().includes(needle)).map((g) => ({ name: g.name, id: g.id, members_emails: g.members })));
  });

  r.post("/v1/workspace/groups", async (req, rc) => json(await createGroup(rc.app, await rc.caller(), jsonBody(req, CreateGroupBody)), 201));

  r.patch("/v1/workspace/groups/:group_id", async (req, rc) => json(await updateGroup(rc.app, await rc.caller(), req.params.group_id, jsonBody(req, PatchGroupBody))));

  r.delete("/v1/workspace/groups/:group_id", async (req, rc) => {
    await deleteGroup(rc.app, await rc.caller(), req.params.group_id);
    return json({ status: "ok" });
  });

  r.post("/v1/workspace/groups/:group_id/members", async (req, rc) => {
    await setGroupMembership(rc.app, await rc.caller(), req.params.group_id, jsonBody(req, EmailBody).email, true);
    return json({ status: "ok" });
  });

  r.post("/v1/workspace/groups/:group_id/members/remove", async (req, rc) => {
    await setGroupMembership(rc.app, await rc.caller(), req.params.group_id, jsonBody(req, EmailBody).email, false);
    return json({ status: "ok" });
  });
}

