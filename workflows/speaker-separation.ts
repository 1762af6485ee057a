import { Duration } from "aws-cdk-lib";
import * as sfn from "aws-cdk-lib/aws-stepfunctions";
import { step, type WorkflowDefinition } from "./lib.js";

/**
 * Separates the speakers of one professional-clone sample: decode, voice activity, window
 * embeddings, clustering and resegmentation (functions/media/separation), each speaker's audio stored
 * beside the sample, the result on the sample. Then an event for webhooks. Any failure (no
 * speech at all: 'No speakers detected.') is written on the sample as "failed", which the
 * wizard's 5-second poll shows, and announced the same way.
 */
/** A sample may be up to 3 hours long: its separation gets the step function's whole time. */
const STEP_TIMEOUT = Duration.minutes(10);

export const speakerSeparation: WorkflowDefinition = {
  name: "speaker-separation",
  description: "Finds who speaks when in a professional clone's sample",
  timeout: Duration.minutes(30),
  lambda: { memorySize: 3008, timeout: STEP_TIMEOUT, audio: true },
  build(scope, fn) {
    const wf = "speaker-separation";
    const separate = step(scope, "SeparateSpeakers", fn, wf, "separate", { resultPath: "$.result", retries: 2, timeout: STEP_TIMEOUT });
    const finished = step(scope, "AnnounceSeparation", fn, wf, "finished", { resultPath: "$.event" });
    const failed = step(scope, "RecordSeparationFailure", fn, wf, "failed", { resultPath: "$.recorded" }).next(
      new sfn.Fail(scope, "SeparationFailed", { error: "SpeakerSeparationFailed", cause: "Recorded on the sample" }),
    );
    separate.addCatch(failed, { resultPath: "$.error" });
    finished.addCatch(failed, { resultPath: "$.error" });
    return separate.next(finished).next(new sfn.Succeed(scope, "Separated"));
  },
};
