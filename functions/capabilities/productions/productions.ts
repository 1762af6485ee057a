import type { AppContext } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import { ApiError } from "../../platform/http/errors.js";
import { newId } from "../../platform/adapters/ids.js";
import type { ManualVerificationRecord } from "../../platform/stores/manualVerifications.js";
import type { TeamMembership, TeamRole } from "../../platform/stores/producerTeams.js";
import { normaliseEmail } from "../../platform/stores/users.js";
import { applyManualDecision, manualErrors, type ManualDecision } from "../pvc/manualVerification.js";

/**
 * Producer Mode (app-shell.md §2, §3, §6). Timbre's producers are the people a server's administrators trust to
 * review work that needs a human: today, the manual verification requests of professional clones. A producer takes
 * a request from the unclaimed queue (one holder at a time), opens its documents, and approves or rejects it; their
 * decisions form their history. Teams group producers; a team's leaders and owners see its members' workload.
 *
 * Producers see what a decision needs (voice name, language, the user's note, the documents), not the requester's
 * e-mail address, and never review a request of their own.
 */
export const PRODUCTIONS = {
  /** The queue and the history read the newest requests, at most this many. */
  window: 500,
  teamName: 100,
  teams: 100,
  membersPerTeam: 200,
  languages: 20,
} as const;

export const productionErrors = {
  notProducer: () => new ApiError(403, "producer_required", "Producer Mode is only for producers. Ask an administrator of this server."),
  notFound: () => new ApiError(404, "production_not_found", "This production does not exist."),
  taken: () => new ApiError(409, "production_claimed", "Another producer has already claimed this production."),
  notHeld: () => new ApiError(409, "production_not_claimed", "Claim this production before you review it."),
  own: () => new ApiError(403, "production_own_request", "You cannot review a request of your own."),
  teamNotFound: () => new ApiError(404, "team_not_found", "This team does not exist."),
  tooManyTeams: () => new ApiError(400, "too_many_teams", `A server has at most ${PRODUCTIONS.teams} producer teams.`),
  teamFull: () => new ApiError(400, "team_full", `A team has at most ${PRODUCTIONS.membersPerTeam} members.`),
  userNotFound: () => new ApiError(404, "user_not_found", "No user has this e-mail address."),
  memberNotProducer: () => new ApiError(400, "member_not_producer", "Only producers can join a producer team."),
};

export type ProductionView = "unclaimed" | "active" | "history";

async function requireProducer(caller: Caller): Promise<void> {
  if (!(await caller.user()).is_producer) throw productionErrors.notProducer();
}

/** A request as a producer sees it. */
export function productionWire(r: ManualVerificationRecord) {
  return {
    production_id: r.request_id,
    type: "voice_verification" as const,
    voice_name: r.voice_name,
    language: r.language ?? null,
    note: r.extra_text,
    requested_at_unix: r.request_time_unix,
    status: r.status,
    claimed_at_unix: r.claimed_at_unix ?? null,
    reviewed_at_unix: r.reviewed_at_unix,
    rejection_reason: r.rejection_reason,
    files: r.files.map((f) => ({ file_id: f.file_id, file_name: f.file_name, mime_type: f.mime_type, size_bytes: f.size_bytes })),
  };
}

/** Unclaimed (in the producer's languages, not their own), active (held by them) or history (decided by them). */
export async function listProductions(ctx: AppContext, caller: Caller, view: ProductionView) {
  await requireProducer(caller);
  const me = caller.userId;
  const all = await ctx.stores.manualVerifications.list(PRODUCTIONS.window);
  const languages = (await caller.user()).producer_languages ?? [];
  const pick = (r: ManualVerificationRecord) => {
    if (view === "history") return r.status !== "pending" && r.reviewed_by === me;
    if (r.status !== "pending") return false;
    if (view === "active") return r.claimed_by === me;
    return !r.claimed_by && r.user_id !== me && (languages.length === 0 || !r.language || languages.includes(r.language));
  };
  const rows = all.filter(pick);
  // The queue is served oldest first (first come, first reviewed); the rest newest first.
  if (view === "unclaimed") rows.reverse();
  return rows.map(productionWire);
}

async function held(ctx: AppContext, caller: Caller, id: string): Promise<ManualVerificationRecord> {
  await requireProducer(caller);
  const r = await ctx.stores.manualVerifications.get(id);
  if (!r) throw productionErrors.notFound();
  if (r.status !== "pending") throw manualErrors.decided();
  if (r.claimed_by !== caller.userId) throw productionErrors.notHeld();
  return r;
}

export async function claimProduction(ctx: AppContext, caller: Caller, id: string) {
  await requireProducer(caller);
  const r = await ctx.stores.manualVerifications.get(id);
  if (!r) throw productionErrors.notFound();
  if (r.user_id === caller.userId) throw productionErrors.own();
  if (r.status !== "pending") throw manualErrors.decided();
  if (r.claimed_by === caller.userId) return productionWire(r);
  const claimed = await ctx.stores.manualVerifications.claim(r, caller.userId, Math.floor(ctx.now() / 1000));
  if (!claimed) throw productionErrors.taken();
  return productionWire(claimed);
}

export async function releaseProduction(ctx: AppContext, caller: Caller, id: string) {
  const r = await held(ctx, caller, id);
  const back = await ctx.stores.manualVerifications.release(r, caller.userId);
  if (!back) throw productionErrors.notHeld();
  return productionWire(back);
}

export async function productionFile(ctx: AppContext, caller: Caller, id: string, fileId: string) {
  const r = await held(ctx, caller, id);
  const file = r.files.find((f) => f.file_id === fileId);
  if (!file) throw productionErrors.notFound();
  const o = await ctx.blobs.getBytes(file.object_key);
  if (!o) throw productionErrors.notFound();
  return { bytes: o.bytes, file };
}

export async function decideProduction(ctx: AppContext, caller: Caller, id: string, decision: ManualDecision) {
  const r = await held(ctx, caller, id);
  await applyManualDecision(ctx, r, caller.userId, decision, caller.userId);
  const after = await ctx.stores.manualVerifications.get(id);
  return productionWire(after ?? r);
}

/** Producer settings: the languages they review (ISO 639 codes; none means every language). */
export async function producerSettings(ctx: AppContext, caller: Caller) {
  await requireProducer(caller);
  return { languages: (await caller.user()).producer_languages ?? [] };
}

export async function updateProducerSettings(ctx: AppContext, caller: Caller, languages: string[]) {
  await requireProducer(caller);
  const unique = [...new Set(languages.map((l) => l.toLowerCase()))];
  await ctx.stores.users.update(caller.userId, { producer_languages: unique });
  return { languages: unique };
}

const LEADS: readonly TeamRole[] = ["leader", "owner"];
/** The spec's team check: a user counts as a leader when a team role is leader or owner. */
export const isTeamLeader = (memberships: readonly Pick<TeamMembership, "role">[]) => memberships.some((m) => LEADS.includes(m.role));

/**
 * GET teams for the user @me (producers only): each team with the caller's role; leaders and owners also see the
 * members with their workload (productions held now, decided in all).
 */
export async function myTeams(ctx: AppContext, caller: Caller) {
  await requireProducer(caller);
  const mine = await ctx.stores.producerTeams.ofUser(caller.userId);
  const requests = mine.some((m) => LEADS.includes(m.role)) ? await ctx.stores.manualVerifications.list(PRODUCTIONS.window) : [];
  const teams = [];
  for (const m of mine) {
    const team = await ctx.stores.producerTeams.get(m.team_id);
    if (!team) continue;
    const leads = LEADS.includes(m.role);
    let members: Array<{ user_id: string; email: string; role: TeamRole; active: number; decided: number }> | null = null;
    if (leads) {
      const ms = await ctx.stores.producerTeams.members(team.team_id);
      const users = new Map((await ctx.stores.users.many(ms.map((x) => x.user_id))).map((u) => [u.user_id, u]));
      members = ms.map((x) => ({
        user_id: x.user_id,
        email: users.get(x.user_id)?.email ?? "",
        role: x.role,
        active: requests.filter((r) => r.status === "pending" && r.claimed_by === x.user_id).length,
        decided: requests.filter((r) => r.status !== "pending" && r.reviewed_by === x.user_id).length,
      }));
    }
    teams.push({ team_id: team.team_id, name: team.name, role: m.role, is_leader: leads, members });
  }
  return { teams, is_team_leader: isTeamLeader(mine) };
}

/** Server administrators: who is a producer. */
export async function setProducer(ctx: AppContext, caller: Caller, email: string, isProducer: boolean) {
  await caller.requireServerAdmin();
  const user = await ctx.stores.users.findByEmail(normaliseEmail(email));
  if (!user) throw productionErrors.userNotFound();
  await ctx.stores.users.update(user.user_id, { is_producer: isProducer });
  return { user_id: user.user_id, email: user.email, is_producer: isProducer };
}

export async function listTeams(ctx: AppContext, caller: Caller) {
  await caller.requireServerAdmin();
  const teams = await ctx.stores.producerTeams.list(PRODUCTIONS.teams);
  const out = [];
  for (const t of teams) {
    const ms = await ctx.stores.producerTeams.members(t.team_id);
    const users = new Map((await ctx.stores.users.many(ms.map((x) => x.user_id))).map((u) => [u.user_id, u]));
    out.push({ ...t, members: ms.map((m) => ({ user_id: m.user_id, email: users.get(m.user_id)?.email ?? "", role: m.role })) });
  }
  return out;
}

export async function createTeam(ctx: AppContext, caller: Caller, name: string) {
  await caller.requireServerAdmin();
  if ((await ctx.stores.producerTeams.list(PRODUCTIONS.teams)).length >= PRODUCTIONS.teams) throw productionErrors.tooManyTeams();
  const team = { team_id: newId(), name, created_at_unix: Math.floor(ctx.now() / 1000) };
  await ctx.stores.producerTeams.create(team);
  return team;
}

export async function putTeamMember(ctx: AppContext, caller: Caller, teamId: string, email: string, role: TeamRole) {
  await caller.requireServerAdmin();
  if (!(await ctx.stores.producerTeams.get(teamId))) throw productionErrors.teamNotFound();
  const user = await ctx.stores.users.findByEmail(normaliseEmail(email));
  if (!user) throw productionErrors.userNotFound();
  if (!user.is_producer) throw productionErrors.memberNotProducer();
  const members = await ctx.stores.producerTeams.members(teamId);
  if (!members.some((m) => m.user_id === user.user_id) && members.length >= PRODUCTIONS.membersPerTeam) throw productionErrors.teamFull();
  const m = { team_id: teamId, user_id: user.user_id, role, added_at_unix: Math.floor(ctx.now() / 1000) };
  await ctx.stores.producerTeams.putMember(m);
  return { ...m, email: user.email };
}

export async function removeTeamMember(ctx: AppContext, caller: Caller, teamId: string, userId: string) {
  await caller.requireServerAdmin();
  if (!(await ctx.stores.producerTeams.removeMember(teamId, userId))) throw productionErrors.notFound();
  return { status: "ok" };
}
