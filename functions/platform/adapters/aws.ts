import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { S3Client } from "@aws-sdk/client-s3";
import { SFNClient } from "@aws-sdk/client-sfn";
import type { Config } from "../config.js";
import type { HttpHandlerOptions, HttpRequest, HttpResponse, RequestHandler } from "@smithy/types";

/**
 * The only place that builds AWS SDK clients. Local emulators get fixed credentials:
 * s3rver accepts only the S3RVER access key, dynalite accepts any.
 */
const LOCAL_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export interface AwsClients {
  ddb: DynamoDBClient;
  doc: DynamoDBDocumentClient;
  s3: S3Client;
  sfn: SFNClient;
}

/** The header the embedded emulators' guard checks (infra/local/emulators.ts). */
export const EMULATOR_KEY_HEADER = "x-timbre-emulator-key";

/**
 * Adds the emulator key to every request a client sends (before signing, so it is signed too),
 * and `extra` headers.
 */
function withEmulatorKey<T extends { middlewareStack: { add: (...a: never[]) => unknown } }>(client: T, key: string | undefined, extra: Record<string, string> = {}): T {
  if (!key) return client;
  const stack = client.middlewareStack as unknown as {
    add(mw: (next: (args: { request: unknown }) => Promise<unknown>) => (args: { request: unknown }) => Promise<unknown>, opts: { step: "build"; name: string }): void;
  };
  stack.add(
    (next) => async (args) => {
      const req = args.request as { headers?: Record<string, string> };
      if (req.headers) {
        req.headers[EMULATOR_KEY_HEADER] = key;
        for (const [k, v] of Object.entries(extra)) req.headers[k] ??= v;
      }
      return next(args);
    },
    { step: "build", name: "timbreEmulatorKey" },
  );
  return client;
}

/**
 * A request handler for the DynamoDB and S3 clients (the SDK's HttpHandler shape): the embedded
 * stack passes ones that hand requests to the emulators' threads (infra/local/emulators.ts).
 */
export interface SdkRequestHandler extends RequestHandler<HttpRequest, HttpResponse, HttpHandlerOptions> {
  updateHttpClientConfig(key: never, value: never): void;
  httpHandlerConfigs(): Record<string, unknown>;
}

/** A signer that writes a well-formed, unsigned Authorization header (for an emulator that checks only its form). */
function presentAuthorization(region: string) {
  return async <R extends { headers: Record<string, string> }>(request: R): Promise<R> => {
    const amzDate = new Date().toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
    request.headers["x-amz-date"] = amzDate;
    request.headers.authorization = `AWS4-HMAC-SHA256 Credential=${LOCAL_CREDENTIALS.accessKeyId}/${amzDate.slice(0, 8)}/${region}/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=unsigned`;
    return request;
  };
}

export function createAwsClients(cfg: Config, opts: { dynamoHandler?: SdkRequestHandler; s3Handler?: SdkRequestHandler } = {}): AwsClients {
  const local = cfg.mode !== "aws";
  const credentials = local ? LOCAL_CREDENTIALS : undefined;
  const key = cfg.mode === "embedded" ? cfg.aws.emulatorKey : undefined;
  // The embedded DynamoDB (dynalite) checks that an Authorization header is present and well formed, not its
  // signature (the emulator key is what it trusts): SigV4 (canonical request, four HMACs) on every store call
  // was a large share of the request loop's CPU under load (issue 24's storm profile). LocalStack and AWS get
  // signed requests.
  const unsignedDynamo = cfg.mode === "embedded" ? { signer: { sign: presentAuthorization(cfg.aws.region) } } : {};
  const ddb = withEmulatorKey(
    new DynamoDBClient({
      region: cfg.aws.region,
      endpoint: cfg.aws.dynamoEndpoint,
      credentials,
      maxAttempts: local ? 2 : 3,
      ...unsignedDynamo,
      ...(opts.dynamoHandler ? { requestHandler: opts.dynamoHandler } : {}),
    }),
    key,
  );
  const doc = DynamoDBDocumentClient.from(ddb, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    unmarshallOptions: { wrapNumbers: false },
  });
  const s3 = withEmulatorKey(
    new S3Client({
      region: cfg.aws.region,
      endpoint: cfg.aws.s3Endpoint,
      forcePathStyle: cfg.aws.s3Endpoint !== undefined,
      credentials,
      // The embedded store checks no checksums, and the SDK cannot compute one ahead of a
      // stream it is handed (the /storage origin streams uploads through).
      requestChecksumCalculation: local ? "WHEN_REQUIRED" : undefined,
      ...(opts.s3Handler ? { requestHandler: opts.s3Handler } : {}),
    }),
    key,
    // Nor does it check signatures: SHA-256 over every body it is sent (4.5 MB of samples per
    // clone) would be request-loop CPU for nothing. The signer takes the header as the hash.
    { "x-amz-content-sha256": "UNSIGNED-PAYLOAD" },
  );
  const sfn = new SFNClient({ region: cfg.aws.region, endpoint: cfg.aws.sfnEndpoint, credentials });
  return { ddb, doc, s3, sfn };
}
