import type { z } from "zod";
import { ApiTokenWire } from "./wire.js";
import { speechErrorView, type SpeechErrorView } from "./errors.js";
import { notePermissionDenial } from "../../lib/shell.js";

/**
 * The browser's own calls to /v1 (same origin), for what must not go through a loader: audio
 * streamed while it plays, voice search as the user types, history pages. A short-lived bearer
 * token comes from /app/api-token (minted from the HttpOnly session) and is reused until shortly
 * before it expires.
 */
export const API_TOKEN_PATH = "/app/api-token";
const REFRESH_MARGIN_SECONDS = 60;

let cached: { token: string; expiresAt: number } | null = null;
let pending: Promise<string> | null = null;

export class ApiCallError extends Error {
  override name = "ApiCallError";
  constructor(
    readonly status: number,
    readonly view: SpeechErrorView,
    /** The API's own code (`detail.status`), when it sent one. */
    readonly code: string | null = null,
  ) {
    super(view.message);
  }
}

async function fetchToken(): Promise<string> {
  const res = await fetch(API_TOKEN_PATH, { credentials: "same-origin", headers: { accept: "application/json" }, cache: "no-store" });
  if (!res.ok) throw new ApiCallError(res.status, speechErrorView(res.status, await res.json().catch(() => undefined)));
  const body = ApiTokenWire.parse(await res.json());
  cached = { token: body.token, expiresAt: body.expires_at };
  return body.token;
}

export function apiToken(forceRefresh = false): Promise<string> {
  const now = Date.now() / 1000;
  if (!forceRefresh && cached && cached.expiresAt - REFRESH_MARGIN_SECONDS > now) return Promise.resolve(cached.token);
  pending ??= fetchToken().finally(() => {
    pending = null;
  });
  return pending;
}

async function isExpiredToken(res: Response): Promise<boolean> {
  if (res.status !== 401) return false;
  const body: unknown = await res.clone().json().catch(() => undefined);
  const status = (body as { detail?: { status?: unknown } } | undefined)?.detail?.status;
  // 401 is also quota_exceeded: only a rejected token is worth a retry.
  return status === "invalid_api_key";
}

/** fetch against /v1 as the signed-in user; a rejected token is refreshed once. */
export async function v1Fetch(path: string, init: RequestInit = {}): Promise<Response> {
  const send = async (token: string) => {
    const headers = new Headers(init.headers);
    headers.set("authorization", `Bearer ${token}`);
    if (typeof init.body === "string" && !headers.has("content-type")) headers.set("content-type", "application/json");
    return fetch(path, { ...init, headers, credentials: "omit" });
  };
  const first = await send(await apiToken());
  const res = (await isExpiredToken(first)) ? await send(await apiToken(true)) : first;
  // A refusal for a permission: the page gates' cached permissions are out of date.
  await notePermissionDenial(res);
  return res;
}

/** The error a failed response stands for (its body parsed by the error catalogue). */
export async function apiCallError(res: Response): Promise<ApiCallError> {
  const body: unknown = await res.json().catch(() => undefined);
  const detail = (body as { detail?: { status?: unknown } } | undefined)?.detail;
  return new ApiCallError(res.status, speechErrorView(res.status, body), typeof detail?.status === "string" ? detail.status : null);
}

/** A JSON call whose answer is parsed by `schema`; failures throw ApiCallError. */
export async function v1Json<T>(path: string, schema: z.ZodType<T, z.ZodTypeDef, unknown>, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const { json, ...rest } = init;
  const res = await v1Fetch(path, json === undefined ? rest : { ...rest, body: JSON.stringify(json) });
  if (!res.ok) throw await apiCallError(res);
  return schema.parse(await res.json());
}
