import { Duration } from "aws-cdk-lib";
import * as apigwv2 from "aws-cdk-lib/aws-apigatewayv2";
import type * as secretsmanager from "aws-cdk-lib/aws-secretsmanager";
import { Construct } from "constructs";
import type { TimbreData } from "./data.js";
import { ENGINE_RUNTIME_PACKAGES } from "./api.js";
import { TimbreFunction } from "./function.js";
import { LAMBDA_ENTRY } from "./paths.js";
import { allowApiKeyLastUsed, lambdaWebSocket } from "./websocket.js";

export interface TimbreAssistantSocketProps {
  data: TimbreData;
  sessionSecret: secretsmanager.ISecret;
}

/**
 * The support assistant's websocket (the "Talk to El" call), on the model of the live reading
 * socket (./live.ts): an API Gateway WebSocket API whose $connect, $disconnect and $default routes
 * all go to one Lambda. The function reads credentials and the account (main table; it may only
 * touch an API key's last-used time), keeps calls and pending tool calls in the ledger table (where
 * the credit usage it reports also lives), speaks with the engine, and posts to its own API's
 * connections. No bucket access: nothing of a call is stored as an object.
 */
export class TimbreAssistantSocket extends Construct {
  readonly function: TimbreFunction;
  readonly api: apigwv2.WebSocketApi;
  readonly stage: apigwv2.WebSocketStage;

  constructor(scope: Construct, id: string, props: TimbreAssistantSocketProps) {
    super(scope, id);
    const { data } = props;
    this.function = new TimbreFunction(this, "Assistant", {
      entry: LAMBDA_ENTRY.assistant,
      description: "Timbre support assistant websocket",
      data,
      memorySize: 1536,
      // A turn speaks its answer and waits for the page to run its tools (20 s each at most).
      timeout: Duration.seconds(90),
      runtimePackages: ENGINE_RUNTIME_PACKAGES,
    })
      .bindTable(data.main, "read")
      .bindTable(data.ledger, "write")
      .bindSecret(props.sessionSecret, "SESSION_SECRET_ARN");
    allowApiKeyLastUsed(this.function, data);
    // A call sends a few messages a turn (context, text, tool results); four calls per workspace.
    ({ api: this.api, stage: this.stage } = lambdaWebSocket(this, this.function, { description: "Timbre support assistant", stageName: "assistant", throttle: { rateLimit: 100, burstLimit: 200 } }));
  }
}
