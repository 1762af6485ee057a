import { z } from "zod";
import type { AppContext } from "../../platform/context.js";
import type { StepHandlers } from "./types.js";
import { voicePurgeSteps } from "./voicePurge.js";
import { speakerSeparationSteps } from "./speakerSeparation.js";
import { voiceFineTuningSteps } from "./voiceFineTuning.js";
import { voiceVerificationSteps } from "./voiceVerification.js";
import { webhookDispatchSteps } from "./webhookDispatch.js";

export const STEP_HANDLERS: Record<string, StepHandlers> = {
  "voice-purge": voicePurgeSteps,
  "voice-verification": voiceVerificationSteps,
  "webhook-dispatch": webhookDispatchSteps,
  "speaker-separation": speakerSeparationSteps,
  "voice-fine-tuning": voiceFineTuningSteps,
};

const StepEvent = z.object({ workflow: z.string(), step: z.string(), input: z.unknown() });

/** The body of every workflow Lambda: {workflow, step, input} -> the step's result. */
export async function runStep(event: unknown, ctx: AppContext): Promise<unknown> {
  const { workflow, step, input } = StepEvent.parse(event);
  const handler = STEP_HANDLERS[workflow]?.[step];
  if (!handler) throw new Error(`Unknown workflow step ${workflow}.${step}`);
  return handler(input, ctx);
}
