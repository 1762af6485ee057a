import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { parseConfig } from "../../functions/platform/config.js";
import { ROOT } from "../../infra/constructs/paths.js";

// No Docker engine runs here: this checks the file against what the app's localstack mode expects.
const compose = readFileSync(join(ROOT, "docker-compose.localstack.yml"), "utf8");

it("runs LocalStack with DynamoDB, S3, Step Functions and Lambda on the edge port the app uses", () => {
  expect(compose).toMatch(/image:\s*localstack\/localstack:\S+/);
  const services = /SERVICES:\s*([\w,]+)/.exec(compose)?.[1].split(",");
  expect(services?.sort()).toEqual(["dynamodb", "lambda", "s3", "stepfunctions"]);
  const port = new URL(parseConfig({ TIMBRE_MODE: "localstack" }).aws.dynamoEndpoint!).port;
  expect(compose).toContain(`"127.0.0.1:${port}:4566"`);
});

it("keeps LocalStack's state in a named volume and says how to use it", () => {
  expect(compose).toMatch(/- timbre-localstack:\/var\/lib\/localstack/);
  expect(compose).toMatch(/^volumes:\s*\n\s+timbre-localstack:/m);
  expect(compose).toContain("npm run start:localstack");
});
