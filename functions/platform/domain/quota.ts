import type { UsageRecord } from "../stores/ledger.js";
import { ApiError } from "../http/errors.js";

/** The quota_exceeded error, as the API sends it and the web predicts it before sending. */
export function quotaExceeded(usage: Pick<UsageRecord, "character_limit" | "remaining">, amount: number): ApiError {
  return new ApiError(
    401,
    "quota_exceeded",
    `This request exceeds your quota of ${usage.character_limit}. You have ${Math.max(0, usage.remaining)} credits remaining, while ${amount} credits are required for this request.`,
  );
}

/**
 * A limit narrower than the workspace's: an API key's `character_limit` (service-account keys) or
 * a member's `usage_limit` (set on the invite), both in credits per the workspace's period.
 */
export interface SpendingCap {
  /** The counter's id: `key:<key id>` or `member:<user id>`. */
  id: string;
  kind: "api_key" | "member";
  limit: number;
}

/** The quota_exceeded error of a spending cap (same status and shape as the workspace's quota). */
export function capExceeded(cap: SpendingCap, used: number, amount: number): ApiError {
  const left = Math.max(0, cap.limit - used);
  const whose = cap.kind === "api_key" ? "this API key's limit" : "your usage limit in this workspace";
  return new ApiError(
    401,
    "quota_exceeded",
    `This request exceeds ${whose} of ${cap.limit} credits for this period. ${left} credits remain under it, while ${amount} credits are required for this request.`,
  );
}
