import { App } from "aws-cdk-lib";
import { TimbreStack } from "./stacks/timbre-stack.js";

// Environment-agnostic on purpose: no account or region, no lookups, so `cdk synth` works offline.
const app = new App();
new TimbreStack(app, "Timbre", {
  description: "Timbre: self-hostable AI voice platform",
  // `-c retainData=false` for throwaway stacks whose tables and bucket may go with them.
  retainData: app.node.tryGetContext("retainData") !== "false",
  // The operator's settings (README, Deploy to AWS): plain ones as JSON, secret ones in a Secrets Manager secret.
  operatorSettings: app.node.tryGetContext("operatorSettings"),
  operatorSecretsArn: app.node.tryGetContext("operatorSecretsArn"),
  operatorSecretsVersion: app.node.tryGetContext("operatorSecretsVersion"),
});
