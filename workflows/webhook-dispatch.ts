import { Duration } from "aws-cdk-lib";
import * as sfn from "aws-cdk-lib/aws-stepfunctions";
import { step, type WorkflowDefinition } from "./lib.js";

/**
 * Delivers webhooks from the durable queue in DynamoDB (functions/capabilities/webhooks/dispatch.ts): one
 * Dispatch step takes everything due and returns whether work is left; the machine loops while
 * it is. Emitting an event starts it, and a schedule starts it every minute so retries that come
 * due are sent; a failed run loses nothing (the queue keeps its items, leased items come back).
 */
export const webhookDispatch: WorkflowDefinition = {
  name: "webhook-dispatch",
  description: "Delivers due webhook events and retries from the queue",
  timeout: Duration.minutes(30),
  schedule: Duration.minutes(1),
  build(scope, fn) {
    const wf = "webhook-dispatch";
    const dispatch = step(scope, "Dispatch", fn, wf, "dispatch", { resultPath: "$.dispatch", retries: 2 });
    const done = new sfn.Succeed(scope, "Dispatched");
    const again = new sfn.Choice(scope, "MoreDue").when(sfn.Condition.booleanEquals("$.dispatch.more", true), dispatch).otherwise(done);
    return dispatch.next(again);
  },
};
