import { CreateTableCommand, DescribeTableCommand, type DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { CreateBucketCommand, HeadBucketCommand, PutBucketCorsCommand, type S3Client, type CORSRule } from "@aws-sdk/client-s3";
import type { Config } from "../../functions/platform/config.js";
import type { Definitions } from "./definitions.js";

/** Creates the tables and the bucket the CDK definitions describe, when they do not exist yet. */
export async function provision(cfg: Config, ddb: DynamoDBClient, s3: S3Client, defs: Definitions): Promise<void> {
  for (const t of defs.tables) {
    const TableName = cfg.aws.tables[t.logicalName];
    try {
      await ddb.send(new DescribeTableCommand({ TableName }));
      continue;
    } catch (e) {
      if ((e as { name?: string }).name !== "ResourceNotFoundException") throw e;
    }
    await ddb.send(
      new CreateTableCommand({
        TableName,
        KeySchema: t.keySchema,
        AttributeDefinitions: t.attributeDefinitions,
        BillingMode: "PAY_PER_REQUEST",
        GlobalSecondaryIndexes: t.globalSecondaryIndexes.length ? t.globalSecondaryIndexes : undefined,
      }),
    );
    // TTL is a deploy-time setting (dynalite has no UpdateTimeToLive); expired items are filtered on read.
  }
  const Bucket = cfg.aws.bucket;
  try {
    await s3.send(new HeadBucketCommand({ Bucket }));
  } catch {
    await s3.send(new CreateBucketCommand({ Bucket }));
  }
  // Embedded, the store is reachable by the product alone (emulators.ts): no browser talks to it.
  if (defs.bucketCors.length && cfg.mode !== "embedded") {
    await s3.send(new PutBucketCorsCommand({ Bucket, CORSConfiguration: { CORSRules: defs.bucketCors as CORSRule[] } }));
  }
}
