import * as apigwv2 from "aws-cdk-lib/aws-apigatewayv2";
import { WebSocketLambdaIntegration } from "aws-cdk-lib/aws-apigatewayv2-integrations";
import * as iam from "aws-cdk-lib/aws-iam";
import type { Construct } from "constructs";
import type { TimbreData } from "./data.js";
import type { TimbreFunction } from "./function.js";

/** A websocket function signing in with an API key records when it was last used (only on API key items). */
export function allowApiKeyLastUsed(fn: TimbreFunction, data: TimbreData): void {
  fn.role.addToPrincipalPolicy(
    new iam.PolicyStatement({
      actions: ["dynamodb:UpdateItem"],
      resources: [data.main.tableArn],
      conditions: { "ForAllValues:StringLike": { "dynamodb:LeadingKeys": ["APIKEY#*"] } },
    }),
  );
}

/**
 * An API Gateway WebSocket API whose $connect, $disconnect and $default routes all go to `fn`, one
 * auto-deployed stage, and `fn` allowed to post to that stage's connections. Made in `scope` with
 * the ids "Api" and "Stage", so the logical ids are the construct's own.
 */
export function lambdaWebSocket(
  scope: Construct,
  fn: TimbreFunction,
  o: { description: string; stageName: string; throttle: { rateLimit: number; burstLimit: number } },
): { api: apigwv2.WebSocketApi; stage: apigwv2.WebSocketStage } {
  // Not "Default": CDK leaves construct ids named Default out of logical ids, which would collide with the route.
  const integration = (name: string) => new WebSocketLambdaIntegration(`${name}Integration`, fn.fn);
  const api = new apigwv2.WebSocketApi(scope, "Api", {
    description: o.description,
    connectRouteOptions: { integration: integration("Connect") },
    disconnectRouteOptions: { integration: integration("Disconnect") },
    defaultRouteOptions: { integration: integration("Default") },
  });
  const stage = new apigwv2.WebSocketStage(scope, "Stage", { webSocketApi: api, stageName: o.stageName, autoDeploy: true, throttle: o.throttle });
  stage.grantManagementApiAccess(fn.fn);
  return { api, stage };
}
