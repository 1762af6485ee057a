import { StartExecutionCommand, type SFNClient } from "@aws-sdk/client-sfn";

/** Starts long jobs. On AWS and LocalStack: Step Functions; embedded: the local state-machine runner. */
export interface WorkflowStarter {
  start(workflow: string, input: Record<string, unknown>, name?: string): Promise<{ executionId: string }>;
}

export class StepFunctionsStarter implements WorkflowStarter {
  constructor(
    private readonly sfn: SFNClient,
    private readonly arns: Record<string, string>,
  ) {}

  async start(workflow: string, input: Record<string, unknown>, name?: string): Promise<{ executionId: string }> {
    const arn = this.arns[workflow];
    if (!arn) throw new Error(`No state machine configured for workflow "${workflow}" (STATE_MACHINES)`);
    const r = await this.sfn.send(new StartExecutionCommand({ stateMachineArn: arn, input: JSON.stringify(input), name }));
    return { executionId: r.executionArn ?? "" };
  }
}
