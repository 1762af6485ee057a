import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { S3Client } from "@aws-sdk/client-s3";
import { SFNClient } from "@aws-sdk/client-sfn";
import type { Config } from "../config.js";

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

export function createAwsClients(cfg: Config): AwsClients {
  const local = cfg.mode !== "aws";
  const credentials = local ? LOCAL_CREDENTIALS : undefined;
  const ddb = new DynamoDBClient({
    region: cfg.aws.region,
    endpoint: cfg.aws.dynamoEndpoint,
    credentials,
    maxAttempts: local ? 2 : 3,
  });
  const doc = DynamoDBDocumentClient.from(ddb, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    unmarshallOptions: { wrapNumbers: false },
  });
  const s3 = new S3Client({
    region: cfg.aws.region,
    endpoint: cfg.aws.s3Endpoint,
    forcePathStyle: cfg.aws.s3Endpoint !== undefined,
    credentials,
  });
  const sfn = new SFNClient({ region: cfg.aws.region, endpoint: cfg.aws.sfnEndpoint, credentials });
  return { ddb, doc, s3, sfn };
}
