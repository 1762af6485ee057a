import type { AppContext } from "../context.js";
import type { Logger } from "../adapters/log.js";
import type { Caller } from "../domain/caller.js";
import { authenticateRequest } from "./auth.js";
import { ApiError } from "./errors.js";
import { Router } from "./router.js";
import { json, type ApiRequest, type ApiResponse } from "./types.js";
import { validationFromZod } from "./validate.js";
import { ZodError } from "zod";

export interface RouteContext {
  app: AppContext;
  log: Logger;
  /** The authenticated caller; throws 401 when the request carries no valid credentials. */
  caller(): Promise<Caller>;
}

export type ApiRouter = Router<RouteContext>;
export type ApiHandler = (req: ApiRequest) => Promise<ApiResponse>;

/**
 * The API is called from browsers with keys (the official SDK runs there too), never with
 * cookies, so any origin may call it. A preflight is answered with the headers it asks for:
 * SDKs add their own (X-Fern-*), and a fixed list would break the next one.
 */
const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, PATCH, PUT, DELETE, OPTIONS",
  "access-control-expose-headers":
    "request-id, x-request-id, history-item-id, character-cost, regeneration-count, free-regenerations-remaining, generation-info, tts-latency-ms, content-disposition, x-timbre-warnings, retry-after, server-timing, x-timbre-slot-wait-ms",
};
const BASE_ALLOWED_HEADERS = "xi-api-key, content-type, authorization, x-request-id, idempotency-key";
const HEADER_LIST = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+(\s*,\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+)*$/;

function preflight(req: ApiRequest): ApiResponse {
  const asked = req.headers["access-control-request-headers"]?.trim();
  const allow = asked && asked.length <= 2048 && HEADER_LIST.test(asked) ? `${BASE_ALLOWED_HEADERS}, ${asked}` : BASE_ALLOWED_HEADERS;
  return { status: 204, headers: { "access-control-allow-headers": allow, "access-control-max-age": "600", vary: "Access-Control-Request-Headers" }, body: { kind: "empty" } };
}

/** Turns an error into the wire's error shape; anything unexpected is a logged 500 without internals. */
export function errorResponse(e: unknown, log: Logger): ApiResponse {
  if (e instanceof ApiError) return json(e.toBody(), e.statusCode, e.headers);
  if (e instanceof ZodError) {
    const v = validationFromZod("body", e);
    return json(v.toBody(), 422);
  }
  log.error("unhandled error", { error: e });
  return json({ detail: { status: "internal_error", message: "We are sorry, something went wrong." } }, 500);
}

/** The /v1 and /v2 API as one transport-neutral function: request in, response out. */
export function createApiHandler(ctx: AppContext, register: (router: ApiRouter) => void): ApiHandler {
  const router: ApiRouter = new Router<RouteContext>();
  register(router);
  const route = async (req: ApiRequest, log: Logger): Promise<ApiResponse> => {
    if (req.method === "OPTIONS") return preflight(req);
    const match = router.match(req.method, req.path);
    if (match === "not_found") return json({ detail: { status: "not_found", message: "Not Found" } }, 404);
    if (match === "method_not_allowed") return json({ detail: { status: "method_not_allowed", message: "Method Not Allowed" } }, 405);
    if ("invalidParam" in match) {
      throw router.invalidParamError(match.invalidParam, match.value) ?? new ApiError(404, "not_found", `No resource has the ${match.invalidParam} given in the path.`);
    }
    let caller: Promise<Caller> | undefined;
    const rc: RouteContext = { app: ctx, log, caller: () => (caller ??= authenticateRequest(ctx, req)) };
    // Set on the request itself: a copy would read (and join) a body the handler may never need.
    req.params = match.params;
    return match.handler(req, rc);
  };
  return async (req) => {
    const started = performance.now();
    const log = ctx.log.child(req.clientRequestId ? { request_id: req.requestId, client_request_id: req.clientRequestId } : { request_id: req.requestId });
    let res: ApiResponse;
    try {
      res = await route(req, log);
    } catch (e) {
      // Whatever failed, the answer keeps the wire's shape and the CORS and request-id headers.
      res = errorResponse(e, log);
    }
    res.headers = { ...CORS, ...res.headers, "request-id": req.requestId, "x-request-id": req.clientRequestId ?? req.requestId };
    const level = res.status >= 500 ? "error" : "info";
    log[level]("request", { method: req.method, path: req.path, status: res.status, ms: Math.round(performance.now() - started) });
    return res;
  };
}
