import { createHmac, randomBytes } from "node:crypto";
import type { AppContext } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import type { UserRecord } from "../../platform/stores/users.js";
import { newId, safeEqual, sha256Hex } from "../../platform/adapters/ids.js";
import { publicKey } from "../../platform/adapters/s3.js";
import { ApiError } from "../../platform/http/errors.js";
import { hashPassword, verifyPassword } from "../../platform/domain/passwords.js";
import { seal, unseal } from "../../platform/domain/sealed.js";
import { runCpu } from "../../platform/offload/index.js";
import { MAX_PHOTO_SIDE, photoHeader } from "./photo-work.js";
import { matchTotp, newTotpSecret, otpauthUrl } from "./totp.js";

/**
 * The account settings of a signed-in person: name, photo, password, sessions and two-factor
 * authentication (TOTP with backup codes). Sign-in asks for a code when two-factor is on: the
 * password check then answers with a short-lived challenge instead of a session.
 */
export const accountMessages = {
  wrongPassword: "Your current password is not correct.",
  wrongCode: "That code is not correct. Check your authenticator app's clock and try again.",
  codeUsed: "That code was already used. Please wait for the next code from your authenticator app.",
  notEnabled: "Two-factor authentication is not turned on.",
  alreadyEnabled: "Two-factor authentication is already turned on.",
  noSetup: "Start the setup first: scan the new key, then enter a code from your app.",
  photoType: "Please upload a PNG or JPEG image.",
  photoTooBig: (mb: number) => `The photo must be at most ${mb} MB.`,
  photoTooLarge: (px: number) => `The photo must be at most ${px} pixels wide and high.`,
  challengeExpired: "Your sign-in took too long. Please sign in again.",
  tooManyCodes: "Too many wrong codes. Please wait 15 minutes and try again.",
};

export const PHOTO_MAX_BYTES = 5 * 1024 * 1024;
export const BACKUP_CODE_COUNT = 10;
export const CHALLENGE_TTL_SECONDS = 5 * 60;
const CODE_ATTEMPT_WINDOW = 15 * 60;
const CODE_ATTEMPTS_MAX = 10;
const PURPOSE = "two-factor";

const nowUnix = (ctx: AppContext) => Math.floor(ctx.now() / 1000);

export async function updateProfile(ctx: AppContext, caller: Caller, input: { first_name: string | null }): Promise<void> {
  await ctx.stores.users.update(caller.userId, { first_name: input.first_name?.trim() || null });
}

/** Checks the image by its bytes (type and size from the header, before any decoding), then shrinks it on a worker. */
export async function setPhoto(ctx: AppContext, caller: Caller, bytes: Uint8Array): Promise<string> {
  if (bytes.length > PHOTO_MAX_BYTES) throw new ApiError(413, "photo_too_big", accountMessages.photoTooBig(PHOTO_MAX_BYTES / 1024 / 1024));
  const head = photoHeader(bytes);
  if (!head) throw new ApiError(400, "photo_type", accountMessages.photoType);
  if (head.width < 1 || head.height < 1 || head.width > MAX_PHOTO_SIDE || head.height > MAX_PHOTO_SIDE) throw new ApiError(400, "photo_dimensions", accountMessages.photoTooLarge(MAX_PHOTO_SIDE));
  let jpeg: Uint8Array;
  try {
    jpeg = await runCpu("photo", { bytes, type: head.type });
  } catch {
    throw new ApiError(400, "photo_unreadable", accountMessages.photoType);
  }
  // An unguessable id per upload: the photo is served without credentials (an <img> sends none).
  const photoId = newId();
  const key = publicKey("photos", `${photoId}.jpg`);
  await ctx.blobs.put(key, jpeg, "image/jpeg");
  const user = await caller.user();
  await ctx.stores.users.update(caller.userId, { photo_key: key, photo_url: `/v1/photos/${photoId}` });
  if (user.photo_key) await ctx.blobs.deleteMany([user.photo_key]).catch(() => undefined);
  return `/v1/photos/${photoId}`;
}

export async function removePhoto(ctx: AppContext, caller: Caller): Promise<void> {
  const user = await caller.user();
  await ctx.stores.users.update(caller.userId, { photo_key: null, photo_url: null });
  if (user.photo_key) await ctx.blobs.deleteMany([user.photo_key]).catch(() => undefined);
}

/** Changes the password (the current one proves it is the user) and ends every other session. */
export async function changePassword(ctx: AppContext, caller: Caller, input: { current_password: string; new_password: string }): Promise<number> {
  const user = await caller.user();
  if (!(await verifyPassword(input.current_password, user.password_hash))) throw new ApiError(400, "wrong_password", accountMessages.wrongPassword);
  await ctx.stores.users.update(user.user_id, { password_hash: await hashPassword(input.new_password) });
  return signOutOthers(ctx, caller);
}

export async function listSessions(ctx: AppContext, caller: Caller) {
  const sessions = await ctx.stores.sessions.ofUser(caller.userId, nowUnix(ctx));
  return sessions.map((s) => ({
    session_id: s.session_hash,
    created_at_unix: s.created_at,
    expires_at_unix: s.expires_at,
    user_agent: s.user_agent,
    is_current: s.session_hash === caller.principal.sessionHash,
  }));
}

/** Ends every session of the user but the one making the request; returns how many ended. */
export async function signOutOthers(ctx: AppContext, caller: Caller): Promise<number> {
  const others = (await ctx.stores.sessions.ofUser(caller.userId, nowUnix(ctx))).filter((s) => s.session_hash !== caller.principal.sessionHash);
  await Promise.all(others.map((s) => ctx.stores.sessions.delete(s.session_hash)));
  return others.length;
}

export async function signOutSession(ctx: AppContext, caller: Caller, sessionId: string): Promise<void> {
  const mine = (await ctx.stores.sessions.ofUser(caller.userId, nowUnix(ctx))).find((s) => s.session_hash === sessionId);
  if (!mine) throw new ApiError(404, "session_not_found", "No such session.");
  await ctx.stores.sessions.delete(mine.session_hash);
}

/* ---------- Two-factor authentication ---------- */

export function twoFactorStatus(user: UserRecord) {
  return { enabled: Boolean(user.two_factor), enabled_at_unix: user.two_factor?.enabled_at ?? null, backup_codes_left: user.backup_code_hash?.length ?? 0 };
}

export async function startTwoFactorSetup(ctx: AppContext, caller: Caller): Promise<{ secret: string; otpauth_url: string }> {
  const user = await caller.user();
  if (user.two_factor) throw new ApiError(400, "two_factor_enabled", accountMessages.alreadyEnabled);
  const secret = newTotpSecret();
  await ctx.stores.users.update(user.user_id, { two_factor_pending: seal(ctx.secrets.session, PURPOSE, secret) });
  return { secret, otpauth_url: otpauthUrl(secret, user.email) };
}

function newBackupCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: BACKUP_CODE_COUNT }, () => {
    const raw = randomBytes(5).toString("hex");
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
  return { codes, hashes: codes.map((c) => sha256Hex(c)) };
}

/** Confirms the pending secret with a first code; returns the backup codes (shown once). */
export async function enableTwoFactor(ctx: AppContext, caller: Caller, code: string): Promise<{ backup_codes: string[] }> {
  const user = await caller.user();
  if (user.two_factor) throw new ApiError(400, "two_factor_enabled", accountMessages.alreadyEnabled);
  if (!user.two_factor_pending) throw new ApiError(400, "two_factor_not_started", accountMessages.noSetup);
  await limitCodes(ctx, user.user_id);
  const secret = unseal(ctx.secrets.session, PURPOSE, user.two_factor_pending);
  const step = matchTotp(secret, code.trim(), nowUnix(ctx), null);
  if (step === undefined) throw new ApiError(400, "invalid_code", accountMessages.wrongCode);
  const { codes, hashes } = newBackupCodes();
  await ctx.stores.users.update(user.user_id, { two_factor: { secret_sealed: user.two_factor_pending, enabled_at: nowUnix(ctx), last_step: step }, two_factor_pending: null, backup_code_hash: hashes });
  return { backup_codes: codes };
}

export async function disableTwoFactor(ctx: AppContext, caller: Caller, input: { password: string; code: string }): Promise<void> {
  const user = await caller.user();
  if (!user.two_factor) throw new ApiError(400, "two_factor_disabled", accountMessages.notEnabled);
  if (!(await verifyPassword(input.password, user.password_hash))) throw new ApiError(400, "wrong_password", accountMessages.wrongPassword);
  await checkSecondFactor(ctx, user, input.code);
  await ctx.stores.users.update(user.user_id, { two_factor: null, two_factor_pending: null, backup_code_hash: [] });
}

export async function regenerateBackupCodes(ctx: AppContext, caller: Caller, code: string): Promise<{ backup_codes: string[] }> {
  const user = await caller.user();
  if (!user.two_factor) throw new ApiError(400, "two_factor_disabled", accountMessages.notEnabled);
  await checkSecondFactor(ctx, user, code);
  const { codes, hashes } = newBackupCodes();
  await ctx.stores.users.update(user.user_id, { backup_code_hash: hashes });
  return { backup_codes: codes };
}

async function limitCodes(ctx: AppContext, userId: string): Promise<void> {
  const now = nowUnix(ctx);
  const { ledger } = ctx.stores;
  if ((await ledger.takeAttempt("2fa", userId, CODE_ATTEMPT_WINDOW, now, CODE_ATTEMPTS_MAX, { sliding: true })) === undefined) {
    const wait = await ledger.attemptRetryAfter("2fa", userId, CODE_ATTEMPT_WINDOW, now, CODE_ATTEMPTS_MAX, { sliding: true });
    throw new ApiError(429, "too_many_codes", accountMessages.tooManyCodes, { "retry-after": String(Math.max(1, wait)) });
  }
}

/** A current TOTP code (each good once) or an unused backup code (used up); throws otherwise. */
export async function checkSecondFactor(ctx: AppContext, user: UserRecord, raw: string): Promise<void> {
  await limitCodes(ctx, user.user_id);
  const code = raw.trim().toLowerCase();
  const tf = user.two_factor!;
  const step = matchTotp(unseal(ctx.secrets.session, PURPOSE, tf.secret_sealed), code, nowUnix(ctx), tf.last_step);
  if (step !== undefined) {
    // Conditional on no later or equal step being used meanwhile: parallel requests with one code get one success.
    if (await ctx.stores.users.useTotpStep(user.user_id, tf.secret_sealed, step)) return;
    throw new ApiError(400, "code_already_used", accountMessages.codeUsed);
  }
  const hash = sha256Hex(code);
  if ((user.backup_code_hash ?? []).some((h) => safeEqual(h, hash)) && (await ctx.stores.users.useBackupCode(user.user_id, hash, (h) => safeEqual(h, hash)))) return;
  throw new ApiError(400, "invalid_code", accountMessages.wrongCode);
}

/* The sign-in challenge: proof that the password was right, good for a few minutes, for one user. */
function challengeMac(secret: string, payload: string) {
  return createHmac("sha256", secret).update(`timbre.2fa.${payload}`).digest("base64url");
}

export function issueChallenge(ctx: AppContext, user: UserRecord): string {
  const payload = Buffer.from(JSON.stringify({ uid: user.user_id, exp: nowUnix(ctx) + CHALLENGE_TTL_SECONDS })).toString("base64url");
  return `${payload}.${challengeMac(ctx.secrets.session, payload)}`;
}

export async function userOfChallenge(ctx: AppContext, challenge: string): Promise<UserRecord> {
  const [payload, mac] = challenge.split(".");
  const expired = () => new ApiError(401, "challenge_expired", accountMessages.challengeExpired);
  if (!payload || !mac || !safeEqual(mac, challengeMac(ctx.secrets.session, payload))) throw expired();
  let claims: { uid?: unknown; exp?: unknown };
  try {
    claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { uid?: unknown; exp?: unknown };
  } catch {
    throw expired();
  }
  if (typeof claims.uid !== "string" || typeof claims.exp !== "number" || claims.exp <= nowUnix(ctx)) throw expired();
  const user = await ctx.stores.users.get(claims.uid);
  if (!user?.two_factor) throw expired();
  return user;
}
