import { loadDefinitions } from "../../infra/local/definitions.js";

/** Renders (or reuses) the CDK definitions once, so test files do not each pay the CDK load. */
export default async function setup(): Promise<void> {
  await loadDefinitions();
}
