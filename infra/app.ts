import { App } from "aws-cdk-lib";
import { TimbreStack } from "./stacks/timbre-stack.js";

// Environment-agnostic on purpose: no account or region, no lookups, so `cdk synth` works offline.
const app = new App();
new TimbreStack(app, "Timbre", {
  description: "Timbre: self-hostable AI voice platform",
  // `-c retainData=false` for throwaway stacks whose tables and bucket may go with them.
  retainData: app.node.tryGetContext("retainData") !== "false",
});
