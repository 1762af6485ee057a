import type { AppContext } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import type { InviteRecord } from "../../platform/stores/invites.js";
import type { MemberRecord } from "../../platform/stores/workspaces.js";
import { normaliseEmail, type UserRecord } from "../../platform/stores/users.js";
import { newId, randomToken, sha256Hex } from "../../platform/adapters/ids.js";
import { ApiError } from "../../platform/http/errors.js";
import { EVERYONE_GROUP_ID, type SeatType } from "../../platform/domain/permissions.js";
import { TIERS } from "../../platform/domain/tiers.js";
import { workspaceMessages as m } from "../../platform/contract/workspace.js";
import { completeStep } from "../engagement/onboarding.js";

/**
 * Members, seats and invites (contract §11). An invite reserves a seat until it is accepted,
 * revoked or expires; its link lets a new person sign up straight into the workspace or a
 * signed-in person join it. The link is returned to the admin, mailed when SMTP is configured,
 * and kept in the workspace's outbox in embedded mode (or whenever no mail server is set).
 */
export const INVITE_TTL_SECONDS = 7 * 86_400;
export const MAX_BATCH_INVITES = 50;

const nowUnix = (ctx: AppContext) => Math.floor(ctx.now() / 1000);

export const inviteUrl = (ctx: AppContext, token: string) => `${ctx.config.publicUrl ?? ""}/invite/${token}`;

/** Human members (service accounts are not people and take no seat). */
export async function humanMembers(ctx: AppContext, workspaceId: string): Promise<MemberRecord[]> {
  return (await ctx.stores.workspaces.members(workspaceId)).filter((x) => !x.service_account);
}

export async function seatUsage(ctx: AppContext, workspaceId: string): Promise<{ used: number; max: number; members: number; invites: number }> {
  const [ws, members, invites] = await Promise.all([
    ctx.stores.workspaces.get(workspaceId),
    humanMembers(ctx, workspaceId),
    ctx.stores.invites.list(workspaceId, nowUnix(ctx)),
  ]);
  const max = TIERS[ws!.tier].maxSeats;
  return { used: members.length + invites.length, max, members: members.length, invites: invites.length };
}

async function checkGroups(ctx: AppContext, workspaceId: string, groupIds: string[]): Promise<string[]> {
  const groups = await ctx.stores.workspaces.groups(workspaceId);
  const out: string[] = [];
  for (const id of new Set(groupIds)) {
    if (id === EVERYONE_GROUP_ID) continue;
    if (!groups.some((g) => g.group_id === id)) throw new ApiError(400, "group_not_found", m.groupNotFound(id));
    out.push(id);
  }
  return out;
}

function inviteMail(ctx: AppContext, workspaceName: string, inviter: string, url: string) {
  return {
    subject: `You are invited to join ${workspaceName} on Timbre`,
    text: [
      `${inviter} invited you to join the workspace "${workspaceName}" on Timbre.`,
      "",
      `Open this link to create your account and join, or to join with the account you have:`,
      url,
      "",
      `The link works for ${INVITE_TTL_SECONDS / 86_400} days. If you did not expect it, ignore this e-mail.`,
    ].join("\n"),
  };
}

/** Sends (when SMTP is configured) and keeps in the outbox (embedded mode, or without SMTP). */
async function deliverInvite(ctx: AppContext, workspaceId: string, to: string, mail: { subject: string; text: string }): Promise<"outbox" | "sent" | "failed"> {
  let delivery: "outbox" | "sent" | "failed" = "outbox";
  if (ctx.mailer.enabled) {
    try {
      await ctx.mailer.send({ to, ...mail });
      delivery = "sent";
    } catch (e) {
      ctx.log.warn("invite mail failed", { error: e, workspace_id: workspaceId });
      delivery = "failed";
    }
  }
  if (ctx.config.mode === "embedded" || delivery !== "sent") {
    await ctx.stores.invites.putMail({ message_id: newId(), workspace_id: workspaceId, to, ...mail, created_at: nowUnix(ctx), delivery });
  }
  return delivery;
}

export interface InviteInput {
  emails: string[];
  seat_type?: SeatType | null;
  group_ids?: string[] | null;
  usage_limit?: number | null;
}

/** workspace.invites.create / createBatch: one invite (and link) per address, seats checked first. */
export async function createInvites(ctx: AppContext, caller: Caller, input: InviteInput): Promise<Array<{ email: string; invite_url: string; delivery: string }>> {
  await caller.requireAdmin();
  const emails = [...new Set(input.emails.map(normaliseEmail))];
  const members = await humanMembers(ctx, caller.workspaceId);
  for (const e of emails) if (members.some((x) => x.email === e)) throw new ApiError(400, "already_member", m.alreadyMember(e));
  const groupIds = await checkGroups(ctx, caller.workspaceId, input.group_ids ?? []);
  const seats = await seatUsage(ctx, caller.workspaceId);
  const pending = await ctx.stores.invites.list(caller.workspaceId, nowUnix(ctx));
  const fresh = emails.filter((e) => !pending.some((p) => p.email === e)).length;
  if (seats.used + fresh > seats.max) throw new ApiError(400, "seat_limit_reached", m.seatLimitReached(seats.max));

  const [ws, inviter] = await Promise.all([caller.workspace(), caller.user()]);
  const now = nowUnix(ctx);
  const out: Array<{ email: string; invite_url: string; delivery: string }> = [];
  for (const email of emails) {
    const token = randomToken(40);
    const invite: InviteRecord = {
      workspace_id: caller.workspaceId,
      email,
      seat_type: input.seat_type ?? "workspace_member",
      group_ids: groupIds,
      usage_limit: input.usage_limit ?? null,
      invited_by: caller.userId,
      created_at: now,
      expires_at: now + INVITE_TTL_SECONDS,
      token_hash: sha256Hex(token),
    };
    await ctx.stores.invites.put(invite);
    const url = inviteUrl(ctx, token);
    const delivery = await deliverInvite(ctx, caller.workspaceId, email, inviteMail(ctx, ws.name, inviter.first_name ?? inviter.email, url));
    out.push({ email, invite_url: url, delivery });
  }
  await completeStep(ctx, caller.userId, "invite_member");
  return out;
}

export async function deleteInvite(ctx: AppContext, caller: Caller, email: string): Promise<void> {
  await caller.requireAdmin();
  if (!(await ctx.stores.invites.delete(caller.workspaceId, normaliseEmail(email)))) throw new ApiError(404, "invite_not_found", m.inviteNotFound(email));
}

/** The live invite behind a link, or a 404 saying the link no longer works. */
export async function inviteByToken(ctx: AppContext, token: string): Promise<InviteRecord> {
  const invite = token.length <= 128 ? await ctx.stores.invites.byTokenHash(sha256Hex(token), nowUnix(ctx)) : undefined;
  if (!invite) throw new ApiError(404, "invite_invalid", m.inviteInvalid);
  return invite;
}

/**
 * Joins the invited workspace: membership with the invite's seat type and groups, the invite
 * consumed, and the workspace made the user's current one (their API keys keep theirs).
 */
export async function acceptInvite(ctx: AppContext, invite: InviteRecord, user: UserRecord): Promise<void> {
  if (normaliseEmail(user.email) !== invite.email) throw new ApiError(403, "invite_other_email", m.inviteOtherEmail(invite.email));
  const { workspaces } = ctx.stores;
  if (!(await workspaces.member(invite.workspace_id, user.user_id))) {
    await workspaces.addMember({
      workspace_id: invite.workspace_id,
      user_id: user.user_id,
      email: invite.email,
      seat_type: invite.seat_type,
      joined_at: nowUnix(ctx),
      is_locked: false,
      usage_limit: invite.usage_limit ?? null,
    });
  }
  for (const g of invite.group_ids) await workspaces.setGroupMember(invite.workspace_id, g, user.user_id, true);
  await ctx.stores.invites.delete(invite.workspace_id, invite.email);
  await ctx.stores.users.update(user.user_id, { default_workspace_id: invite.workspace_id });
}

export interface MemberWire {
  user_id: string;
  email: string;
  first_name: string | null;
  seat_type: SeatType;
  is_owner: boolean;
  is_locked: boolean;
  /** Credits the member may use per period; null: only the workspace's quota applies. */
  usage_limit: number | null;
}

export async function listMembers(ctx: AppContext, caller: Caller): Promise<MemberWire[]> {
  await caller.member();
  const [ws, members] = await Promise.all([caller.workspace(), humanMembers(ctx, caller.workspaceId)]);
  const users = new Map((await ctx.stores.users.many(members.map((x) => x.user_id))).map((u) => [u.user_id, u]));
  return members
    .map((x) => ({
      user_id: x.user_id,
      email: x.email,
      first_name: users.get(x.user_id)?.first_name ?? null,
      seat_type: x.seat_type,
      is_owner: x.user_id === ws.owner_user_id,
      is_locked: x.is_locked === true,
      usage_limit: x.usage_limit ?? null,
    }))
    .sort((a, b) => Number(b.is_owner) - Number(a.is_owner) || a.email.localeCompare(b.email));
}

/** A member of the caller's workspace by e-mail (service accounts included), or 404. */
export async function memberByEmail(ctx: AppContext, workspaceId: string, email: string): Promise<MemberRecord> {
  const e = normaliseEmail(email);
  const found = (await ctx.stores.workspaces.members(workspaceId)).find((x) => x.email === e);
  if (!found) throw new ApiError(404, "member_not_found", m.memberNotFound(email));
  return found;
}

/** workspace.members.update: seat type (role), lock and (Timbre's extension) usage limit, keeping an unlocked admin and the owner as is. */
export async function updateMember(
  ctx: AppContext,
  caller: Caller,
  input: { email: string; is_locked?: boolean | null; seat_type?: SeatType | null; usage_limit?: number | null },
): Promise<void> {
  await caller.requireAdmin();
  const target = await memberByEmail(ctx, caller.workspaceId, input.email);
  const ws = await caller.workspace();
  const seat = input.seat_type ?? target.seat_type;
  const locked = input.is_locked ?? target.is_locked === true;
  if (target.user_id === ws.owner_user_id && (seat !== target.seat_type || locked)) throw new ApiError(400, "owner_unchangeable", m.ownerUnchangeable);
  if (target.user_id === caller.userId && locked) throw new ApiError(400, "cannot_lock_self", m.cannotLockSelf);
  const admins = (await humanMembers(ctx, caller.workspaceId)).filter((x) => x.seat_type === "workspace_admin" && !x.is_locked && x.user_id !== target.user_id);
  if (admins.length === 0 && (seat !== "workspace_admin" || locked)) throw new ApiError(400, "last_admin", m.lastAdmin);
  await ctx.stores.workspaces.patchMember(caller.workspaceId, target.user_id, {
    seat_type: seat,
    is_locked: locked,
    ...(input.usage_limit !== undefined ? { usage_limit: input.usage_limit } : {}),
  });
}
