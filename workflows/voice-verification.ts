import { Duration } from "aws-cdk-lib";
import * as sfn from "aws-cdk-lib/aws-stepfunctions";
import { step, type WorkflowDefinition } from "./lib.js";

/**
 * Verifies a voice from a recording (functions/handlers/workflows/voiceVerification.ts): prepare the
 * recording (decode, bound to 15 s, denoise, find speech), then check the speaker and the
 * sentence side by side, then decide and record the attempt (with similar library voices after
 * a failure). A prepared recording that is unusable goes straight to the decision. Any failure
 * records the attempt as an error, which does not count against the user's attempts.
 * Instant clones (a sentence to read) and professional clones (a captcha image) share it.
 */
export const voiceVerification: WorkflowDefinition = {
  name: "voice-verification",
  description: "Decides a voice verification attempt: same speaker and the requested sentence",
  timeout: Duration.minutes(5),
  lambda: { engine: true, audio: true, memorySize: 1536 },
  build(scope, fn) {
    const wf = "voice-verification";
    const failed = step(scope, "RecordVerificationError", fn, wf, "recordError", { retries: 2 }).next(
      new sfn.Fail(scope, "VerificationFailed", { error: "VoiceVerificationFailed", cause: "See the recorded attempt" }),
    );
    const prepare = step(scope, "PrepareRecording", fn, wf, "prepare", { resultPath: "$.prepared" });
    const checks = new sfn.Parallel(scope, "CheckSpeakerAndSentence", { resultPath: "$.checks" })
      .branch(step(scope, "CheckSpeaker", fn, wf, "speaker", { resultPath: "$.result" }))
      .branch(step(scope, "CheckSentence", fn, wf, "sentence", { resultPath: "$.result" }));
    const decide = step(scope, "Decide", fn, wf, "decide", { resultPath: "$.decision" });
    for (const s of [prepare, decide]) s.addCatch(failed, { resultPath: "$.error" });
    checks.addCatch(failed, { resultPath: "$.error" });
    const usable = new sfn.Choice(scope, "RecordingUsable")
      .when(sfn.Condition.booleanEquals("$.prepared.ok", true), checks.next(decide))
      .otherwise(decide);
    decide.next(new sfn.Succeed(scope, "Decided"));
    return prepare.next(usable);
  },
};
