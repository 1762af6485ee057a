import { z } from "zod";
import type { ApiRouter } from "../../../platform/http/app.js";
import { json } from "../../../platform/http/types.js";
import { jsonBody, q, queryParams } from "../../../platform/http/validate.js";
import { ApiError } from "../../../platform/http/errors.js";
import { BREAKDOWNS, characterStats, INTERVALS, METRICS } from "../characterStats.js";
import { TIER_IDS, TIERS } from "../../../platform/domain/tiers.js";
import { changeLimit } from "../../../platform/domain/credits.js";

const FREE_STATUSES = ["free", "free_disabled"] as const;
const PAID_STATUSES = ["trialing", "active", "incomplete", "past_due"] as const;
const SubscriptionBody = z
  .object({ tier: z.enum(TIER_IDS).optional(), status: z.enum([...FREE_STATUSES, ...PAID_STATUSES]).optional() })
  .refine((b) => b.tier !== undefined || b.status !== undefined, { message: "Give a tier, a status, or both." });

const MAX_WINDOW_MS = 3 * 366 * 86_400_000;

const Query = z.object({
  start_unix: z.coerce.number().int().min(0),
  end_unix: z.coerce.number().int().min(0),
  include_workspace_metrics: q.bool().optional(),
  breakdown_type: z.enum(BREAKDOWNS).optional(),
  aggregation_interval: z.enum(INTERVALS).optional(),
  aggregation_bucket_size: z.coerce.number().int().min(60).max(366 * 86_400).optional(),
  metric: z.enum(METRICS).optional(),
});

/** Usage analytics (contract §13a) and the subscription change a server admin makes (no payment provider). */
export function registerUsage(r: ApiRouter): void {
  r.get("/v1/usage/character-stats", async (req, rc) => {
    const p = queryParams(req, Query);
    if (p.end_unix - p.start_unix > MAX_WINDOW_MS) throw new ApiError(422, "window_too_long", "The usage window can span at most 3 years.");
    return json(
      await characterStats(rc.app, await rc.caller(), {
        startMs: p.start_unix,
        endMs: p.end_unix,
        includeWorkspace: p.include_workspace_metrics ?? false,
        breakdown: p.breakdown_type ?? "none",
        interval: p.aggregation_interval ?? "day",
        bucketSeconds: p.aggregation_bucket_size,
        metric: p.metric ?? "credits",
      }),
    );
  });

  // Timbre's: on a self-hosted server there is no billing; a server administrator sets the plan.
  // The status stands in for a payment provider's: free or free_disabled on the free plan; trialing, active,
  // incomplete or past_due on a paid one (the last two show the shell's billing banner).
  r.patch("/v1/workspace/subscription", async (req, rc) => {
    const body = jsonBody(req, SubscriptionBody);
    const caller = await rc.caller();
    await caller.requireServerAdmin();
    const ws = await caller.workspace();
    const tier = body.tier ?? ws.tier;
    const status = body.status ?? (body.tier ? (tier === "free" ? "free" : "active") : ws.status);
    const allowed: readonly string[] = tier === "free" ? FREE_STATUSES : PAID_STATUSES;
    if (!allowed.includes(status)) throw new ApiError(422, "invalid_subscription_status", `A ${tier === "free" ? "free" : "paid"} plan's status is one of ${allowed.join(", ")}.`);
    await rc.app.stores.workspaces.update(caller.workspaceId, { tier, status });
    const usage = body.tier ? await changeLimit(rc.app, caller.workspaceId, TIERS[tier].characterLimit) : undefined;
    return json({ status: "ok", tier, subscription_status: status, character_limit: usage?.character_limit ?? null, character_count: usage?.character_count ?? null });
  });
}
