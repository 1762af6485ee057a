import { ZodError } from "zod";
import type { Logger } from "../../platform/adapters/log.js";
import { ApiError, ValidationError } from "../../platform/http/errors.js";
import { validationFromZod } from "../../platform/http/validate.js";
import { json, type ApiResponse } from "../../platform/http/types.js";

/**
 * Errors in OpenAI's shape, `{error: {message, type, param, code}}`, for the /openai/v1 routes.
 * The shared code below them throws Timbre's errors; this turns each into what an OpenAI client
 * expects (its SDKs read `error.message` and the status).
 */
export class OpenAIError extends ApiError {
  constructor(
    statusCode: number,
    readonly type: string,
    message: string,
    readonly param: string | null = null,
    readonly code: string | null = null,
    headers: Record<string, string> = {},
  ) {
    super(statusCode, code ?? type, message, headers);
  }
  override toBody(): unknown {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.code } };
  }
}

export const invalidRequest = (message: string, param: string | null = null, code: string | null = null, status = 400) =>
  new OpenAIError(status, "invalid_request_error", message, param, code);

/** Timbre's errors as OpenAI's: statuses as OpenAI uses them, Timbre's message and code kept. */
export function toOpenAIError(e: unknown): OpenAIError | undefined {
  if (e instanceof OpenAIError) return e;
  if (e instanceof ZodError) e = validationFromZod("body", e);
  if (e instanceof ValidationError) {
    const first = e.issues[0];
    const param = first && first.loc[0] === "body" && typeof first.loc[1] === "string" ? first.loc.slice(1).join(".") : null;
    const message = e.issues.map((i) => (i.loc.length > 1 ? `${i.loc.slice(1).join(".")}: ${i.msg}` : i.msg)).join("; ");
    return new OpenAIError(400, "invalid_request_error", message, param, first?.type === "json_invalid" ? "invalid_json" : "invalid_value");
  }
  if (!(e instanceof ApiError)) return undefined;
  const retry = e.headers;
  switch (e.status) {
    case "invalid_api_key":
      return new OpenAIError(401, "invalid_request_error", e.message, null, "invalid_api_key");
    case "quota_exceeded":
      // OpenAI answers an exhausted quota with 429 insufficient_quota (retrying will not help).
      return new OpenAIError(429, "insufficient_quota", e.message, null, "insufficient_quota", retry);
    case "voice_not_found":
      return new OpenAIError(404, "invalid_request_error", e.message, "voice", "voice_not_found");
  }
  if (e.statusCode === 429) return new OpenAIError(429, "rate_limit_exceeded", e.message, null, e.status, retry);
  if (e.statusCode === 401) return new OpenAIError(401, "invalid_request_error", e.message, null, e.status);
  if (e.statusCode === 403) return new OpenAIError(403, "permission_error", e.message, null, e.status);
  if (e.statusCode === 404) return new OpenAIError(404, "invalid_request_error", e.message, null, e.status);
  if (e.statusCode >= 500) return new OpenAIError(e.statusCode, "server_error", e.message, null, e.status, retry);
  return new OpenAIError(e.statusCode, "invalid_request_error", e.message, null, e.status, retry);
}

/** Runs a handler and answers its errors in OpenAI's shape (a 500 stays opaque and is logged). */
export async function inOpenAIShape(log: Logger, run: () => Promise<ApiResponse>): Promise<ApiResponse> {
  try {
    return await run();
  } catch (e) {
    const err = toOpenAIError(e);
    if (err) return json(err.toBody(), err.statusCode, err.headers);
    log.error("unhandled error", { error: e });
    return json({ error: { message: "The server had an error while processing your request.", type: "server_error", param: null, code: null } }, 500);
  }
}
