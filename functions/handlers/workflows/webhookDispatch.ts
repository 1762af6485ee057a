import { z } from "zod";
import type { StepHandlers } from "./types.js";
import { dispatchDue } from "../../capabilities/webhooks/dispatch.js";

/** Rounds one execution runs before it ends (the schedule or the next event starts another). */
export const MAX_ROUNDS = 20;
const Input = z.object({ dispatch: z.object({ round: z.number().int() }).optional() }).passthrough();

export const webhookDispatchSteps: StepHandlers = {
  /** One round: everything due now, within a budget that fits the step function's timeout. */
  async dispatch(raw, ctx) {
    const round = (Input.parse(raw ?? {}).dispatch?.round ?? 0) + 1;
    const r = await dispatchDue(ctx, { budgetMs: 3 * 60_000 });
    return { round, processed: r.processed, more: r.more && round < MAX_ROUNDS };
  },
};
