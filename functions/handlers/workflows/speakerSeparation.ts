import { z } from "zod";
import { emitEvent } from "../../platform/events/index.js";
import { pvcMessages } from "../../platform/contract/pvc.js";
import { NoSpeakersError, separateSample, writeSeparation } from "../../capabilities/pvc/separation.js";
import type { StepHandlers } from "./types.js";

const Input = z.object({ workspace_id: z.string().min(1), voice_id: z.string().min(1), sample_id: z.string().min(1), user_id: z.string().nullish() });

/** The error a Catch hands on: {Error, Cause}, Cause being the step's message. */
const Caught = z.object({ error: z.object({ Error: z.string().optional(), Cause: z.string().optional() }).passthrough().optional() });

export const speakerSeparationSteps: StepHandlers = {
  async separate(raw, ctx) {
    const { workspace_id, voice_id, sample_id } = Input.parse(raw);
    return separateSample(ctx, workspace_id, voice_id, sample_id);
  },

  async finished(raw, ctx) {
    const input = Input.extend({ result: z.object({ speakers: z.number() }) }).parse(raw);
    await emitEvent(ctx, input.workspace_id, "speaker_separation_finished", {
      voice_id: input.voice_id,
      sample_id: input.sample_id,
      status: "completed",
      speakers: input.result.speakers,
    }, { userId: input.user_id });
    return { emitted: true };
  },

  async failed(raw, ctx) {
    const input = Input.merge(Caught).parse(raw);
    const noSpeakers = input.error?.Error === new NoSpeakersError().name;
    const message = noSpeakers ? pvcMessages.noSpeakers : pvcMessages.separationFailed;
    ctx.log.warn("speaker separation failed", { voice_id: input.voice_id, sample_id: input.sample_id, error: input.error });
    await writeSeparation(ctx, input.workspace_id, input.voice_id, input.sample_id, { status: "failed", speakers: null, selected_speaker_ids: null, message });
    await emitEvent(ctx, input.workspace_id, "speaker_separation_finished", { voice_id: input.voice_id, sample_id: input.sample_id, status: "failed", message }, { userId: input.user_id });
    return { recorded: true };
  },
};
