import { Duration } from "aws-cdk-lib";
import * as apigwv2 from "aws-cdk-lib/aws-apigatewayv2";
import type * as secretsmanager from "aws-cdk-lib/aws-secretsmanager";
import { Construct } from "constructs";
import type { TimbreData } from "./data.js";
import { ENGINE_RUNTIME_PACKAGES } from "./api.js";
import { TimbreFunction } from "./function.js";
import { LAMBDA_ENTRY } from "./paths.js";
import { allowApiKeyLastUsed, lambdaWebSocket } from "./websocket.js";
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
    allowApiKeyLastUsed(this.function, data);
    // The recorder sends four chunks a second; two sessions per workspace.
    ({ api: this.api, stage: this.stage } = lambdaWebSocket(this, this.function, { description: "Timbre live reading (PVC recorder)", stageName: "live", throttle: { rateLimit: 500, burstLimit: 1000 } }));
  }
}
