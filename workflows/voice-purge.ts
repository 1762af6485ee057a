import { Duration } from "aws-cdk-lib";
import * as sfn from "aws-cdk-lib/aws-stepfunctions";
import { step, type WorkflowDefinition } from "./lib.js";

/**
 * Deletes what a deleted voice left behind: its audio objects (samples, previews) in batches,
 * then its remaining records. The voice record itself is gone before this starts, so the slot
 * is free at once; a failure is recorded for an operator and nothing is half-restored.
 */
export const voicePurge: WorkflowDefinition = {
  name: "voice-purge",
  description: "Deletes a deleted voice's audio objects and leftover records",
  timeout: Duration.minutes(30),
  build(scope, fn) {
    const wf = "voice-purge";
    const list = step(scope, "ListVoiceObjects", fn, wf, "listObjects", { resultPath: "$.objects" });
    const deleteBatch = step(scope, "DeleteObjectBatch", fn, wf, "deleteObjects");
    const deleteAll = new sfn.Map(scope, "DeleteObjectBatches", {
      itemsPath: "$.objects.batches",
      itemSelector: { "workspace_id.$": "$.workspace_id", "keys.$": "$$.Map.Item.Value" },
      maxConcurrency: 4,
      resultPath: sfn.JsonPath.DISCARD,
    }).itemProcessor(deleteBatch);
    const records = step(scope, "DeleteVoiceRecords", fn, wf, "deleteRecords");
    const failed = step(scope, "RecordPurgeFailure", fn, wf, "recordFailure", { inputPath: "$" }).next(
      new sfn.Fail(scope, "PurgeFailed", { error: "VoicePurgeFailed", cause: "See the recorded failure" }),
    );
    for (const s of [list, records]) s.addCatch(failed, { resultPath: "$.error" });
    deleteAll.addCatch(failed, { resultPath: "$.error" });
    return list.next(deleteAll).next(records).next(new sfn.Succeed(scope, "Purged"));
  },
};
