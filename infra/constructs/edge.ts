import { Annotations, Aws, Duration, Fn } from "aws-cdk-lib";
import * as cloudfront from "aws-cdk-lib/aws-cloudfront";
import * as origins from "aws-cdk-lib/aws-cloudfront-origins";
import * as iam from "aws-cdk-lib/aws-iam";
import type * as lambda from "aws-cdk-lib/aws-lambda";
import * as s3 from "aws-cdk-lib/aws-s3";
import type * as secretsmanager from "aws-cdk-lib/aws-secretsmanager";
import { Construct } from "constructs";
import { EDGE_PROOF_HEADER, VIEWER_IP_HEADER } from "../../functions/handlers/lambda/edge-headers.js";
import { HSTS_MAX_AGE_SECONDS, RESOURCE_CONTENT_SECURITY_POLICY, STATIC_SECURITY_HEADERS } from "../../functions/platform/http/security-headers.js";
import { WEB_PREFIX } from "./web.js";

export interface TimbreEdgeProps {
  /** Sent to both Function URLs on every request (x-timbre-edge), so they trust the viewer address. */
  edgeSecret: secretsmanager.ISecret;
  apiUrl: lambda.IFunctionUrl;
  webUrl: lambda.IFunctionUrl;
  /** The data bucket; CloudFront may read its web/ prefix and nothing else. */
  bucket: s3.Bucket;
  /** Top-level client files served from the bucket besides /assets/* (favicon.ico ...). */
  staticPaths?: string[];
}

/** The API paths the ElevenLabs SDKs call, and OpenAI's speech API (/openai/v1); everything else is the web app. */
export const API_PATH_PATTERNS = ["/v1/*", "/v2/*", "/openai/v1/*"];

// CloudFront replaces Host with the origin's, and the Function URL sees an edge server as the
// caller: pass on the viewer's host (URLs, redirects, same-origin checks) and address (sign-in
// limits). Both overwrite whatever the viewer sent under those names.
const VIEWER_HEADERS = `function handler(event) {
  var request = event.request;
  request.headers["x-forwarded-host"] = { value: request.headers.host.value };
  request.headers["${VIEWER_IP_HEADER}"] = { value: event.viewer.ip };
  return request;
}`;

const FRAME_OPTIONS: Record<string, cloudfront.HeadersFrameOption> = { DENY: cloudfront.HeadersFrameOption.DENY, SAMEORIGIN: cloudfront.HeadersFrameOption.SAMEORIGIN };
const REFERRER_POLICIES: Record<string, cloudfront.HeadersReferrerPolicy> = {
  "strict-origin-when-cross-origin": cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
  "no-referrer": cloudfront.HeadersReferrerPolicy.NO_REFERRER,
  "same-origin": cloudfront.HeadersReferrerPolicy.SAME_ORIGIN,
};

/**
 * The security headers of functions/platform/http/security-headers.ts (the embedded front sends the same
 * ones) as CloudFront's response headers policy. CloudFront models some as "security headers";
 * the rest are custom headers. Pages bring their own nonce-based CSP, which wins (no override).
 */
export function securityHeadersPolicyProps(): cloudfront.ResponseHeadersPolicyProps {
  const { "x-content-type-options": nosniff, "x-frame-options": frame, "referrer-policy": referrer, ...custom } = STATIC_SECURITY_HEADERS;
  const frameOption = FRAME_OPTIONS[frame];
  const referrerPolicy = REFERRER_POLICIES[referrer];
  if (nosniff !== "nosniff" || !frameOption || !referrerPolicy) throw new Error("security-headers.ts has a value the CloudFront policy cannot express");
  return {
    comment: "Timbre security headers (functions/platform/http/security-headers.ts)",
    securityHeadersBehavior: {
      contentTypeOptions: { override: true },
      frameOptions: { frameOption, override: true },
      referrerPolicy: { referrerPolicy, override: true },
      strictTransportSecurity: { accessControlMaxAge: Duration.seconds(HSTS_MAX_AGE_SECONDS), includeSubdomains: true, override: true },
      contentSecurityPolicy: { contentSecurityPolicy: RESOURCE_CONTENT_SECURITY_POLICY, override: false },
    },
    customHeadersBehavior: { customHeaders: Object.entries(custom).map(([header, value]) => ({ header, value, override: true })) },
  };
}

/**
 * One CloudFront distribution in front of everything, so the web app and /v1 share an origin:
 * the web function by default, the API function for /v1/* and /v2/*, the bucket (through origin
 * access control) for the static client files. Nothing dynamic is cached.
 *
 * The Lambda URLs are not behind origin access control: with OAC, every POST/PUT must carry the
 * SHA-256 of its body in x-amz-content-sha256, which neither the SDKs nor browser forms send.
 */
export class TimbreEdge extends Construct {
  readonly distribution: cloudfront.Distribution;

  constructor(scope: Construct, id: string, props: TimbreEdgeProps) {
    super(scope, id);
    const responseHeadersPolicy = new cloudfront.ResponseHeadersPolicy(this, "SecurityHeaders", securityHeadersPolicyProps());
    const viewerHeaders = new cloudfront.Function(this, "ViewerHeaders", {
      code: cloudfront.FunctionCode.fromInline(VIEWER_HEADERS),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      comment: "Passes the viewer's host and address to the Timbre functions",
    });
    // A dynamic reference: CloudFormation resolves it at deploy; the template never holds the value.
    const proof = { [EDGE_PROOF_HEADER]: props.edgeSecret.secretValue.unsafeUnwrap() };
    const dynamic = (url: lambda.IFunctionUrl, viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy): cloudfront.BehaviorOptions => ({
      // Streaming answers may pause between chunks (synthesis of the next sentence).
      origin: new origins.FunctionUrlOrigin(url, { readTimeout: Duration.seconds(60), customHeaders: proof }),
      viewerProtocolPolicy,
      allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
      cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
      // Every viewer header (xi-api-key, authorization, content-type, cookies, range ...) but Host,
      // which the Function URL must see as its own.
      originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      responseHeadersPolicy,
      functionAssociations: [{ function: viewerHeaders, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
      compress: false,
    });

    // An imported view of the bucket, so the origin does not grant CloudFront the whole bucket:
    // the statement below grants web/* only.
    const staticBucket = s3.Bucket.fromBucketAttributes(this, "StaticBucket", {
      bucketName: props.bucket.bucketName,
      bucketRegionalDomainName: props.bucket.bucketRegionalDomainName,
    });
    const staticOrigin = origins.S3BucketOrigin.withOriginAccessControl(staticBucket, { originPath: `/${WEB_PREFIX.replace(/\/$/, "")}` });
    const staticBehavior: cloudfront.BehaviorOptions = {
      origin: staticOrigin,
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
      cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
      responseHeadersPolicy,
      compress: true,
    };

    const api = dynamic(props.apiUrl, cloudfront.ViewerProtocolPolicy.HTTPS_ONLY);
    const additionalBehaviors: Record<string, cloudfront.BehaviorOptions> = {};
    for (const p of API_PATH_PATTERNS) additionalBehaviors[p] = api;
    additionalBehaviors["/assets/*"] = staticBehavior;
    for (const p of props.staticPaths ?? []) additionalBehaviors[p] ??= staticBehavior;

    this.distribution = new cloudfront.Distribution(this, "Distribution", {
      comment: "Timbre: web app, /v1 and /v2, static assets",
      defaultBehavior: dynamic(props.webUrl, cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS),
      additionalBehaviors,
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
    });

    props.bucket.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: "CloudFrontReadsStaticClientFiles",
        principals: [new iam.ServicePrincipal("cloudfront.amazonaws.com")],
        actions: ["s3:GetObject"],
        resources: [props.bucket.arnForObjects(`${WEB_PREFIX}*`)],
        conditions: {
          StringEquals: { "AWS:SourceArn": Fn.join("", [`arn:${Aws.PARTITION}:cloudfront::${Aws.ACCOUNT_ID}:distribution/`, this.distribution.distributionId]) },
        },
      }),
    );
    // Handled by the statement above, scoped to web/*.
    Annotations.of(this).acknowledgeWarning("@aws-cdk/aws-cloudfront-origins:updateImportedBucketPolicyOac", "granted for web/* by TimbreEdge");
  }
}
