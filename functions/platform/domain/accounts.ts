import { randomBytes } from "node:crypto";
import type { AppContext } from "../context.js";
import { newId, randomToken, sha256Hex } from "../adapters/ids.js";
import type { UserRecord } from "../stores/users.js";
import type { WorkspaceRecord } from "../stores/workspaces.js";
import type { ApiKeyRecord, SessionRecord } from "../stores/credentials.js";
import { ApiError } from "../http/errors.js";
import { hashPassword, verifyPassword, decoyHash } from "./passwords.js";
import { messages, SignUpSchema, SignInSchema } from "../contract/accounts.js";
import { EVERYONE_GROUP_ID, EVERYONE_GROUP_NAME, PERMISSION_IDS } from "./permissions.js";
import { TIERS, type TierId } from "./tiers.js";
import { initialUsage } from "./credits.js";

/** The onboarding checklist's steps (app-shell.md §2), each completed by a real event. */
export const ONBOARDING_STEP_IDS = ["first_generation", "first_voice", "first_dictionary", "create_api_key", "invite_member"] as const;

export const SESSION_TTL_SECONDS = 30 * 24 * 3600;
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
export const SIGN_IN_MAX_FAILURES_PER_EMAIL = 5;
export const SIGN_IN_MAX_FAILURES_PER_IP = 20;

export { messages, SignUpSchema, SignInSchema };

export interface NewAccount {
  user: UserRecord;
  workspace: WorkspaceRecord;
}

const nowSeconds = (ctx: AppContext) => Math.floor(ctx.now() / 1000);

/**
 * A user with their own workspace on `tier` (free for web sign-ups), admin of it, with the Everyone group.
 * `passwordHash`: an argon2id hash of `password` made already (the test support's accounts, hashed
 * once per password with cheap parameters); every product path leaves it out and the password is
 * hashed here with the product's parameters.
 */
export async function createAccount(
  ctx: AppContext,
  input: { email: string; password: string; firstName?: string | null; tier?: TierId; joinWorkspaceId?: string; serverAdmin?: boolean; passwordHash?: string },
): Promise<NewAccount> {
  const parsed = SignUpSchema.parse({ email: input.email, password: input.password, first_name: input.firstName });
  const { users, workspaces, ledger } = ctx.stores;
  const now = nowSeconds(ctx);
  const tierId = input.tier ?? "free";
  const tier = TIERS[tierId];
  const userId = newId();
  // A person signing up through an invite joins that workspace instead of getting their own.
  const workspaceId = input.joinWorkspaceId ?? newId();
  const email = parsed.email.toLowerCase();

  if (!(await users.claimEmail(email, userId))) throw new ApiError(409, "email_taken", messages.emailTaken);
  try {
    const firstName = parsed.first_name?.trim() || null;
    const user: UserRecord = {
      user_id: userId,
      email,
      first_name: firstName,
      photo_url: null,
      password_hash: input.passwordHash ?? (await hashPassword(parsed.password)),
      created_at: now,
      default_workspace_id: workspaceId,
      is_producer: false,
      is_onboarding_completed: false,
      onboarding_checklist: {
        checklist_id: "getting-started",
        hidden: false,
        items: ONBOARDING_STEP_IDS.map((id) => ({ onboarding_checklist_item_id: id, is_completed: false })),
      },
      ...(input.serverAdmin ? { is_server_admin: true } : {}),
    };
    if (input.joinWorkspaceId) {
      const existing = await workspaces.get(input.joinWorkspaceId);
      if (!existing) throw new ApiError(404, "workspace_not_found", "The workspace of this invite no longer exists.");
      await users.create(user);
      return { user, workspace: existing };
    }
    const workspace: WorkspaceRecord = {
      workspace_id: workspaceId,
      name: `${firstName ?? email.split("@")[0]}'s Workspace`,
      owner_user_id: userId,
      tier: tierId,
      status: tierId === "free" ? "free" : "active",
      created_at: now,
      flags: {},
      custom_model_rates: {},
      pronunciation_dictionary_locators: [],
      storing_shared_files_on_user: false,
      force_logging_disabled: false,
    };
    await workspaces.create(workspace);
    await workspaces.putGroup({
      workspace_id: workspaceId,
      group_id: EVERYONE_GROUP_ID,
      name: EVERYONE_GROUP_NAME,
      permissions: [...PERMISSION_IDS],
      member_user_ids: [],
      created_at: now,
    });
    await workspaces.addMember({ workspace_id: workspaceId, user_id: userId, email, seat_type: "workspace_admin", joined_at: now });
    await ledger.createUsage(initialUsage(workspaceId, tier.characterLimit, now));
    // The user record last: an account is only visible once everything it points at exists.
    await users.create(user);
    return { user, workspace };
  } catch (e) {
    await users.releaseEmail(email, userId).catch(() => undefined);
    throw e;
  }
}

/**
 * Checks e-mail and password, with a limit on failures per e-mail and per client address. Each
 * attempt is counted *before* the password is checked, by an atomic conditional update, so a
 * burst of parallel guesses gets no more checks than the limit; a success gives its count back.
 */
/** Sign-in limits hold over any 15 minutes, not per fixed quarter hour (a lockout lasts 15 to 20 minutes). */
const SLIDING = { sliding: true } as const;

export async function authenticate(ctx: AppContext, input: { email: string; password: string; ip: string }): Promise<UserRecord> {
  const now = nowSeconds(ctx);
  const email = input.email.trim().toLowerCase();
  const emailId = sha256Hex(email);
  const { ledger, users } = ctx.stores;
  const locked = async (scope: string, id: string, max: number) => {
    const wait = await ledger.attemptRetryAfter(scope, id, SIGN_IN_WINDOW_SECONDS, now, max, SLIDING);
    return new ApiError(429, "too_many_sign_in_attempts", messages.tooManyAttempts, { "retry-after": String(Math.max(1, wait)) });
  };
  if ((await ledger.takeAttempt("signin-email", emailId, SIGN_IN_WINDOW_SECONDS, now, SIGN_IN_MAX_FAILURES_PER_EMAIL, SLIDING)) === undefined) {
    throw await locked("signin-email", emailId, SIGN_IN_MAX_FAILURES_PER_EMAIL);
  }
  if ((await ledger.takeAttempt("signin-ip", input.ip, SIGN_IN_WINDOW_SECONDS, now, SIGN_IN_MAX_FAILURES_PER_IP, SLIDING)) === undefined) {
    await ledger.returnAttempt("signin-email", emailId, SIGN_IN_WINDOW_SECONDS, now, SLIDING);
    throw await locked("signin-ip", input.ip, SIGN_IN_MAX_FAILURES_PER_IP);
  }
  const user = await users.findByEmail(email);
  const ok = await verifyPassword(input.password, user?.password_hash ?? (await decoyHash()));
  if (!user || !ok) throw new ApiError(401, "invalid_credentials", messages.badCredentials);
  await Promise.all([
    ledger.clearWindow("signin-email", emailId, SIGN_IN_WINDOW_SECONDS, now, SLIDING),
    ledger.returnAttempt("signin-ip", input.ip, SIGN_IN_WINDOW_SECONDS, now, SLIDING),
  ]);
  return user;
}

export async function createSession(ctx: AppContext, user: UserRecord, userAgent: string): Promise<{ sessionId: string; session: SessionRecord }> {
  const sessionId = randomBytes(32).toString("base64url");
  const now = nowSeconds(ctx);
  const session: SessionRecord = {
    session_hash: sha256Hex(sessionId),
    user_id: user.user_id,
    workspace_id: user.default_workspace_id,
    created_at: now,
    expires_at: now + SESSION_TTL_SECONDS,
    user_agent: userAgent.slice(0, 200),
  };
  await ctx.stores.sessions.create(session);
  return { sessionId, session };
}

export const API_KEY_PREFIX = "sk_";

/** Creates an API key; its value is returned once and only its hash is stored. */
export async function createApiKey(
  ctx: AppContext,
  input: { workspaceId: string; userId: string; name: string; value?: string },
): Promise<{ value: string; record: ApiKeyRecord }> {
  const value = input.value ?? `${API_KEY_PREFIX}${randomToken(40)}`;
  const record: ApiKeyRecord = {
    key_id: newId(),
    key_hash: sha256Hex(value),
    prefix: value.slice(0, 7),
    name: input.name,
    user_id: input.userId,
    workspace_id: input.workspaceId,
    created_at: nowSeconds(ctx),
    last_used_at: null,
  };
  if (!(await ctx.stores.apiKeys.create(record))) throw new ApiError(409, "api_key_exists", "This API key is already registered.");
  return { value, record };
}
