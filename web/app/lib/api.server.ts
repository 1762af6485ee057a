import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { INTERNAL_HEADER } from "../../../functions/platform/domain/internal.js";
import { issueToken, TOKEN_TTL_SECONDS } from "../../../functions/platform/domain/tokens.js";
import { sha256Hex } from "../../../functions/platform/adapters/ids.js";
import type { WebSession } from "./session.server.js";
import { noteApiAnswer } from "./permissionCache.server.js";

/**
 * The web server's only way to data: /v1 on the same origin, as the signed-in user (a bearer
 * token minted from the session for each call) and as the web server (its proof header, so /v1
 * trusts the forwarded browser address for rate limits). Every response is parsed by a schema.
 */
const DomainErrorSchema = z.object({ detail: z.object({ status: z.string(), message: z.string() }) });
const ValidationErrorSchema = z.object({ detail: z.array(z.object({ loc: z.array(z.union([z.string(), z.number()])), msg: z.string() })) });

export class ApiFailure extends Error {
  override name = "ApiFailure";
  constructor(
    readonly status: number,
    /** The domain error's status ("invalid_credentials", "missing_permissions", ...), when given. */
    readonly code: string | undefined,
    message: string,
    /** Field messages of a 422, keyed by the last part of each location. */
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
  }
}

async function failure(res: Response): Promise<ApiFailure> {
  const body: unknown = await res.json().catch(() => undefined);
  const domain = DomainErrorSchema.safeParse(body);
  if (domain.success) return new ApiFailure(res.status, domain.data.detail.status, domain.data.detail.message);
  const validation = ValidationErrorSchema.safeParse(body);
  if (validation.success) {
    const fields: Record<string, string> = {};
    for (const d of validation.data.detail) fields[String(d.loc[d.loc.length - 1])] ??= d.msg;
    return new ApiFailure(res.status, "validation_error", validation.data.detail[0]?.msg ?? "Invalid request", fields);
  }
  return new ApiFailure(res.status, undefined, `The server answered ${res.status}. Please try again.`);
}

export interface ApiCall<T> {
  method?: "GET" | "POST" | "PATCH" | "DELETE";
  body?: unknown;
  schema: z.ZodType<T, z.ZodTypeDef, unknown>;
}

export interface ApiClient {
  call<T>(path: string, init: ApiCall<T>): Promise<T>;
  /** A raw body (an uploaded image), answered with JSON. */
  send<T>(path: string, init: { method: "PUT" | "POST"; body: Uint8Array; contentType: string; schema: z.ZodType<T, z.ZodTypeDef, unknown> }): Promise<T>;
  /** A JSON body answered with bytes (audio): the response itself, or ApiFailure. */
  fetchBytes(path: string, init: { method: "POST"; body: unknown }): Promise<Response>;
}

export function sessionToken(context: AppLoadContext, auth: WebSession): string {
  return issueToken(context.sessionSecret, {
    sid: sha256Hex(auth.session_id),
    uid: auth.user_id,
    ws: auth.workspace_id,
    exp: Math.floor(Date.now() / 1000) + TOKEN_TTL_SECONDS,
  });
}

/** A /v1 client for this request; with `auth`, calls are made as that session's user. */
export function api(context: AppLoadContext, request: Request, auth?: WebSession): ApiClient {
  const headersFor = () => {
    const headers = new Headers({ [INTERNAL_HEADER]: context.internalProof, "x-forwarded-for": context.clientIp, accept: "application/json" });
    const ua = request.headers.get("user-agent");
    if (ua) headers.set("user-agent", ua);
    if (auth) headers.set("authorization", `Bearer ${sessionToken(context, auth)}`);
    return headers;
  };
  // The permission cache hears of every answer given for this user (a 403 for a permission, a workspace change).
  const noted = (method: string, path: string, f: ApiFailure) => {
    noteApiAnswer(auth, method, path, f.status, f.code);
    return f;
  };
  return {
    async call(path, { method = "GET", body, schema }) {
      const headers = headersFor();
      if (body !== undefined) headers.set("content-type", "application/json");
      const res = await fetch(new URL(path, context.apiBase), { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: request.signal });
      if (!res.ok) throw await noted(method, path, await failure(res));
      noteApiAnswer(auth, method, path, res.status, undefined);
      return schema.parse(await res.json());
    },
    async fetchBytes(path, { method, body }) {
      const headers = headersFor();
      headers.set("content-type", "application/json");
      headers.set("accept", "*/*");
      const res = await fetch(new URL(path, context.apiBase), { method, headers, body: JSON.stringify(body), signal: request.signal });
      if (!res.ok) throw await noted(method, path, await failure(res));
      return res;
    },
    async send(path, { method, body, contentType, schema }) {
      const headers = headersFor();
      headers.set("content-type", contentType);
      const res = await fetch(new URL(path, context.apiBase), { method, headers, body: new Blob([body as Uint8Array<ArrayBuffer>]), signal: request.signal });
      if (!res.ok) throw await noted(method, path, await failure(res));
      noteApiAnswer(auth, method, path, res.status, undefined);
      return schema.parse(await res.json());
    },
  };
}

/* ---------- Wire shapes the web reads (only the fields it uses) ---------- */

export const SessionWire = z.object({ session_id: z.string(), user_id: z.string(), workspace_id: z.string(), expires_at_unix: z.number() });
export const OkWire = z.object({ status: z.string() });

export const SubscriptionWire = z.object({
  tier: z.string(),
  status: z.string(),
  character_count: z.number(),
  character_limit: z.number(),
  next_character_count_reset_unix: z.number().nullable(),
  voice_limit: z.number(),
});

export const UserWire = z.object({
  user_id: z.string(),
  workspace_id: z.string(),
  first_name: z.string().nullable(),
  display_name: z.string().nullable(),
  email: z.string(),
  photo_url: z.string().nullable(),
  workspace_name: z.string(),
  is_producer: z.boolean(),
  seat_type: z.string(),
  created_at: z.number(),
  referral_link_code: z.string().nullable().optional(),
  is_server_admin: z.boolean().optional(),
  subscription: SubscriptionWire,
});

export { WorkspaceWire } from "./workspaceWire.js";
