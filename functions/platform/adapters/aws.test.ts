import { describe, expect, it } from "vitest";
import { GetItemCommand } from "@aws-sdk/client-dynamodb";
import { createAwsClients } from "./aws.js";
import { parseConfig } from "../config.js";

/** What the DynamoDB client sends, captured by a request handler in place of the network. */
async function authorizationSent(mode: "embedded" | "localstack"): Promise<string> {
  let sent = "";
  const handler = {
    handle: async (request: { headers: Record<string, string> }) => {
      sent = request.headers.authorization;
      throw new Error("captured");
    },
    updateHttpClientConfig() {},
    httpHandlerConfigs: () => ({}),
  };
  const cfg = parseConfig({ TIMBRE_MODE: mode, DYNAMODB_ENDPOINT: "http://127.0.0.1:1", S3_ENDPOINT: "http://127.0.0.1:1" });
  const { ddb } = createAwsClients({ ...cfg, mode }, { dynamoHandler: handler as never });
  await ddb.send(new GetItemCommand({ TableName: "t", Key: { pk: { S: "x" } } })).catch(() => {});
  return sent;
}

describe("the DynamoDB client", () => {
  it("does not sign requests to the embedded store (it checks the emulator key): no SigV4 on the request loop", async () => {
    const auth = await authorizationSent("embedded");
    expect(auth).toMatch(/^AWS4-HMAC-SHA256 Credential=\S+\/dynamodb\/aws4_request, SignedHeaders=\S+, Signature=unsigned$/);
  });

  it("signs them for LocalStack and AWS", async () => {
    const auth = await authorizationSent("localstack");
    expect(auth).toMatch(/Signature=[0-9a-f]{64}$/);
  });
});
