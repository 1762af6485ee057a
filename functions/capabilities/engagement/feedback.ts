import type { AppContext } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import { newId } from "../../platform/adapters/ids.js";
import { ApiError } from "../../platform/http/errors.js";

/**
 * Feedback from the popover (app-shell.md §4, §7): classified with plain rules into relevant,
 * category and positive, and stored for the server's admins. Rate limited per user (the web
 * treats "too many requests" as success, as the spec says).
 */
export const FEEDBACK_MAX_CHARS = 5000;
export const FEEDBACK_PER_HOUR = 10;
export const FEEDBACK_CATEGORIES = ["bug", "feature_request", "voice_quality", "billing", "praise", "other"] as const;
export type FeedbackCategory = (typeof FEEDBACK_CATEGORIES)[number];

const RULES: Array<[FeedbackCategory, RegExp]> = [
  ["bug", /\b(bug|broken|crash\w*|error\w*|fail\w*|doesn'?t work|does not work|not working|stuck|freez\w*|glitch\w*)\b/i],
  ["billing", /\b(price|pricing|pay\w*|credit\w*|plan|subscription|invoice|charged?|refund|quota)\b/i],
  ["feature_request", /\b(add|wish|would like|would love|please support|feature|could you|can you|missing|should have|allow)\b/i],
  ["voice_quality", /\b(voice\w*|sound\w*|robotic|pronounc\w*|pronunciation|accent|audio|intonation|speed|pitch|quality)\b/i],
  ["praise", /\b(love|great|awesome|amazing|excellent|fantastic|thanks?|thank you|brilliant|nice)\b/i],
];
const POSITIVE = /\b(love|great|awesome|amazing|excellent|fantastic|thanks?|good|nice|brilliant|helpful|easy|perfect|like)\b/gi;
const NEGATIVE = /\b(bad|terrible|awful|hate|broken|bug|crash\w*|error\w*|fail\w*|slow|worst|annoying|confusing|hard|wrong|robotic|not|doesn'?t|can'?t|never)\b/gi;

export function classifyFeedback(text: string): { relevant: boolean; category: FeedbackCategory; positive: boolean } {
  const t = text.trim();
  const words = t.split(/\s+/).filter((w) => /\p{L}{2,}/u.test(w));
  const letters = [...t].filter((c) => /\p{L}/u.test(c)).length;
  // Relevant: a few real words, mostly letters (not a keyboard mash or a row of symbols).
  const relevant = words.length >= 2 && letters / Math.max(1, [...t].length) > 0.5 && !/(.)\1{5,}/.test(t);
  const category = RULES.find(([, re]) => re.test(t))?.[0] ?? "other";
  const score = (t.match(POSITIVE)?.length ?? 0) - (t.match(NEGATIVE)?.length ?? 0);
  return { relevant, category, positive: score > 0 };
}

export async function submitFeedback(ctx: AppContext, caller: Caller, feedback: string) {
  const now = Math.floor(ctx.now() / 1000);
  if ((await ctx.stores.ledger.hit("feedback", caller.userId, 3600, now)) > FEEDBACK_PER_HOUR) {
    throw new ApiError(429, "too_many_requests", "You have sent a lot of feedback in the last hour. Thank you! Please try again later.", { "retry-after": "3600" });
  }
  const verdict = classifyFeedback(feedback);
  const user = await caller.user();
  await ctx.stores.engagement.putFeedback({ feedback_id: newId(), user_id: caller.userId, workspace_id: caller.workspaceId, email: user.email, feedback, ...verdict, created_at: now });
  return verdict;
}
