import { Duration } from "aws-cdk-lib";
import * as sfn from "aws-cdk-lib/aws-stepfunctions";
import { step, type WorkflowDefinition } from "./lib.js";

/**
 * Fine-tunes a professional clone for one model (functions/capabilities/fine-tuning/train.ts): list the
 * samples, prepare and analyse each (two at a time), fit the voice and write the dataset quality
 * report, then announce it. Any failure sets the model's state to failed with a message (the
 * wizard and the voice's panel show it, and offer a retry) and is announced too.
 */
/** Preparing a long sample and fitting the voice are long CPU work: they get the step function's whole time. */
const STEP_TIMEOUT = Duration.minutes(15);

export const voiceFineTuning: WorkflowDefinition = {
  name: "voice-fine-tuning",
  description: "Estimates a professional clone's voice from all of its audio for one model",
  timeout: Duration.hours(2),
  lambda: { memorySize: 3008, timeout: STEP_TIMEOUT, audio: true, engine: true },
  build(scope, fn) {
    const wf = "voice-fine-tuning";
    const prepare = step(scope, "PrepareFineTuning", fn, wf, "prepare", { resultPath: "$.prepared" });
    const sample = step(scope, "PrepareSample", fn, wf, "sample", { resultPath: sfn.JsonPath.DISCARD, retries: 2, timeout: STEP_TIMEOUT });
    const samples = new sfn.Map(scope, "PrepareSamples", {
      itemsPath: "$.prepared.sample_ids",
      itemSelector: {
        "workspace_id.$": "$.workspace_id",
        "voice_id.$": "$.voice_id",
        "model_id.$": "$.model_id",
        "run_id.$": "$.run_id",
        "total.$": "$.prepared.total",
        "sample_id.$": "$$.Map.Item.Value",
      },
      maxConcurrency: 2,
      resultPath: sfn.JsonPath.DISCARD,
    }).itemProcessor(sample);
    const fit = step(scope, "FitVoice", fn, wf, "fit", { resultPath: "$.fitted", retries: 1, timeout: STEP_TIMEOUT });
    const finished = step(scope, "AnnounceFineTuned", fn, wf, "finished", { resultPath: sfn.JsonPath.DISCARD });
    const failed = step(scope, "RecordFineTuningFailure", fn, wf, "failed", { resultPath: sfn.JsonPath.DISCARD }).next(
      new sfn.Fail(scope, "FineTuningFailed", { error: "FineTuningFailed", cause: "Recorded on the voice" }),
    );
    for (const s of [prepare, fit, finished]) s.addCatch(failed, { resultPath: "$.error" });
    samples.addCatch(failed, { resultPath: "$.error" });
    return prepare.next(samples).next(fit).next(finished).next(new sfn.Succeed(scope, "FineTuned"));
  },
};
