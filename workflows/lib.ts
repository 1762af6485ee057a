import { Duration } from "aws-cdk-lib";
import type * as lambda from "aws-cdk-lib/aws-lambda";
import * as sfn from "aws-cdk-lib/aws-stepfunctions";
import * as tasks from "aws-cdk-lib/aws-stepfunctions-tasks";
import type { Construct } from "constructs";

/**
 * A workflow is a state machine whose tasks all call one Lambda function with
 * {workflow, step, input}; the function dispatches to functions/handlers/workflows/<name>.ts.
 * The same definition is deployed by CDK and executed by the local runner.
 */
export interface WorkflowDefinition {
  name: string;
  /** Human summary for the README and the console. */
  description: string;
  build(scope: Construct, fn: lambda.IFunction): sfn.IChainable;
  /** Upper bound for one execution. */
  timeout: Duration;
  /** Started on this schedule too (an EventBridge rule on AWS; a timer in the embedded stack). */
  schedule?: Duration;
  /** What its step function needs beyond the defaults (1 GB, 5 minutes, no engine or audio workers). */
  lambda?: StepLambdaOptions;
}

export interface StepLambdaOptions {
  memorySize?: number;
  timeout?: Duration;
  /** Decodes and analyses audio: the analysis worker and the codecs' WebAssembly ship with it. */
  audio?: boolean;
  /** Synthesises speech: the engine ships with it too. */
  engine?: boolean;
}

export interface StepOptions {
  /** Where the step's result goes; the input survives beside it. */
  resultPath?: string;
  /** Which part of the state is passed to the handler (default: all of it). */
  inputPath?: string;
  retries?: number;
  /** How long the task may run (Step Functions' default is 60 seconds); at most the step function's own timeout. */
  timeout?: Duration;
}

export function step(scope: Construct, id: string, fn: lambda.IFunction, workflow: string, stepName: string, opts: StepOptions = {}) {
  const task = new tasks.LambdaInvoke(scope, id, {
    lambdaFunction: fn,
    payloadResponseOnly: true,
    payload: sfn.TaskInput.fromObject({
      workflow,
      step: stepName,
      input: sfn.JsonPath.stringAt(opts.inputPath ?? "$"),
    }),
    resultPath: opts.resultPath ?? sfn.JsonPath.DISCARD,
    retryOnServiceExceptions: true,
    taskTimeout: opts.timeout ? sfn.Timeout.duration(opts.timeout) : undefined,
  });
  task.addRetry({ errors: ["TransientError", "States.Timeout"], maxAttempts: opts.retries ?? 3, interval: Duration.seconds(2), backoffRate: 2 });
  return task;
}
