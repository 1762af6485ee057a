import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { Annotations, Duration, RemovalPolicy } from "aws-cdk-lib";
import * as lambda from "aws-cdk-lib/aws-lambda";
import * as logs from "aws-cdk-lib/aws-logs";
import * as s3deploy from "aws-cdk-lib/aws-s3-deployment";
import type * as secretsmanager from "aws-cdk-lib/aws-secretsmanager";
import { Construct } from "constructs";
import type { TimbreData } from "./data.js";
import { TimbreFunction } from "./function.js";
import { LAMBDA_ENTRY, MISSING_WEB_BUILD, type WebBuild } from "./paths.js";

/** Key prefix of the static client files in the data bucket (CloudFront's /assets/* reads only this). */
export const WEB_PREFIX = "web/";
/** The import the web entry uses for the Remix server build; esbuild points it at the real file. */
export const SERVER_BUILD_IMPORT = "timbre-web-server-build";

export interface TimbreWebProps {
  data: TimbreData;
  sessionSecret: secretsmanager.ISecret;
  /** CloudFront's origin secret: proves the viewer address it forwards. */
  edgeSecret: secretsmanager.ISecret;
  /** /v1 as the web server reaches it: the API function URL (CloudFront would make a cycle). */
  apiUrl: string;
  /** The live reading websocket (wss://), which the pages' recorder opens and their policy allows. */
  liveReadingUrl?: string;
  /** The support assistant's websocket (wss://), which the pages' call card opens and their policy allows. */
  assistantUrl?: string;
  build: WebBuild;
}

/**
 * The Remix app on a streaming Lambda behind its own Function URL, and its static client files
 * copied to the bucket under web/. The web server never touches DynamoDB or S3 itself: it calls
 * /v1, so it gets no data grants at all.
 */
export class TimbreWeb extends Construct {
  readonly function: TimbreFunction;
  readonly url: lambda.FunctionUrl;
  /** Top-level client paths besides /assets/* that CloudFront should serve from the bucket (favicon.ico ...). */
  readonly staticPaths: string[] = [];

  constructor(scope: Construct, id: string, props: TimbreWebProps) {
    super(scope, id);
    const { build } = props;
    this.function = new TimbreFunction(this, "Web", {
      entry: LAMBDA_ENTRY.web,
      description: "Timbre web app (Remix, streaming)",
      data: props.data,
      memorySize: 1024,
      timeout: Duration.seconds(30),
      aliases: { [SERVER_BUILD_IMPORT]: build.server ?? MISSING_WEB_BUILD },
      // Remix's default entry.server probes isbot's exports behind a guard, which esbuild flags.
      quietWarnings: ["import-is-undefined"],
      environment: { API_INTERNAL_URL: props.apiUrl, SECURE_COOKIES: "true", ...(props.liveReadingUrl ? { LIVE_READING_URL: props.liveReadingUrl } : {}), ...(props.assistantUrl ? { ASSISTANT_SOCKET_URL: props.assistantUrl } : {}) },
    }).bindSecret(props.sessionSecret, "SESSION_SECRET_ARN")
      .bindSecret(props.edgeSecret, "EDGE_SECRET_ARN");
    if (!build.server) {
      Annotations.of(this).addWarningV2(
        "timbre:missing-web-build",
        `No Remix server build at ${build.dir}/server/index.js: the web function will answer 503 until you run \`npm run build\` and deploy again.`,
      );
    }

    this.url = this.function.fn.addFunctionUrl({
      authType: lambda.FunctionUrlAuthType.NONE,
      invokeMode: lambda.InvokeMode.RESPONSE_STREAM,
    });

    if (build.client) this.deployClient(build.client, props.data);
  }

  /** Hashed assets are immutable; the few other files (favicon ...) get a short cache. */
  private deployClient(client: string, data: TimbreData): void {
    const logGroup = new logs.LogGroup(this, "ClientDeployLogs", { retention: logs.RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    const others = readdirSync(client).filter((name) => name !== "assets");
    // prune: false so a page rendered by the previous version can still load its chunks during a deploy.
    new s3deploy.BucketDeployment(this, "ClientAssets", {
      sources: [s3deploy.Source.asset(join(client, "assets"))],
      destinationBucket: data.bucket,
      destinationKeyPrefix: `${WEB_PREFIX}assets/`,
      prune: false,
      memoryLimit: 512,
      logGroup,
      cacheControl: [s3deploy.CacheControl.fromString("public, max-age=31536000, immutable")],
    });
    if (!others.length) return;
    new s3deploy.BucketDeployment(this, "ClientFiles", {
      sources: [s3deploy.Source.asset(client, { exclude: ["assets", "assets/**"] })],
      destinationBucket: data.bucket,
      destinationKeyPrefix: WEB_PREFIX,
      prune: false,
      memoryLimit: 512,
      logGroup,
      cacheControl: [s3deploy.CacheControl.fromString("public, max-age=3600")],
    });
    for (const name of others) this.staticPaths.push(statSync(join(client, name)).isDirectory() ? `/${name}/*` : `/${name}`);
  }
}
