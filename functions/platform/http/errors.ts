/**
 * Errors as the wire shows them. Domain errors become {"detail":{"status","message"}};
 * validation errors become FastAPI-style {"detail":[{loc,msg,type}]} with status 422.
 */
export interface ValidationIssue {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly statusCode: number,
    readonly status: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
  toBody(): unknown {
    return { detail: { status: this.status, message: this.message } };
  }
}

export class ValidationError extends ApiError {
  override name = "ValidationError";
  constructor(readonly issues: ValidationIssue[]) {
    super(422, "validation_error", issues.map((i) => `${i.loc.join(".")}: ${i.msg}`).join("; "));
  }
  override toBody(): unknown {
    return { detail: this.issues };
  }
}

export const errors = {
  unauthorized: (message = "Invalid API key") => new ApiError(401, "invalid_api_key", message),
  forbidden: (status: string, message: string) => new ApiError(403, status, message),
  notFound: (status: string, message: string) => new ApiError(404, status, message),
  badRequest: (status: string, message: string) => new ApiError(400, status, message),
  conflict: (status: string, message: string) => new ApiError(409, status, message),
  tooMany: (status: string, message: string, retryAfterSeconds?: number) =>
    new ApiError(429, status, message, retryAfterSeconds ? { "retry-after": String(retryAfterSeconds) } : {}),
  validation: (loc: Array<string | number>, msg: string, type = "value_error") => new ValidationError([{ loc, msg, type }]),
};
