import { RemovalPolicy, Duration } from "aws-cdk-lib";
import * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import * as s3 from "aws-cdk-lib/aws-s3";
import { Construct } from "constructs";
import { LIVE_OBJECT_PREFIX } from "../../functions/platform/stores/liveReadings.js";
import { LIBRARY_INDEXES, LIBRARY_SORT_ATTRIBUTE, libraryIndexKey } from "../../functions/platform/stores/libraryIndexes.js";

/**
 * The tables and the bucket. The embedded stack creates its tables and bucket from the
 * template this construct renders, so this is the one place the table shapes are declared.
 *
 * Access patterns (keys are built by the model modules in functions/platform/stores):
 * main    pk USER#{id}/PROFILE, EMAIL#{email}/EMAIL, WS#{id}/WORKSPACE|MEMBER#|GROUP#|VOICE#|VOICESETTINGS#,
 *         PREMADE/VOICE#{id}, APIKEY#{sha256}/APIKEY, SESSION#{sha256}/SESSION,
 *         WS#{id}/PD#{dict} (a pronunciation dictionary: metadata, sharing, latest-version pointer;
 *         listed by prefix), WS#{id}/PDV#{dict}#{version} (an immutable version; rules in S3
 *         ws/{id}/dictionaries/{dict}/{version}.json)
 *         gsi1: USER#{id}#WORKSPACES -> memberships; VOICE#{id} -> a voice by id;
 *               WS#{ws}#USER#{u}#APIKEYS -> a user's keys by creation time
 *         gsi2: the webhook queue, sparse: WHQ#{shard} -> {due ms}#{id} on events waiting to be fanned
 *               out and deliveries waiting for an attempt (functions/platform/stores/webhooks.ts)
 * history pk WS#{id}, sk H#{time}#{id}: generations newest first; gsi1 by history item id
 * ledger  pk WS#{id}/USAGE (credits), WS#{id}/CHARGE#{key} (idempotency), RL#{scope}#{id}/W#{start} (rate windows),
 *         LIVE#{connection}/SESSION (a live reading on AWS, TTL 2 h) and WS#{id}/LIVE (its open connections):
 *         functions/platform/stores/liveReadings.ts
 * main also: WS#{id}/VOICESLOTS (voice slot counters), WS#{id}/COLL#{c} (a voice collection),
 *         WS#{id}/COLLV#{c}#{voice} (a voice in a collection), WS#{id}/EVENT#{time}#{id} (an event
 *         for webhooks, listed by time), WS#{id}/WEBHOOK#{id}, WS#{id}/WHD#{webhook}#{time}#{id}
 *         (a delivery, a webhook's log newest first), WS#{id}/INVITE#{email} and
 *         INVITETOKEN#{sha256}/INVITE (invites and their links), WS#{id}/OUTBOX#{time}#{id} (mail),
 *         NOTIFICATIONS/N#{time}#{id} (the feed), FEEDBACK/F#{time}#{id};
 *         gsi1 also: USER#{id}#SESSIONS -> a user's sessions
 * library pk V#{voice}/LISTING (a published voice: public settings, counters), V#{voice}/SORT#{sort}
 *         (one small sort entry per sort order, carrying the index keys and filter fields),
 *         V#{voice}/ADDER#{ws} (a workspace that added it: notice events, exact clone counts).
 *         Its 14 GSIs, one per filter combination, are listed with the filter each serves in
 *         functions/platform/stores/libraryIndexes.ts. A table of its own: CloudFormation adds
 *         one GSI per update to an existing table, and dynalite none, so a new table is the way
 *         an existing install gets all of them at once.
 */
export interface TimbreDataProps {
  /** Keep data when the stack is deleted (default true). */
  retain?: boolean;
  /** Origins allowed to upload straight to the bucket with presigned URLs. */
  corsOrigins?: string[];
}

export const TTL_ATTRIBUTE = "ttl";

export class TimbreData extends Construct {
  readonly main: dynamodb.TableV2;
  readonly history: dynamodb.TableV2;
  readonly ledger: dynamodb.TableV2;
  readonly library: dynamodb.TableV2;
  readonly bucket: s3.Bucket;

  constructor(scope: Construct, id: string, props: TimbreDataProps = {}) {
    super(scope, id);
    const removalPolicy = props.retain === false ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN;
    const common = {
      partitionKey: { name: "pk", type: dynamodb.AttributeType.STRING },
      sortKey: { name: "sk", type: dynamodb.AttributeType.STRING },
      billing: dynamodb.Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: dynamodb.TableEncryptionV2.awsManagedKey(),
      timeToLiveAttribute: TTL_ATTRIBUTE,
      deletionProtection: props.retain !== false,
      removalPolicy,
    };
    const gsi = (name: string): dynamodb.GlobalSecondaryIndexPropsV2 => ({
      indexName: name,
      partitionKey: { name: `${name}pk`, type: dynamodb.AttributeType.STRING },
      sortKey: { name: `${name}sk`, type: dynamodb.AttributeType.STRING },
      projectionType: dynamodb.ProjectionType.ALL,
    });

    this.main = new dynamodb.TableV2(this, "Main", { ...common, globalSecondaryIndexes: [gsi("gsi1"), gsi("gsi2")] });
    this.history = new dynamodb.TableV2(this, "History", { ...common, globalSecondaryIndexes: [gsi("gsi1")] });
    this.ledger = new dynamodb.TableV2(this, "Ledger", common);
    this.library = new dynamodb.TableV2(this, "Library", {
      ...common,
      globalSecondaryIndexes: LIBRARY_INDEXES.map((i) => ({
        indexName: i.name,
        partitionKey: { name: libraryIndexKey(i.name), type: dynamodb.AttributeType.STRING },
        sortKey: { name: LIBRARY_SORT_ATTRIBUTE, type: dynamodb.AttributeType.STRING },
        // Only sort entries carry index keys, and they are small: project them whole.
        projectionType: dynamodb.ProjectionType.ALL,
      })),
    });

    this.bucket = new s3.Bucket(this, "Data", {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: false,
      removalPolicy,
      autoDeleteObjects: false,
      cors: [
        {
          allowedMethods: [s3.HttpMethods.PUT, s3.HttpMethods.GET, s3.HttpMethods.HEAD],
          allowedOrigins: props.corsOrigins ?? ["*"],
          allowedHeaders: ["content-type", "content-md5", "x-amz-*"],
          exposedHeaders: ["ETag"],
          maxAge: 3000,
        },
      ],
      lifecycleRules: [
        { id: "abort-incomplete-multipart", abortIncompleteMultipartUploadAfter: Duration.days(1) },
        // One day is S3's shortest; uploads' URLs die in minutes (functions/capabilities/pvc/uploads.ts), so nothing is added meanwhile.
        { id: "expire-temporary-uploads", prefix: "tmp/", expiration: Duration.days(1) },
        // Live readings' reference features (the websocket on AWS); $disconnect deletes them, this catches the rest.
        { id: "expire-live-readings", prefix: LIVE_OBJECT_PREFIX, expiration: Duration.days(1) },
      ],
    });
  }
}
