import { createHash } from "node:crypto";
import { CustomResource, Duration } from "aws-cdk-lib";
import { Construct } from "constructs";
import { premadeVoiceRecords } from "../../functions/platform/domain/premadeVoices.js";
import { communityVoiceRecords } from "../../functions/capabilities/voices/community.js";
import type { TimbreData } from "./data.js";
import { TimbreFunction } from "./function.js";
import { LAMBDA_ENTRY } from "./paths.js";

/**
 * Writes the system records (premade voices, the community library) at deploy time, as the embedded stack does at every
 * start. It runs again whenever those records change, and does nothing when the stack is deleted.
 */
export class TimbreSeed extends Construct {
  readonly function: TimbreFunction;

  constructor(scope: Construct, id: string, props: { data: TimbreData; rerunOn?: string }) {
    super(scope, id);
    this.function = new TimbreFunction(this, "Seed", {
      entry: LAMBDA_ENTRY.seed,
      description: "Timbre deploy-time seeding (premade voices, community library)",
      data: props.data,
      timeout: Duration.minutes(2),
    })
      .bindTable(props.data.main, "write")
      .bindTable(props.data.library, "write");
    // Remote engines' voices (REMOTE_ENGINES, in the operator's secret) are listed from their servers.

    const version = createHash("sha256").update(JSON.stringify([premadeVoiceRecords(), communityVoiceRecords()])).digest("hex").slice(0, 16);
    new CustomResource(this, "SystemRecords", {
      serviceToken: this.function.fn.functionArn,
      resourceType: "Custom::TimbreSeed",
      properties: props.rerunOn ? { version, operator: createHash("sha256").update(props.rerunOn).digest("hex").slice(0, 16) } : { version },
    });
  }
}
