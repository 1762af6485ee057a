import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Renders the CDK definitions the embedded stack needs (table shapes, bucket, workflow ASL)
 * from the same constructs the AWS stack deploys. Loading aws-cdk-lib costs seconds, so the
 * result is cached on disk, keyed by the sources that shape it.
 */
export interface TableDefinition {
  logicalName: "main" | "history" | "ledger" | "library";
  keySchema: Array<{ AttributeName: string; KeyType: "HASH" | "RANGE" }>;
  attributeDefinitions: Array<{ AttributeName: string; AttributeType: "S" | "N" | "B" }>;
  globalSecondaryIndexes: Array<{
    IndexName: string;
    KeySchema: Array<{ AttributeName: string; KeyType: "HASH" | "RANGE" }>;
    Projection: { ProjectionType: "ALL" | "KEYS_ONLY" | "INCLUDE"; NonKeyAttributes?: string[] };
  }>;
  ttlAttribute?: string;
}

export interface Definitions {
  tables: TableDefinition[];
  bucketCors: unknown[];
  /** workflow name -> ASL JSON with Lambda ARNs resolved to placeholders. */
  workflows: Record<string, { asl: Record<string, unknown> }>;
}

const ROOT = join(import.meta.dirname, "..", "..");
const SOURCES = [
  join(ROOT, "infra", "constructs"),
  join(ROOT, "workflows"),
  join(ROOT, "infra", "local", "definitions.ts"),
  // The library table's indexes are declared beside the store that queries them.
  join(ROOT, "functions", "platform", "stores", "libraryIndexes.ts"),
];

function sourceHash(): string {
  const h = createHash("sha256");
  const walk = (p: string) => {
    if (p.endsWith(".ts")) {
      h.update(p);
      h.update(readFileSync(p));
      return;
    }
    for (const e of readdirSync(p, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.isDirectory()) walk(join(p, e.name));
      else if (e.name.endsWith(".ts") && !e.name.endsWith(".test.ts")) walk(join(p, e.name));
    }
  };
  SOURCES.forEach(walk);
  return h.digest("hex").slice(0, 16);
}

const PSEUDO: Record<string, string> = {
  "AWS::Region": "us-east-1",
  "AWS::AccountId": "123456789012",
  "AWS::Partition": "aws",
  "AWS::URLSuffix": "amazonaws.com",
};

type Cfn = string | { "Fn::Join"?: [string, Cfn[]]; "Fn::GetAtt"?: [string, string]; Ref?: string };

/** Resolves the intrinsic functions CDK leaves in a DefinitionString into plain text. */
export function resolveIntrinsic(v: Cfn): string {
  if (typeof v === "string") return v;
  if (v["Fn::Join"]) return v["Fn::Join"][1].map(resolveIntrinsic).join(v["Fn::Join"][0]);
  if (v["Fn::GetAtt"]) return `arn:aws:lambda:us-east-1:123456789012:function:${v["Fn::GetAtt"][0]}`;
  if (v.Ref) return PSEUDO[v.Ref] ?? `arn:aws:lambda:us-east-1:123456789012:function:${v.Ref}`;
  throw new Error(`Unsupported intrinsic in state machine definition: ${JSON.stringify(v)}`);
}

export async function renderDefinitions(): Promise<Definitions> {
  const [{ App, Stack }, lambda, { TimbreData }, { TimbreWorkflows }] = await Promise.all([
    import("aws-cdk-lib"),
    import("aws-cdk-lib/aws-lambda"),
    import("../constructs/data.js"),
    import("../constructs/workflows.js"),
  ]);
  const app = new App({ context: { "aws:cdk:bundling-stacks": [] } });
  const stack = new Stack(app, "TimbreDefinitions");
  const data = new TimbreData(stack, "Data", { retain: false });
  const wfs = new TimbreWorkflows(stack, "Workflows", {
    stepFunction: (_wf, scope) =>
      new lambda.Function(scope, "Steps", { runtime: lambda.Runtime.NODEJS_22_X, handler: "index.handler", code: lambda.Code.fromInline("exports.handler=async()=>({})") }),
  });
  const template = app.synth().getStackByName(stack.stackName).template as { Resources: Record<string, { Type: string; Properties: Record<string, unknown> }> };
  const logicalId = (c: { node: { defaultChild?: unknown } }) => stack.getLogicalId(c.node.defaultChild as never);

  const tables: TableDefinition[] = (["main", "history", "ledger", "library"] as const).map((name) => {
    const props = template.Resources[logicalId(data[name])].Properties as {
      KeySchema: TableDefinition["keySchema"];
      AttributeDefinitions: TableDefinition["attributeDefinitions"];
      GlobalSecondaryIndexes?: TableDefinition["globalSecondaryIndexes"];
      TimeToLiveSpecification?: { AttributeName: string; Enabled: boolean };
    };
    return {
      logicalName: name,
      keySchema: props.KeySchema,
      attributeDefinitions: props.AttributeDefinitions,
      globalSecondaryIndexes: (props.GlobalSecondaryIndexes ?? []).map((g) => ({ IndexName: g.IndexName, KeySchema: g.KeySchema, Projection: g.Projection })),
      ttlAttribute: props.TimeToLiveSpecification?.Enabled ? props.TimeToLiveSpecification.AttributeName : undefined,
    };
  });
  const bucketProps = template.Resources[logicalId(data.bucket)].Properties as { CorsConfiguration?: { CorsRules: unknown[] } };
  const workflows: Definitions["workflows"] = {};
  for (const [name, machine] of wfs.machines) {
    const props = template.Resources[logicalId(machine)].Properties as { DefinitionString: Cfn };
    workflows[name] = { asl: JSON.parse(resolveIntrinsic(props.DefinitionString)) };
  }
  await validateWorkflows(workflows);
  return { tables, bucketCors: bucketProps.CorsConfiguration?.CorsRules ?? [], workflows };
}

/**
 * Checks each workflow's ASL as the local runner would (JSONPaths included; ARNs are placeholders
 * here). Done once when the definitions are rendered, so the runner skips it: compiling the
 * validator's JSON schema took ~270 ms of the request loop on a server's first execution.
 */
export async function validateWorkflows(workflows: Definitions["workflows"]): Promise<void> {
  const { default: aslValidator } = await import("asl-validator");
  for (const [name, { asl }] of Object.entries(workflows)) {
    const { isValid, errorsText } = aslValidator(asl as never, { checkArn: false, checkPaths: true });
    if (!isValid) throw new Error(`workflow ${name}: the state machine definition is invalid: ${errorsText("; ")}`);
  }
}

/** Definitions from the cache when the sources have not changed, else rendered and cached. */
export async function loadDefinitions(): Promise<Definitions> {
  const dir = join(ROOT, "node_modules", ".cache", "timbre");
  const file = join(dir, `definitions-${sourceHash()}.json`);
  if (existsSync(file)) {
    try {
      return JSON.parse(readFileSync(file, "utf8")) as Definitions;
    } catch {
      // a torn write from a concurrent render: render again
    }
  }
  const defs = await renderDefinitions();
  mkdirSync(dir, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(defs));
  (await import("node:fs")).renameSync(tmp, file);
  return defs;
}
