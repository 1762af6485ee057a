import { Construct } from "constructs";
import type * as lambda from "aws-cdk-lib/aws-lambda";
import * as sfn from "aws-cdk-lib/aws-stepfunctions";
import * as logs from "aws-cdk-lib/aws-logs";
import { RemovalPolicy } from "aws-cdk-lib";
import * as events from "aws-cdk-lib/aws-events";
import * as targets from "aws-cdk-lib/aws-events-targets";
import { WORKFLOWS } from "../../workflows/index.js";
import type { WorkflowDefinition } from "../../workflows/lib.js";

export interface TimbreWorkflowsProps {
  /** The Lambda function that runs a workflow's steps. */
  stepFunction(workflow: WorkflowDefinition, scope: Construct): lambda.IFunction;
  /** Execution logs (off for the local definitions, which never deploy). */
  logging?: boolean;
}

/** One state machine per workflow in workflows/, built from the same chainables locally and on AWS. */
export class TimbreWorkflows extends Construct {
  readonly machines = new Map<string, sfn.StateMachine>();

  constructor(scope: Construct, id: string, props: TimbreWorkflowsProps) {
    super(scope, id);
    for (const wf of WORKFLOWS) {
      const wfScope = new Construct(this, wf.name);
      const fn = props.stepFunction(wf, wfScope);
      const machine = new sfn.StateMachine(wfScope, "StateMachine", {
        definitionBody: sfn.DefinitionBody.fromChainable(wf.build(wfScope, fn)),
        timeout: wf.timeout,
        tracingEnabled: props.logging ?? false,
        logs: props.logging
          ? {
              destination: new logs.LogGroup(wfScope, "Logs", { retention: logs.RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY }),
              level: sfn.LogLevel.ERROR,
            }
          : undefined,
      });
      this.machines.set(wf.name, machine);
      if (wf.schedule) new events.Rule(wfScope, "Schedule", { schedule: events.Schedule.rate(wf.schedule), targets: [new targets.SfnStateMachine(machine)] });
    }
  }
}
