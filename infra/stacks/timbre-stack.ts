import { CfnOutput, Duration, Stack, type StackProps } from "aws-cdk-lib";
import * as secretsmanager from "aws-cdk-lib/aws-secretsmanager";
import type { Construct } from "constructs";
import { ENGINE_RUNTIME_PACKAGES, TimbreApi } from "../constructs/api.js";
import { TimbreData } from "../constructs/data.js";
import { TimbreEdge } from "../constructs/edge.js";
import { TimbreFunction, type OperatorConfig } from "../constructs/function.js";
import { checkOperatorSettings } from "../../functions/platform/operatorSettings.js";
import { TimbreLiveReading } from "../constructs/live.js";
import { TimbreAssistantSocket } from "../constructs/assistant.js";
import { findWebBuild, LAMBDA_ENTRY, type WebBuild } from "../constructs/paths.js";
import { TimbreSeed } from "../constructs/seed.js";
import { TimbreWeb } from "../constructs/web.js";
import { grantsFor } from "../constructs/workflow-grants.js";
import { TimbreWorkflows } from "../constructs/workflows.js";

export interface TimbreStackProps extends StackProps {
  /** Keep tables and bucket when the stack is deleted (default true). */
  retainData?: boolean;
  /** The output of `npm run build` (default: build/web, when it exists). */
  webBuild?: WebBuild;
  /** The operator's plain settings (`-c operatorSettings='{...}'`): a JSON object or its text; see functions/platform/operatorSettings.ts. */
  operatorSettings?: unknown;
  /** The operator's Secrets Manager secret of secret settings (`-c operatorSecretsArn=arn:...`): keys and REMOTE_ENGINES, read at cold start. */
  operatorSecretsArn?: string;
  /** Any new value re-runs the deploy-time seeding (the remote engines' voices) after the secret changed (`-c operatorSecretsVersion=2`). */
  operatorSecretsVersion?: string;
}

/**
 * Timbre on AWS: DynamoDB + S3 (TimbreData), one Lambda per workflow step set under Step
 * Functions (TimbreWorkflows), the streaming API and web functions behind Function URLs, and one
 * CloudFront distribution in front. Environment-agnostic: no lookups, synthesizes offline.
 */
export class TimbreStack extends Stack {
  readonly data: TimbreData;
  readonly sessionSecret: secretsmanager.Secret;
  readonly edgeSecret: secretsmanager.Secret;
  readonly workflows: TimbreWorkflows;
  /** workflow name -> the function that runs its steps. */
  readonly stepFunctions = new Map<string, TimbreFunction>();
  readonly api: TimbreApi;
  readonly live: TimbreLiveReading;
  readonly assistant: TimbreAssistantSocket;
  readonly web: TimbreWeb;
  readonly seed: TimbreSeed;
  readonly edge: TimbreEdge;

  constructor(scope: Construct, id: string, props: TimbreStackProps = {}) {
    super(scope, id, props);
    this.data = new TimbreData(this, "Data", { retain: props.retainData ?? true });
    const operator = operatorConfig(this, props);

    // Signs sessions and the web server's proof to /v1; read by the functions at cold start.
    this.sessionSecret = new secretsmanager.Secret(this, "SessionSecret", {
      description: "Timbre session signing secret",
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    // CloudFront sends it to the functions, which then trust the viewer address it forwards.
    this.edgeSecret = new secretsmanager.Secret(this, "EdgeSecret", {
      description: "Timbre CloudFront origin secret",
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });

    this.workflows = new TimbreWorkflows(this, "Workflows", {
      logging: true,
      stepFunction: (wf, wfScope) => {
        const fn = new TimbreFunction(wfScope, "Steps", {
          entry: LAMBDA_ENTRY.steps,
          description: `Timbre workflow steps: ${wf.name}`,
          data: this.data,
          memorySize: wf.lambda?.memorySize,
          timeout: wf.lambda?.timeout ?? Duration.minutes(5),
          // Audio work decodes and analyses on worker threads; fitting a voice also synthesises.
          runtimePackages: wf.lambda?.engine ? ENGINE_RUNTIME_PACKAGES : undefined,
          workers: wf.lambda?.audio ? ["analysis-worker.js"] : undefined,
        });
        grantsFor(wf.name)(fn, { data: this.data, sessionSecret: this.sessionSecret });
        this.stepFunctions.set(wf.name, fn);
        return fn.fn;
      },
    });

    this.api = new TimbreApi(this, "Api", {
      data: this.data,
      sessionSecret: this.sessionSecret,
      edgeSecret: this.edgeSecret,
      machines: this.workflows.machines,
    });
    // The recorder's live reading websocket: API Gateway, since Function URLs and CloudFront-to-Lambda carry no websockets.
    this.live = new TimbreLiveReading(this, "LiveReading", { data: this.data, sessionSecret: this.sessionSecret });
    // The support assistant's call: API Gateway too, for the same reason.
    this.assistant = new TimbreAssistantSocket(this, "Assistant", { data: this.data, sessionSecret: this.sessionSecret });
    this.web = new TimbreWeb(this, "Web", {
      data: this.data,
      sessionSecret: this.sessionSecret,
      edgeSecret: this.edgeSecret,
      apiUrl: this.api.url.url,
      liveReadingUrl: this.live.stage.url,
      assistantUrl: this.assistant.stage.url,
      build: props.webBuild ?? findWebBuild(),
    });
    this.seed = new TimbreSeed(this, "Seed", { data: this.data, rerunOn: operator.secret ? `${props.operatorSecretsArn}#${props.operatorSecretsVersion ?? ""}` : undefined });
    // The operator's settings reach the functions that use them: the API (remote engines, the
    // OpenAI-compatible path), the assistant (its model and transcription), the seeding (remote
    // engines' voices); the web function only learns the plain ones (whether speech input exists).
    this.api.function.bindOperator(operator);
    this.assistant.function.bindOperator(operator);
    this.seed.function.bindOperator(operator);
    this.web.function.bindOperator({ settings: operator.settings });
    this.edge = new TimbreEdge(this, "Edge", {
      apiUrl: this.api.url,
      webUrl: this.web.url,
      edgeSecret: this.edgeSecret,
      bucket: this.data.bucket,
      staticPaths: this.web.staticPaths,
    });

    new CfnOutput(this, "Url", { value: `https://${this.edge.distribution.distributionDomainName}`, description: "Timbre (web app, /v1 and /v2)" });
    new CfnOutput(this, "LiveReadingUrl", { value: this.live.stage.url, description: "The PVC recorder's live reading websocket (API Gateway)" });
    new CfnOutput(this, "AssistantUrl", { value: this.assistant.stage.url, description: "The support assistant's websocket (API Gateway)" });
    new CfnOutput(this, "ApiFunctionUrl", { value: this.api.url.url, description: "The API function URL (direct, without CloudFront)" });
  }
}

/** The operator's settings, checked at synth (a bad name or URL never deploys), and their secret by ARN. */
function operatorConfig(scope: Construct, props: TimbreStackProps): OperatorConfig {
  const settings = checkOperatorSettings(props.operatorSettings ?? {});
  const arn = props.operatorSecretsArn;
  if (arn === undefined || arn === "") return { settings };
  if (!/^arn:aws[a-z-]*:secretsmanager:[^:]*:\d*:secret:.+/.test(arn)) throw new Error(`operatorSecretsArn: not a Secrets Manager secret ARN: ${arn}`);
  // A complete ARN ends in the six characters AWS adds to the name; a partial one is the name alone.
  const secret = /-[A-Za-z0-9]{6}$/.test(arn) ? secretsmanager.Secret.fromSecretCompleteArn(scope, "OperatorSecrets", arn) : secretsmanager.Secret.fromSecretPartialArn(scope, "OperatorSecrets", arn);
  return { settings, secret };
}
