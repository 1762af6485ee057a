import { Duration } from "aws-cdk-lib";
import * as apigwv2 from "aws-cdk-lib/aws-apigatewayv2";
import { WebSocketLambdaIntegration } from "aws-cdk-lib/aws-apigatewayv2-integrations";
import * as iam from "aws-cdk-lib/aws-iam";
import type * as secretsmanager from "aws-cdk-lib/aws-secretsmanager";
import { Construct } from "constructs";
import type { TimbreData } from "./data.js";
import { ENGINE_RUNTIME_PACKAGES } from "./api.js";
import { TimbreFunction } from "./function.js";
import { LAMBDA_ENTRY } from "./paths.js";
import { LIVE_OBJECT_PREFIX } from "../../functions/platform/stores/liveReadings.js";


export interface TimbreLiveReadingProps {
  data: TimbreData;
  sessionSecret: secretsmanager.ISecret;
}

/**
 * The recorder's live reading websocket (docs/decisions/2026-11-27-live-reading-on-aws.md): an API
 * Gateway WebSocket API whose $connect, $disconnect and $default routes all go to one Lambda. The
 * function reads credentials (main table: API keys and sessions; it may only touch an API key's
 * last-used time), keeps sessions in the ledger table, the passages' reference features under
 * live/ in the bucket, and posts to its own API's connections.
 */
export class TimbreLiveReading extends Construct {
  readonly function: TimbreFunction;
  readonly api: apigwv2.WebSocketApi;
  readonly stage: apigwv2.WebSocketStage;

  constructor(scope: Construct, id: string, props: TimbreLiveReadingProps) {
    super(scope, id);
    const { data } = props;
    this.function = new TimbreFunction(this, "Live", {
      entry: LAMBDA_ENTRY.live,
      description: "Timbre live reading websocket (PVC recorder)",
      data,
      memorySize: 1536,
      // A new passage is read by the engine before its first chunk is followed.
      timeout: Duration.seconds(60),
      runtimePackages: ENGINE_RUNTIME_PACKAGES,
    })
      .bindTable(data.main, "read")
      .bindTable(data.ledger, "write")
      .bindBucket(data.bucket, "write", LIVE_OBJECT_PREFIX)
      .bindSecret(props.sessionSecret, "SESSION_SECRET_ARN");
    // Signing in with an API key records when it was last used (only on API key items).
    this.function.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ["dynamodb:UpdateItem"],
        resources: [data.main.tableArn],
        conditions: { "ForAllValues:StringLike": { "dynamodb:LeadingKeys": ["APIKEY#*"] } },
      }),
    );

    // Not "Default": CDK leaves construct ids named Default out of logical ids, which would collide with the route.
    const integration = (name: string) => new WebSocketLambdaIntegration(`${name}Integration`, this.function.fn);
    this.api = new apigwv2.WebSocketApi(this, "Api", {
      description: "Timbre live reading (PVC recorder)",
      connectRouteOptions: { integration: integration("Connect") },
      disconnectRouteOptions: { integration: integration("Disconnect") },
      defaultRouteOptions: { integration: integration("Default") },
    });
    this.stage = new apigwv2.WebSocketStage(this, "Stage", {
      webSocketApi: this.api,
      stageName: "live",
      autoDeploy: true,
      // The recorder sends four chunks a second; two sessions per workspace.
      throttle: { rateLimit: 500, burstLimit: 1000 },
    });
    this.stage.grantManagementApiAccess(this.function.fn);
  }
}
