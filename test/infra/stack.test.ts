import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { App, type CfnElement } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import type { IConstruct } from "constructs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findWebBuild } from "../../infra/constructs/paths.js";
import { grantsFor } from "../../infra/constructs/workflow-grants.js";
import { TimbreStack } from "../../infra/stacks/timbre-stack.js";
import { HSTS_MAX_AGE_SECONDS, RESOURCE_CONTENT_SECURITY_POLICY, STATIC_SECURITY_HEADERS } from "../../functions/platform/http/security-headers.js";
import { WORKFLOWS } from "../../workflows/index.js";

type Json = Record<string, unknown>;
type Resource = { Type: string; Properties: Json; DependsOn?: string[] };
interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Principal?: unknown;
  Condition?: Json;
}

// IDs of the managed CloudFront policies (the same in every account).
const CACHING_DISABLED = "4135ea2d-6df8-44a3-9df3-4b5a84be39ad";
const CACHING_OPTIMIZED = "658327ea-f89d-4fab-a63d-7e88639e58f6";
const ALL_VIEWER_EXCEPT_HOST_HEADER = "b689b0a8-53d0-40ab-baf2-68738e2966ac";

// Actions AWS only accepts on Resource "*": Step Functions log delivery and X-Ray.
const STAR_RESOURCE_ACTIONS = new Set([
  "logs:CreateLogDelivery",
  "logs:GetLogDelivery",
  "logs:UpdateLogDelivery",
  "logs:DeleteLogDelivery",
  "logs:ListLogDeliveries",
  "logs:PutResourcePolicy",
  "logs:DescribeResourcePolicies",
  "logs:DescribeLogGroups",
  "xray:PutTraceSegments",
  "xray:PutTelemetryRecords",
  "xray:GetSamplingRules",
  "xray:GetSamplingTargets",
]);

const list = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

let buildDir: string;
let stack: TimbreStack;
let resources: Record<string, Resource>;
let warnings: string[];

const idOf = (c: IConstruct) => stack.getLogicalId(c.node.defaultChild as CfnElement);
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const refersTo = (value: unknown, logicalId: string) => JSON.stringify(value).includes(`"${logicalId}"`);

/** Every IAM statement attached to a role, through any AWS::IAM::Policy. */
function statementsOf(role: IConstruct): Statement[] {
  const roleId = idOf(role);
  return ofType("AWS::IAM::Policy")
    .filter(([, p]) => list(p.Properties.Roles as unknown[]).some((r) => refersTo(r, roleId)))
    .flatMap(([, p]) => (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
}
const actionsOf = (role: IConstruct) => statementsOf(role).flatMap((s) => list(s.Action));

/** An operator's settings (functions/platform/operatorSettings.ts), as `-c operatorSettings=... -c operatorSecretsArn=...` give them. */
const OPERATOR_SETTINGS = JSON.stringify({ ASSISTANT_LLM_URL: "https://llm.example/v1", ASSISTANT_TRANSCRIPTION_URL: "https://stt.example/v1" });
const OPERATOR_SECRETS_ARN = "arn:aws:secretsmanager:eu-west-1:123456789012:secret:timbre-operator-AbCdEf";

beforeAll(() => {
  // A stand-in for `npm run build` output, so the static-file paths are exercised.
  buildDir = mkdtempSync(join(tmpdir(), "timbre-web-build-"));
  mkdirSync(join(buildDir, "server"), { recursive: true });
  mkdirSync(join(buildDir, "client", "assets"), { recursive: true });
  writeFileSync(join(buildDir, "server", "index.js"), "export const mode = 'production';\n");
  writeFileSync(join(buildDir, "client", "assets", "entry.client-3f9a.js"), "console.log('hi');\n");
  writeFileSync(join(buildDir, "client", "favicon.ico"), "");

  const app = new App({ context: { "aws:cdk:bundling-stacks": [] } });
  stack = new TimbreStack(app, "Timbre", { webBuild: findWebBuild(buildDir), operatorSettings: OPERATOR_SETTINGS, operatorSecretsArn: OPERATOR_SECRETS_ARN });
  resources = Template.fromStack(stack).toJSON().Resources as Record<string, Resource>;
  warnings = app
    .synth()
    .getStackByName("Timbre")
    .messages.filter((m) => m.level !== "info")
    .map((m) => `${m.id}: ${String(m.entry.data)}`);
  // Synthesis bundles every function with esbuild (api, web, seed, live reading, assistant, the workflow steps): over a minute on a loaded machine.
}, 300_000);

afterAll(() => rmSync(buildDir, { recursive: true, force: true }));

describe("data", () => {
  it("keeps every table point-in-time recoverable, encrypted at rest, with TTL on 'ttl'", () => {
    const tables = ofType("AWS::DynamoDB::GlobalTable");
    expect(tables).toHaveLength(4);
    for (const [, t] of tables) {
      expect(t.Properties.SSESpecification).toMatchObject({ SSEEnabled: true });
      const replicas = t.Properties.Replicas as Array<{ PointInTimeRecoverySpecification?: { PointInTimeRecoveryEnabled: boolean } }>;
      expect(replicas.length).toBeGreaterThan(0);
      for (const r of replicas) expect(r.PointInTimeRecoverySpecification?.PointInTimeRecoveryEnabled).toBe(true);
      expect(t.Properties.TimeToLiveSpecification).toEqual({ AttributeName: "ttl", Enabled: true });
    }
  });

  it("blocks public access to the bucket, encrypts it, refuses plain HTTP, allows browser uploads and aborts stale multipart uploads", () => {
    const [[bucketId, bucket]] = ofType("AWS::S3::Bucket");
    const p = bucket.Properties;
    expect(p.PublicAccessBlockConfiguration).toEqual({ BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true });
    expect(JSON.stringify(p.BucketEncryption)).toContain('"SSEAlgorithm":"AES256"');
    const cors = (p.CorsConfiguration as { CorsRules: Array<{ AllowedMethods: string[] }> }).CorsRules;
    expect(cors.some((r) => r.AllowedMethods.includes("PUT"))).toBe(true);
    const rules = (p.LifecycleConfiguration as { Rules: Array<{ Status: string; AbortIncompleteMultipartUpload?: { DaysAfterInitiation: number } }> }).Rules;
    expect(rules.some((r) => r.Status === "Enabled" && r.AbortIncompleteMultipartUpload?.DaysAfterInitiation === 1)).toBe(true);

    const policy = ofType("AWS::S3::BucketPolicy").find(([, r]) => refersTo(r.Properties.Bucket, bucketId))![1];
    const statements = (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement;
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: "Deny", Action: "s3:*", Condition: { Bool: { "aws:SecureTransport": "false" } } }),
    );
  });
});

describe("functions", () => {
  const isBucketDeploymentHandler = (id: string) => id.startsWith("CustomCDKBucketDeployment");

  it("runs every Timbre function on Node.js 22 (arm64), logging to its own group with a finite retention", () => {
    const functions = ofType("AWS::Lambda::Function");
    const ours = functions.filter(([id]) => !isBucketDeploymentHandler(id));
    // api, web, seed, live reading, assistant, and one per workflow
    expect(ours).toHaveLength(5 + WORKFLOWS.length);
    for (const [id, fn] of ours) {
      expect(fn.Properties.Runtime, id).toBe("nodejs22.x");
      expect(fn.Properties.Architectures, id).toEqual(["arm64"]);
      expect((fn.Properties.Environment as { Variables: Json }).Variables).toMatchObject({ TIMBRE_MODE: "aws", NODE_OPTIONS: "--enable-source-maps" });
    }
    // CDK's BucketDeployment handler (Python, AWS CLI) is the one function that is not ours.
    expect(functions.filter(([id]) => isBucketDeploymentHandler(id))).toHaveLength(1);
    for (const [id, fn] of functions) {
      const group = (fn.Properties.LoggingConfig as { LogGroup?: { Ref: string } } | undefined)?.LogGroup?.Ref;
      expect(group, `${id} has no log group of its own`).toBeDefined();
      const retention = resources[group!].Properties.RetentionInDays;
      expect(typeof retention, `${id} logs forever`).toBe("number");
    }
  });

  it("serves the API and the web app through Function URLs that stream (RESPONSE_STREAM)", () => {
    for (const fn of [stack.api.function.fn, stack.web.function.fn]) {
      const [, url] = ofType("AWS::Lambda::Url").find(([, u]) => refersTo(u.Properties.TargetFunctionArn, idOf(fn)))!;
      expect(url.Properties).toMatchObject({ InvokeMode: "RESPONSE_STREAM", AuthType: "NONE" });
    }
  });

  it("gives the web function the API function URL and no access to DynamoDB or S3", () => {
    const env = (resources[idOf(stack.web.function.fn)].Properties.Environment as { Variables: Json }).Variables;
    expect(refersTo(env.API_INTERNAL_URL, idOf(stack.api.url))).toBe(true);
    expect(env.SECURE_COOKIES).toBe("true");
    expect(actionsOf(stack.web.function.role).filter((a) => a.startsWith("dynamodb:") || a.startsWith("s3:"))).toEqual([]);
  });

  it("lets the voice-purge steps list and delete voice objects and delete records, nothing more", () => {
    const role = stack.stepFunctions.get("voice-purge")!.role;
    const statements = statementsOf(role);
    const dataActions = statements.flatMap((s) => list(s.Action)).filter((a) => a.startsWith("s3:") || a.startsWith("dynamodb:"));
    expect(dataActions.sort()).toEqual(["dynamodb:DeleteItem", "s3:DeleteObject", "s3:ListBucket"]);

    const del = statements.find((s) => list(s.Action).includes("s3:DeleteObject"))!;
    expect(JSON.stringify(del.Resource)).toContain('"/ws/*/voices/*"');
    const listing = statements.find((s) => list(s.Action).includes("s3:ListBucket"))!;
    expect(listing.Condition).toEqual({ StringLike: { "s3:prefix": ["ws/*/voices/*"] } });
    const records = statements.find((s) => list(s.Action).includes("dynamodb:DeleteItem"))!;
    expect(refersTo(records.Resource, idOf(stack.data.main))).toBe(true);
    expect(refersTo(records.Resource, idOf(stack.data.history))).toBe(false);
  });

  it("lets the speaker-separation and fine-tuning steps read and write voice objects and the main table only, with room for audio work", () => {
    for (const name of ["speaker-separation", "voice-fine-tuning"]) {
      const fn = stack.stepFunctions.get(name)!;
      const statements = statementsOf(fn.role);
      const s3 = statements.filter((s) => list(s.Action).some((a) => a.startsWith("s3:")));
      for (const s of s3) {
        if (list(s.Action).includes("s3:ListBucket")) expect(s.Condition, name).toEqual({ StringLike: { "s3:prefix": ["ws/*/voices/*"] } });
        else expect(JSON.stringify(s.Resource), name).toContain('"/ws/*/voices/*"');
      }
      expect(s3.flatMap((s) => list(s.Action)).sort(), name).toEqual(["s3:AbortMultipartUpload", "s3:DeleteObject", "s3:GetObject", "s3:ListBucket", "s3:PutObject"]);
      const tables = statements.filter((s) => list(s.Action).some((a) => a.startsWith("dynamodb:")));
      for (const t of tables) {
        expect(refersTo(t.Resource, idOf(stack.data.main)), name).toBe(true);
        for (const other of [stack.data.history, stack.data.ledger, stack.data.library]) expect(refersTo(t.Resource, idOf(other)), name).toBe(false);
      }
      // No secret, no state machine, nothing else.
      expect(statements.flatMap((s) => list(s.Action)).filter((a) => !a.startsWith("s3:") && !a.startsWith("dynamodb:") && !a.startsWith("xray:") && !a.startsWith("logs:")), name).toEqual([]);
      const props = resources[idOf(fn.fn)].Properties;
      expect(props.MemorySize, name).toBe(3008);
      expect(props.Timeout as number, name).toBeGreaterThanOrEqual(600);
    }
  });

  it("lets the voice-verification steps read and write voice objects and the main table, and only read the library", () => {
    const role = stack.stepFunctions.get("voice-verification")!.role;
    const statements = statementsOf(role);
    const objects = statements.find((s) => list(s.Action).includes("s3:PutObject"))!;
    expect(JSON.stringify(objects.Resource)).toContain('"/ws/*/voices/*"');
    const table = (id: string) => statements.filter((s) => refersTo(s.Resource, id)).flatMap((s) => list(s.Action));
    expect(table(idOf(stack.data.main))).toContain("dynamodb:UpdateItem");
    expect(table(idOf(stack.data.library)).every((a) => ["dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:Query"].includes(a))).toBe(true);
    expect(table(idOf(stack.data.ledger))).toEqual([]);
    expect(table(idOf(stack.data.history))).toEqual([]);
    // It speaks (the engine's WASM beside the bundle) and analyses (the worker): more memory than the default.
    const fn = resources[idOf(stack.stepFunctions.get("voice-verification")!.fn)];
    expect(fn.Properties.MemorySize).toBe(1536);
  });

  it("lets the API start executions only on Timbre's state machines, and tells it their ARNs", () => {
    const machineIds = [...stack.workflows.machines.values()].map(idOf);
    const starts = statementsOf(stack.api.function.role).filter((s) => list(s.Action).some((a) => a.startsWith("states:")));
    expect(starts.flatMap((s) => list(s.Action))).toEqual(["states:StartExecution"]);
    const targets = starts.flatMap((s) => list(s.Resource));
    expect(targets.map((r) => (r as { Ref: string }).Ref).sort()).toEqual(machineIds.sort());

    const env = (resources[idOf(stack.api.function.fn)].Properties.Environment as { Variables: Json }).Variables;
    for (const wf of WORKFLOWS) expect(JSON.stringify(env.STATE_MACHINES)).toContain(`\\"${wf.name}\\":\\"`);
    for (const id of machineIds) expect(refersTo(env.STATE_MACHINES, id)).toBe(true);
    // Nothing else may start them, except a scheduled workflow's EventBridge rule, its own machine only.
    const scheduled = WORKFLOWS.filter((w) => w.schedule).map((w) => idOf(stack.workflows.machines.get(w.name)!));
    for (const [, p] of ofType("AWS::IAM::Policy")) {
      const doc = p.Properties.PolicyDocument as { Statement: Statement[] };
      const starts = doc.Statement.filter((s) => list(s.Action).includes("states:StartExecution"));
      if (!starts.length || refersTo(p.Properties.Roles, idOf(stack.api.function.role))) continue;
      const [roleRef] = list(p.Properties.Roles) as Array<{ Ref: string }>;
      const trust = JSON.stringify(resources[roleRef.Ref].Properties.AssumeRolePolicyDocument);
      expect(trust).toContain("events.amazonaws.com");
      const resourcesStarted = starts.flatMap((s) => list(s.Resource)).map((r) => (r as { Ref: string }).Ref);
      expect(resourcesStarted.length).toBe(1);
      expect(scheduled).toContain(resourcesStarted[0]);
    }
    // A scheduled workflow runs on a schedule.
    expect(ofType("AWS::Events::Rule").map(([, r]) => r.Properties.ScheduleExpression)).toEqual(WORKFLOWS.filter((w) => w.schedule).map(() => "rate(1 minute)"));
  });

  it("gives every workflow a step function of its own, and refuses a workflow without grants", () => {
    expect([...stack.stepFunctions.keys()].sort()).toEqual(WORKFLOWS.map((w) => w.name).sort());
    const roles = new Set([...stack.stepFunctions.values()].map((f) => idOf(f.role)));
    expect(roles.size).toBe(WORKFLOWS.length);
    expect(() => grantsFor("not-a-workflow")).toThrow(/no grants/);
  });

  it("generates the session and edge secrets at deploy and hands functions only their ARNs", () => {
    for (const secret of [stack.sessionSecret, stack.edgeSecret]) {
      expect(resources[idOf(secret)].Properties.GenerateSecretString).toMatchObject({ ExcludePunctuation: true });
    }
    for (const [id, fn] of ofType("AWS::Lambda::Function")) {
      const vars = (fn.Properties.Environment as { Variables?: Json } | undefined)?.Variables ?? {};
      expect(Object.keys(vars), id).not.toContain("SESSION_SECRET");
    }
    const readers = ofType("AWS::IAM::Policy")
      .filter(([, p]) => (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement.some((s) => list(s.Action).includes("secretsmanager:GetSecretValue")))
      .map(([, p]) => p.Properties.Roles);
    // The API, the web, the live reading and the assistant (they check session tokens), the webhook
    // dispatcher (it decrypts webhook signing secrets), and the seeding (the operator's secret: remote engines).
    expect(readers).toHaveLength(6);
    const dispatcher = stack.stepFunctions.get("webhook-dispatch")!;
    expect(readers.some((r) => refersTo(r, idOf(dispatcher.role)))).toBe(true);
    const dispatcherEnv = (resources[idOf(dispatcher.fn)].Properties.Environment as { Variables: Json }).Variables;
    expect(dispatcherEnv.SESSION_SECRET_ARN).toEqual({ Ref: idOf(stack.sessionSecret) });
    expect(dispatcherEnv.EDGE_SECRET_ARN).toBeUndefined();
    for (const fn of [stack.api.function, stack.web.function]) {
      expect(readers.some((r) => refersTo(r, idOf(fn.role)))).toBe(true);
      const env = (resources[idOf(fn.fn)].Properties.Environment as { Variables: Json }).Variables;
      expect(env.SESSION_SECRET_ARN).toEqual({ Ref: idOf(stack.sessionSecret) });
      expect(env.EDGE_SECRET_ARN).toEqual({ Ref: idOf(stack.edgeSecret) });
    }
  });
});

describe("the operator's settings", () => {
  const envOf = (fn: { fn: IConstruct }) => (resources[idOf(fn.fn)].Properties.Environment as { Variables: Json }).Variables;

  it("passes the plain settings to the API, the assistant, the seeding and the web, and the secret by ARN (read access to it alone) to the first three", () => {
    for (const fn of [stack.api.function, stack.assistant.function, stack.seed.function, stack.web.function]) {
      expect(envOf(fn)).toMatchObject({ ASSISTANT_LLM_URL: "https://llm.example/v1", ASSISTANT_TRANSCRIPTION_URL: "https://stt.example/v1" });
    }
    for (const fn of [stack.api.function, stack.assistant.function, stack.seed.function]) {
      expect(envOf(fn).OPERATOR_SECRETS_ARN).toBe(OPERATOR_SECRETS_ARN);
      const reads = statementsOf(fn.role).filter((s) => list(s.Action).includes("secretsmanager:GetSecretValue") && JSON.stringify(s.Resource).includes("timbre-operator"));
      expect(reads.flatMap((s) => list(s.Resource))).toEqual([OPERATOR_SECRETS_ARN]);
    }
    expect(envOf(stack.web.function).OPERATOR_SECRETS_ARN).toBeUndefined();
    expect(statementsOf(stack.web.function.role).some((s) => JSON.stringify(s.Resource).includes("timbre-operator"))).toBe(false);
    // Changing the secret's version re-runs the seeding (a new property on its custom resource).
    const [[, seed]] = ofType("Custom::TimbreSeed");
    expect(Object.keys(seed.Properties)).toContain("operator");
  });

  it("refuses at synth an unknown or secret name among the plain settings, a bad value, and an ARN that is not a secret's", () => {
    const synth = (p: Record<string, unknown>) => () => new TimbreStack(new App({ context: { "aws:cdk:bundling-stacks": [] } }), "T", { webBuild: findWebBuild(buildDir), ...p });
    expect(synth({ operatorSettings: { ASSISTANT_LLM_URL: "ftp://x" } })).toThrow(/ASSISTANT_LLM_URL/);
    expect(synth({ operatorSettings: { SESSION_SECRET: "x".repeat(40) } })).toThrow(/unknown setting SESSION_SECRET/);
    // A key is a secret: it goes in the operator's secret, never in the template.
    expect(synth({ operatorSettings: { ASSISTANT_LLM_API_KEY: "sk-visible" } })).toThrow(/unknown setting ASSISTANT_LLM_API_KEY/);
    expect(synth({ operatorSettings: "{not json" })).toThrow(/not valid JSON/);
    expect(synth({ operatorSecretsArn: "arn:aws:s3:::bucket" })).toThrow(/not a Secrets Manager secret ARN/);
  });
});

describe("least privilege", () => {
  it("grants no service-wide action and no '*' resource except where AWS requires one", () => {
    for (const [id, p] of ofType("AWS::IAM::Policy")) {
      for (const s of (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement) {
        const actions = list(s.Action);
        for (const a of actions) expect(a === "*" || a.endsWith(":*"), `${id}: ${a}`).toBe(false);
        if (list(s.Resource).includes("*")) {
          expect(
            actions.filter((a) => !STAR_RESOURCE_ACTIONS.has(a)),
            `${id} uses Resource "*"`,
          ).toEqual([]);
        }
      }
    }
  });

  it("gives Timbre's own functions exact actions only, and no managed policies", () => {
    const ours = [stack.api.function, stack.web.function, stack.seed.function, stack.live.function, stack.assistant.function, ...stack.stepFunctions.values()];
    for (const fn of ours) {
      for (const a of actionsOf(fn.role)) expect(a, idOf(fn.role)).not.toContain("*");
      expect(resources[idOf(fn.role)].Properties.ManagedPolicyArns).toBeUndefined();
    }
  });
});

describe("edge", () => {
  type Behavior = { PathPattern?: string; TargetOriginId: string; CachePolicyId: string; OriginRequestPolicyId?: string; AllowedMethods: string[]; ViewerProtocolPolicy: string };
  let config: { DefaultCacheBehavior: Behavior; CacheBehaviors: Behavior[]; Origins: Array<{ Id: string; DomainName: unknown; S3OriginConfig?: unknown; OriginPath?: string; OriginAccessControlId?: unknown }> };
  const originOf = (b: Behavior) => config.Origins.find((o) => o.Id === b.TargetOriginId)!;
  const behavior = (pattern: string) => config.CacheBehaviors.find((b) => b.PathPattern === pattern)!;

  beforeAll(() => {
    const [[, dist]] = ofType("AWS::CloudFront::Distribution");
    config = dist.Properties.DistributionConfig as typeof config;
  });

  it("sends /v1/*, /v2/* and /openai/v1/* to the API function URL, uncached, every method, every viewer header but Host", () => {
    for (const p of ["/v1/*", "/v2/*", "/openai/v1/*"]) {
      const b = behavior(p);
      expect(b, p).toBeDefined();
      expect(refersTo(originOf(b).DomainName, idOf(stack.api.url))).toBe(true);
      expect(b.CachePolicyId).toBe(CACHING_DISABLED);
      expect(b.OriginRequestPolicyId).toBe(ALL_VIEWER_EXCEPT_HOST_HEADER);
      expect(b.AllowedMethods).toEqual(expect.arrayContaining(["GET", "HEAD", "OPTIONS", "PUT", "PATCH", "POST", "DELETE"]));
      expect(b.ViewerProtocolPolicy).toBe("https-only");
    }
  });

  it("proves itself to both functions with the edge secret, resolved at deploy, and passes the viewer's host and address", () => {
    for (const b of [config.DefaultCacheBehavior, behavior("/v1/*")]) {
      const headers = (originOf(b) as { OriginCustomHeaders?: Array<{ HeaderName: string; HeaderValue: unknown }> }).OriginCustomHeaders ?? [];
      const proof = headers.find((h) => h.HeaderName === "x-timbre-edge");
      expect(JSON.stringify(proof?.HeaderValue)).toContain("{{resolve:secretsmanager:");
      expect(refersTo(proof?.HeaderValue, idOf(stack.edgeSecret))).toBe(true);
    }
    const [[fnId, fn]] = ofType("AWS::CloudFront::Function");
    expect(String(fn.Properties.FunctionCode)).toMatch(/x-forwarded-host[\s\S]*host\.value[\s\S]*x-timbre-viewer-ip[\s\S]*event\.viewer\.ip/);
    for (const b of [config.DefaultCacheBehavior, behavior("/v1/*"), behavior("/v2/*")]) {
      expect(JSON.stringify((b as { FunctionAssociations?: unknown }).FunctionAssociations)).toContain(fnId);
    }
  });

  it("sends everything else to the web function URL, uncached, every method", () => {
    const b = config.DefaultCacheBehavior;
    expect(refersTo(originOf(b).DomainName, idOf(stack.web.url))).toBe(true);
    expect(b.CachePolicyId).toBe(CACHING_DISABLED);
    expect(b.OriginRequestPolicyId).toBe(ALL_VIEWER_EXCEPT_HOST_HEADER);
    expect(b.AllowedMethods).toContain("POST");
  });

  it("serves /assets/* and the other client files from the bucket's web/ prefix through origin access control, cached", () => {
    for (const p of ["/assets/*", "/favicon.ico"]) {
      const b = behavior(p);
      expect(b, p).toBeDefined();
      const origin = originOf(b);
      expect(refersTo(origin.DomainName, idOf(stack.data.bucket))).toBe(true);
      expect(origin.OriginPath).toBe("/web");
      expect(origin.OriginAccessControlId).toBeDefined();
      expect(b.CachePolicyId).toBe(CACHING_OPTIMIZED);
      expect(b.AllowedMethods).toEqual(["GET", "HEAD"]);
    }
  });

  it("answers every behaviour with the security headers the embedded front sends, from the same definition", () => {
    const [[policyId, policy]] = ofType("AWS::CloudFront::ResponseHeadersPolicy");
    const cfg = policy.Properties.ResponseHeadersPolicyConfig as {
      SecurityHeadersConfig: Record<string, Record<string, unknown>>;
      CustomHeadersConfig: { Items: Array<{ Header: string; Value: string; Override: boolean }> };
    };
    const sec = cfg.SecurityHeadersConfig;
    expect(sec.FrameOptions.FrameOption).toBe(STATIC_SECURITY_HEADERS["x-frame-options"]);
    expect(String(sec.ReferrerPolicy.ReferrerPolicy)).toBe(STATIC_SECURITY_HEADERS["referrer-policy"]);
    expect(sec.ContentTypeOptions.Override).toBe(true);
    expect(sec.StrictTransportSecurity.AccessControlMaxAgeSec).toBe(HSTS_MAX_AGE_SECONDS);
    // Pages set their own nonce-based policy; CloudFront's applies only where the origin sent none.
    expect(sec.ContentSecurityPolicy).toMatchObject({ ContentSecurityPolicy: RESOURCE_CONTENT_SECURITY_POLICY, Override: false });
    for (const name of ["permissions-policy", "cross-origin-opener-policy"] as const) {
      expect(cfg.CustomHeadersConfig.Items.find((i) => i.Header === name)?.Value).toBe(STATIC_SECURITY_HEADERS[name]);
    }
    for (const b of [config.DefaultCacheBehavior, ...config.CacheBehaviors]) {
      expect(JSON.stringify((b as { ResponseHeadersPolicyId?: unknown }).ResponseHeadersPolicyId)).toContain(policyId);
    }
  });

  it("lets CloudFront read web/* of the bucket and nothing else", () => {
    const statements = ofType("AWS::S3::BucketPolicy").flatMap(([, p]) => (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
    const fromCloudFront = statements.filter((s) => JSON.stringify(s.Principal ?? "").includes("cloudfront.amazonaws.com"));
    expect(fromCloudFront).toHaveLength(1);
    expect(list(fromCloudFront[0].Action)).toEqual(["s3:GetObject"]);
    expect(JSON.stringify(fromCloudFront[0].Resource)).toContain('"/web/*"');
    expect(refersTo(fromCloudFront[0].Condition, idOf(stack.edge.distribution))).toBe(true);
  });

  it("deploys the client build under web/, hashed assets as immutable", () => {
    const deployments = ofType("Custom::CDKBucketDeployment");
    const prefixes = deployments.map(([, d]) => d.Properties.DestinationBucketKeyPrefix).sort();
    expect(prefixes).toEqual(["web/", "web/assets/"]);
    const assets = deployments.find(([, d]) => d.Properties.DestinationBucketKeyPrefix === "web/assets/")![1];
    expect(JSON.stringify(assets.Properties.SystemMetadata)).toContain("immutable");
  });

  it("outputs the distribution URL and the API function URL", () => {
    const outputs = Template.fromStack(stack).toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(refersTo(outputs.Url.Value, idOf(stack.edge.distribution))).toBe(true);
    expect(refersTo(outputs.ApiFunctionUrl.Value, idOf(stack.api.url))).toBe(true);
  });
});

describe("live reading websocket", () => {
  it("is a WebSocket API whose $connect, $disconnect and $default routes invoke the live function, on an auto-deployed stage", () => {
    // Two websocket APIs: the live reading's and the assistant's (below).
    expect(ofType("AWS::ApiGatewayV2::Api").map(([id]) => id).sort()).toEqual([idOf(stack.assistant.api), idOf(stack.live.api)].sort());
    const apiId = idOf(stack.live.api);
    const api = resources[apiId];
    expect(api.Properties.ProtocolType).toBe("WEBSOCKET");
    const fnId = idOf(stack.live.function.fn);
    const routes = ofType("AWS::ApiGatewayV2::Route").filter(([, r]) => refersTo(r.Properties.ApiId, apiId));
    expect(routes.map(([, r]) => r.Properties.RouteKey).sort()).toEqual(["$connect", "$default", "$disconnect"]);
    for (const [, route] of routes) {
      const integrationId = (route.Properties.Target as { "Fn::Join": [string, unknown[]] })["Fn::Join"][1].map((p) => (p as { Ref?: string }).Ref).find(Boolean)!;
      const integration = resources[integrationId].Properties;
      expect(integration.IntegrationType).toBe("AWS_PROXY");
      expect(refersTo(integration.IntegrationUri, fnId)).toBe(true);
    }
    const stage = resources[idOf(stack.live.stage)];
    expect(stage.Properties).toMatchObject({ StageName: "live", AutoDeploy: true });
    const invoke = ofType("AWS::Lambda::Permission").filter(([, p]) => refersTo(p.Properties.FunctionName, fnId));
    expect(invoke.length).toBeGreaterThanOrEqual(1);
    for (const [, p] of invoke) expect(p.Properties.Principal).toBe("apigateway.amazonaws.com");
  });

  it("lets the live function read credentials, touch only API key items, keep sessions in the ledger, use live/ objects, and manage its own API's connections", () => {
    const statements = statementsOf(stack.live.function.role);
    const table = (t: IConstruct) => statements.filter((s) => refersTo(s.Resource, idOf(t)));
    // Tables by ARN only: never "*", never another table.
    for (const s of statements.filter((x) => list(x.Action).some((a) => a.startsWith("dynamodb:")))) {
      expect(JSON.stringify(s.Resource)).not.toContain('"*"');
      expect(refersTo(s.Resource, idOf(stack.data.main)) || refersTo(s.Resource, idOf(stack.data.ledger))).toBe(true);
    }
    for (const other of [stack.data.history, stack.data.library]) expect(table(other)).toEqual([]);
    const main = table(stack.data.main);
    expect(main.flatMap((s) => list(s.Action)).sort()).toEqual(["dynamodb:BatchGetItem", "dynamodb:GetItem", "dynamodb:Query", "dynamodb:UpdateItem"]);
    const touch = main.find((s) => list(s.Action).includes("dynamodb:UpdateItem"))!;
    expect(touch.Condition).toEqual({ "ForAllValues:StringLike": { "dynamodb:LeadingKeys": ["APIKEY#*"] } });
    expect(table(stack.data.ledger).flatMap((s) => list(s.Action))).toContain("dynamodb:UpdateItem");

    const objects = statements.filter((s) => list(s.Action).some((a) => a.startsWith("s3:")));
    for (const s of objects) {
      if (list(s.Action).includes("s3:ListBucket")) expect(s.Condition).toEqual({ StringLike: { "s3:prefix": ["live/*"] } });
      else expect(JSON.stringify(s.Resource)).toContain('"/live/*"');
    }

    const manage = statements.filter((s) => list(s.Action).includes("execute-api:ManageConnections"));
    expect(manage).toHaveLength(1);
    const apiId = idOf(stack.live.api);
    expect(refersTo(manage[0].Resource, apiId)).toBe(true);
    expect(JSON.stringify(manage[0].Resource)).toContain("@connections");
  });

  it("expires live/ objects, tells the web function where the websocket is, and outputs its URL", () => {
    const [[, bucket]] = ofType("AWS::S3::Bucket");
    const rules = (bucket.Properties.LifecycleConfiguration as { Rules: Array<{ Prefix?: string; ExpirationInDays?: number; Status: string }> }).Rules;
    expect(rules).toContainEqual(expect.objectContaining({ Prefix: "live/", ExpirationInDays: 1, Status: "Enabled" }));
    const apiId = idOf(stack.live.api);
    const env = (resources[idOf(stack.web.function.fn)].Properties.Environment as { Variables: Json }).Variables;
    expect(JSON.stringify(env.LIVE_READING_URL)).toContain("wss://");
    expect(refersTo(env.LIVE_READING_URL, apiId)).toBe(true);
    const outputs = Template.fromStack(stack).toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(refersTo(outputs.LiveReadingUrl.Value, apiId)).toBe(true);
  });
});

describe("support assistant websocket", () => {
  const routeFunction = (route: Resource) => {
    const integrationId = (route.Properties.Target as { "Fn::Join": [string, unknown[]] })["Fn::Join"][1].map((p) => (p as { Ref?: string }).Ref).find(Boolean)!;
    return resources[integrationId].Properties;
  };

  it("is its own WebSocket API whose $connect, $disconnect and $default routes invoke the assistant function, on an auto-deployed stage", () => {
    const apiId = idOf(stack.assistant.api);
    expect(resources[apiId].Properties.ProtocolType).toBe("WEBSOCKET");
    const fnId = idOf(stack.assistant.function.fn);
    const routes = ofType("AWS::ApiGatewayV2::Route").filter(([, r]) => refersTo(r.Properties.ApiId, apiId));
    expect(routes.map(([, r]) => r.Properties.RouteKey).sort()).toEqual(["$connect", "$default", "$disconnect"]);
    for (const [, route] of routes) {
      const integration = routeFunction(route);
      expect(integration.IntegrationType).toBe("AWS_PROXY");
      expect(refersTo(integration.IntegrationUri, fnId)).toBe(true);
      expect(refersTo(integration.IntegrationUri, idOf(stack.live.function.fn))).toBe(false);
    }
    expect(resources[idOf(stack.assistant.stage)].Properties).toMatchObject({ StageName: "assistant", AutoDeploy: true });
    const invoke = ofType("AWS::Lambda::Permission").filter(([, p]) => refersTo(p.Properties.FunctionName, fnId));
    expect(invoke.length).toBeGreaterThanOrEqual(1);
    for (const [, p] of invoke) expect(p.Properties.Principal).toBe("apigateway.amazonaws.com");
    const env = (resources[fnId].Properties.Environment as { Variables: Json }).Variables;
    expect(env.SESSION_SECRET_ARN).toEqual({ Ref: idOf(stack.sessionSecret) });
  });

  it("lets the assistant read credentials and the account, touch only API key items, keep calls in the ledger, manage only its own API's connections, and nothing in the bucket", () => {
    const statements = statementsOf(stack.assistant.function.role);
    const table = (t: IConstruct) => statements.filter((s) => refersTo(s.Resource, idOf(t)));
    for (const s of statements.filter((x) => list(x.Action).some((a) => a.startsWith("dynamodb:")))) {
      expect(JSON.stringify(s.Resource)).not.toContain('"*"');
      expect(refersTo(s.Resource, idOf(stack.data.main)) || refersTo(s.Resource, idOf(stack.data.ledger))).toBe(true);
    }
    for (const other of [stack.data.history, stack.data.library]) expect(table(other)).toEqual([]);
    const main = table(stack.data.main);
    expect(main.flatMap((s) => list(s.Action)).sort()).toEqual(["dynamodb:BatchGetItem", "dynamodb:GetItem", "dynamodb:Query", "dynamodb:UpdateItem"]);
    expect(main.find((s) => list(s.Action).includes("dynamodb:UpdateItem"))!.Condition).toEqual({ "ForAllValues:StringLike": { "dynamodb:LeadingKeys": ["APIKEY#*"] } });
    expect(table(stack.data.ledger).flatMap((s) => list(s.Action))).toEqual(expect.arrayContaining(["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:Query"]));
    expect(statements.filter((s) => list(s.Action).some((a) => a.startsWith("s3:")))).toEqual([]);
    const manage = statements.filter((s) => list(s.Action).includes("execute-api:ManageConnections"));
    expect(manage).toHaveLength(1);
    expect(refersTo(manage[0].Resource, idOf(stack.assistant.api))).toBe(true);
    expect(refersTo(manage[0].Resource, idOf(stack.live.api))).toBe(false);
    expect(JSON.stringify(manage[0].Resource)).toContain("@connections");
  });

  it("tells the web function where the assistant's websocket is, and outputs its URL", () => {
    const apiId = idOf(stack.assistant.api);
    const env = (resources[idOf(stack.web.function.fn)].Properties.Environment as { Variables: Json }).Variables;
    expect(JSON.stringify(env.ASSISTANT_SOCKET_URL)).toContain("wss://");
    expect(refersTo(env.ASSISTANT_SOCKET_URL, apiId)).toBe(true);
    const outputs = Template.fromStack(stack).toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(refersTo(outputs.AssistantUrl.Value, apiId)).toBe(true);
  });
});

it("synthesizes without warnings when the web build is present", () => {
  expect(warnings).toEqual([]);
});
