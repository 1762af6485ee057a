import { z } from "zod";
import { announceFinished, fitRun, prepareRun, prepareSample, recordFailure } from "../../capabilities/fine-tuning/train.js";
import type { StepHandlers } from "./types.js";

const Run = z.object({ workspace_id: z.string().min(1), voice_id: z.string().min(1), model_id: z.string().min(1), run_id: z.string().min(1), user_id: z.string().nullish() });
const Prepared = z.object({ prepared: z.object({ sample_ids: z.array(z.string()), total: z.number() }) });

export const voiceFineTuningSteps: StepHandlers = {
  prepare: async (raw, ctx) => prepareRun(ctx, Run.parse(raw)),

  sample: async (raw, ctx) => prepareSample(ctx, Run.extend({ sample_id: z.string().min(1), total: z.number().int().min(1) }).parse(raw)),

  async fit(raw, ctx) {
    const input = Run.merge(Prepared).parse(raw);
    return fitRun(ctx, { ...input, sample_ids: input.prepared.sample_ids });
  },

  async finished(raw, ctx) {
    const input = Run.extend({ fitted: z.object({ similarity: z.number(), dataset_seconds: z.number() }) }).parse(raw);
    await announceFinished(ctx, input);
    return { emitted: true };
  },

  async failed(raw, ctx) {
    const input = Run.extend({ error: z.object({ Error: z.string().optional(), Cause: z.string().optional() }).passthrough().optional() }).parse(raw);
    ctx.log.warn("fine-tuning failed", { voice_id: input.voice_id, model_id: input.model_id, error: input.error });
    await recordFailure(ctx, input, causeMessage(input.error?.Cause));
    return { recorded: true };
  },
};

/** Lambda wraps a thrown error's message in a JSON Cause ({errorMessage}); the local runner passes it plain. */
function causeMessage(cause: string | undefined): string | undefined {
  if (!cause) return undefined;
  try {
    const parsed = JSON.parse(cause) as { errorMessage?: unknown };
    return typeof parsed.errorMessage === "string" ? parsed.errorMessage : undefined;
  } catch {
    return cause;
  }
}
