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

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-headers": "xi-api-key, content-type, authorization, x-request-id, idempotency-key",
  "access-control-allow-methods": "GET, POST, PATCH, PUT, DELETE, OPTIONS",
  "access-control-expose-headers":
    "request-id, x-request-id, history-item-id, character-cost, regeneration-count, generation-info, tts-latency-ms, content-disposition, x-timbre-warnings",
  "access-control-max-age": "600",
};

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
  return async (req) => {
    const started = performance.now();
    const log = ctx.log.child({ request_id: req.requestId });
    let res: ApiResponse;
    if (req.method === "OPTIONS") {
      res = { status: 204, headers: {}, body: { kind: "empty" } };
    } else {
      const match = router.match(req.method, req.path);
      if (match === "not_found") res = json({ detail: { status: "not_found", message: "Not Found" } }, 404);
      else if (match === "method_not_allowed") res = json({ detail: { status: "method_not_allowed", message: "Method Not Allowed" } }, 405);
      else {
        let caller: Promise<Caller> | undefined;
        const rc: RouteContext = { app: ctx, log, caller: () => (caller ??= authenticateRequest(ctx, req)) };
        try {
          res = await match.handler({ ...req, params: match.params }, rc);
        } catch (e) {
          res = errorResponse(e, log);
        }
      }
    }
    res.headers = { ...CORS, ...res.headers, "request-id": req.requestId, "x-request-id": req.requestId };
    const level = res.status >= 500 ? "error" : "info";
    log[level]("request", { method: req.method, path: req.path, status: res.status, ms: Math.round(performance.now() - started) });
    return res;
  };
}
