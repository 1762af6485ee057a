import type { UsageRecord } from "../adapters/dynamo/ledger.js";
import { ApiError } from "../http/errors.js";

/** The quota_exceeded error, as the API sends it and the web predicts it before sending. */
export function quotaExceeded(usage: Pick<UsageRecord, "character_limit" | "remaining">, amount: number): ApiError {
  return new ApiError(
    401,
    "quota_exceeded",
    `This request exceeds your quota of ${usage.character_limit}. You have ${Math.max(0, usage.remaining)} credits remaining, while ${amount} credits are required for this request.`,
  );
}
