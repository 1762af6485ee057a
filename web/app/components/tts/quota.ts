import type { UsageRecord } from "../../../../functions/platform/stores/ledger.js";
import { quotaExceeded } from "../../../../functions/platform/domain/quota.js";

/**
 * The credit check before a generation is sent (speech-generation.md §6): free-tier users are
 * blocked when the quota would be exceeded; paid users get a quota dialog. The message is the
 * one /v1 answers with (quota_exceeded), so the page and the API say the same thing.
 */
export const QUOTA_DIALOG_TITLE = "Not enough credits";

export interface QuotaCheck {
  /** Free tier over its quota: Generate is disabled and the message shows beside it. */
  blocked: boolean;
  /** A paid tier over its quota: Generate opens the quota dialog instead of sending. */
  dialog: boolean;
  message: string;
}

export function quotaMessage(limit: number, remaining: number, cost: number): string {
  return quotaExceeded({ character_limit: limit, remaining } as Pick<UsageRecord, "character_limit" | "remaining"> as UsageRecord, cost).message;
}

export function quotaCheck(input: { cost: number; tier: string; used: number; limit: number }): QuotaCheck {
  const remaining = Math.max(0, input.limit - input.used);
  if (input.cost <= remaining) return { blocked: false, dialog: false, message: "" };
  const message = quotaMessage(input.limit, remaining, input.cost);
  return input.tier === "free" ? { blocked: true, dialog: false, message } : { blocked: false, dialog: true, message };
}
