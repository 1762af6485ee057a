import "./polyfills.js";
import { existsSync, readFileSync, writeFileSync, chmodSync } from "node:fs";
import { join, resolve } from "node:path";
import { createHash, randomBytes } from "node:crypto";
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { HeadBucketCommand } from "@aws-sdk/client-s3";
import type { Config } from "../../functions/platform/config.js";
import { createContext, embeddedEngines, type AppContext, type EngineFactory } from "../../functions/platform/context.js";
import { createLogger, type Logger } from "../../functions/platform/adapters/log.js";
import { createApiStreamingHandler } from "../../functions/handlers/api.js";
import { createWebStreamingHandler } from "../../functions/handlers/web.js";
import { seedSystem, ensureDemoAccount, generatePremadePreviews, type DemoCredentials } from "../../functions/handlers/seed/index.js";
import { markLibraryIndexing } from "../../functions/capabilities/voices/similar.js";
import type { StreamingHandler } from "../../functions/platform/http/lambda.js";
import { installAwsLambdaShim } from "./awslambda-shim.js";
import { loadDefinitions } from "./definitions.js";
import { provision } from "./provision.js";
import { LocalWorkflowRunner } from "./workflow-runner.js";
import { createFront, type FrontLimits } from "./front.js";
import { useCpuWorkers } from "../../functions/handlers/offload/index.js";
import { isSnapshot, privateDir, startEmulators, type Emulators } from "./emulators.js";
import { authenticateRequest } from "../../functions/platform/http/auth.js";
import { eventToRequest } from "../../functions/platform/http/lambda.js";
import { hasValidWebSession } from "./web-session.js";
import { createStorageRoute, sweepTemporaryUploads, SWEEP_INTERVAL_MS } from "./storage-route.js";
import { DISPATCH_WORKFLOW } from "../../functions/platform/events/index.js";
import { attachLiveReading } from "./live-socket.js";
import { loadPiperVoices, piperEngine } from "./piper.js";
import { loadRemoteVoices } from "../../functions/handlers/seed/remote.js";
import { attachAssistant } from "./assistant-socket.js";
import { ASSISTANT } from "../../functions/platform/contract/assistant.js";

export const ROOT = resolve(import.meta.dirname, "..", "..");
export const WEB_BUILD = join(ROOT, "build", "web");

export interface EmbeddedOptions {
  config: Config;
  /** Keep data on disk under config.dataDir (npm start). Without it: in memory, gone on close (tests). */
  persist?: boolean;
  /** Serve the Remix build (default: when it exists). */
  web?: boolean;
  /** Create the demo account on first start. */
  seedDemo?: boolean;
  /** Synthesise missing premade voice previews in the background after start (npm start). */
  previews?: boolean;
  /**
   * Start the speech engine at boot, while the stores are provisioned, and answer /healthz 200
   * only once it is warm (npm start). Without it the engine starts on first use and health does
   * not wait for it (test stacks that never synthesise).
   */
  warmEngine?: boolean;
  /** The speech engine's factory (default: eSpeak NG on a worker pool). */
  engine?: EngineFactory;
  /** Overrides of the front's limits beyond what the configuration sets (tests). */
  frontLimits?: Partial<FrontLimits>;
  /** Shorten Wait states in workflows (tests). */
  workflowWaitMs?: number;
  /** How often scheduled workflows (the webhook dispatcher) start; 0 turns the schedule off (tests drive it). Default 5 s. */
  scheduleMs?: number;
  log?: Logger;
  now?: () => number;
  /** Verification sentences from a PRNG with this seed (tests; see ContextOptions.challengeSeed). */
  challengeSeed?: number;
  /**
   * Tests, in memory only: a folder of system-data snapshots. A stack whose tables and bucket have
   * one there starts its stores from it instead of seeding; one that has none seeds as usual and
   * saves its stores there, as `seedSystem` left them, for the next stack. The Piper and remote
   * voices (read from this stack's configuration) are loaded on top either way.
   */
  systemSnapshots?: string;
}

/** The snapshot folder for a configuration's tables and bucket: another naming never loads it. */
function snapshotFolder(root: string, config: Config): string {
  const names = JSON.stringify([config.aws.tables.main, config.aws.tables.history, config.aws.tables.ledger, config.aws.tables.library, config.aws.bucket]);
  return join(root, `system-${createHash("sha256").update(names).digest("hex").slice(0, 16)}`);
}

export interface EmbeddedStack {
  url: string;
  config: Config;
  ctx: AppContext;
  /** Where the emulators listen and the key they require (for `npm run seed` through the lock file). */
  endpoints: { dynamo: string; s3: string; key: string };
  workflows: LocalWorkflowRunner;
  /** Resolves when the engine is warm (at once without `warmEngine`); rejects if it cannot start. */
  engineReady: Promise<void>;
  /** Resolves when the background preview generation (if any) has finished. */
  previewsReady: Promise<unknown>;
  /** Set when the demo account was created by this start. */
  demo: DemoCredentials | undefined;
  close(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((res, rej) => {
    server.once("error", rej);
    server.listen(port, host, () => res((server.address() as AddressInfo).port));
  });
}

/** The session-signing secret: configured, or generated once and kept (0600) in the data folder. */
function sessionSecret(cfg: Config, dir: string | undefined): string {
  if (cfg.sessionSecret) return cfg.sessionSecret;
  if (!dir) return randomBytes(32).toString("base64url");
  const file = join(dir, "secrets.json");
  if (existsSync(file)) return (JSON.parse(readFileSync(file, "utf8")) as { session_secret: string }).session_secret;
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, JSON.stringify({ session_secret: secret }), { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

async function loadWeb(ctx: AppContext, apiBase: string): Promise<StreamingHandler | undefined> {
  const serverBuild = join(WEB_BUILD, "server", "index.js");
  if (!existsSync(serverBuild)) return undefined;
  const [{ createRequestHandler }, build] = await Promise.all([import("@remix-run/node"), import(serverBuild)]);
  const remix = createRequestHandler(build, "production");
  return createWebStreamingHandler(ctx, remix as never, apiBase);
}

/** LocalStack serves every service on one edge endpoint; nothing to start here. */
function localstackEndpoints(cfg: Config): Emulators {
  return { dynamo: cfg.aws.dynamoEndpoint!, s3: cfg.aws.s3Endpoint!, key: "", close: async () => undefined };
}

/** Boots DynamoDB, S3 and Step Functions emulators, the handlers and the HTTP front in this process. */
export async function startEmbedded(opts: EmbeddedOptions): Promise<EmbeddedStack> {
  installAwsLambdaShim();
  const releaseCpuWorkers = useCpuWorkers();
  const log = opts.log ?? createLogger(opts.config.logLevel);
  const dataDir = opts.persist ? resolve(opts.config.dataDir) : undefined;
  if (dataDir) privateDir(dataDir);
  // Start-up phases, in ms since the process started, at debug level (LOG_LEVEL=debug).
  const phase = (name: string) => {
    const cpu = process.cpuUsage();
    log.debug("start phase", { phase: name, at_ms: Math.round(performance.now()), cpu_ms: Math.round((cpu.user + cpu.system) / 1000) });
  };
  phase("code loaded");
  const snapshot = opts.systemSnapshots && !dataDir && opts.config.mode !== "localstack" ? snapshotFolder(opts.systemSnapshots, opts.config) : undefined;
  const fromSnapshot = snapshot !== undefined && isSnapshot(snapshot);
  const emulators: Emulators = opts.config.mode === "localstack" ? localstackEndpoints(opts.config) : await startEmulators(dataDir, { from: fromSnapshot ? snapshot : undefined });
  phase("emulators");
  if (emulators.repaired) log.warn("the data folder was not closed cleanly (a crash or kill -9): its indexes were rebuilt from the items", { ...emulators.repaired });
  const endpoints = { dynamo: emulators.dynamo, s3: emulators.s3, key: emulators.key };

  const config: Config = {
    ...opts.config,
    mode: opts.config.mode === "localstack" ? "localstack" : "embedded",
    aws: { ...opts.config.aws, dynamoEndpoint: endpoints.dynamo, s3Endpoint: endpoints.s3, sfnEndpoint: undefined, emulatorKey: emulators.key || undefined },
  };
  const defs = await loadDefinitions();
  phase("definitions");
  const workflows = new LocalWorkflowRunner(defs, { waitOverrideMs: opts.workflowWaitMs, singletons: [DISPATCH_WORKFLOW] });
  const ctx = createContext(config, { workflows, dynamoHandler: emulators.dynamoHandler, s3Handler: emulators.s3Handler, sessionSecret: sessionSecret(config, dataDir), log, now: opts.now, engine: opts.engine ?? ((cfg, o) => embeddedEngines(cfg, { piper: piperEngine(cfg) }, o)), challengeSeed: opts.challengeSeed });
  workflows.bind(ctx);
  // The engine's workers compile and warm up on their own threads while the stores get ready.
  let engineWarm = !opts.warmEngine;
  const engineReady = opts.warmEngine
    ? ctx
        .engine()
        .then((e) => e.warm())
        .then(() => {
          engineWarm = true;
          phase("engine warm");
        })
    : Promise.resolve();
  engineReady.catch((e: unknown) => log.error("speech engine failed to start", { error: e }));
  await provision(config, ctx.aws.ddb, ctx.aws.s3, defs);
  phase("provisioned");
  if (fromSnapshot) log.debug("system data loaded from a snapshot", { snapshot });
  else {
    await seedSystem(ctx);
    if (snapshot) await emulators.saveSnapshot?.(snapshot).catch((e: unknown) => log.warn("the system data snapshot was not saved", { error: e }));
  }
  // Piper voices from the voices folder (a broken file is logged and left out).
  await loadPiperVoices(ctx, log);
  // Voices of the remote engines (REMOTE_ENGINES); a server down is logged and its voices kept.
  await loadRemoteVoices(ctx, log);
  phase("system data");
  const demo = opts.seedDemo ? await ensureDemoAccount(ctx, { password: config.demoPassword, apiKey: config.demoApiKey }) : undefined;
  phase("demo account");

  let dispatch: RequestListener = (_req, res) => {
    res.writeHead(503, { "content-type": "application/json" });
    res.end(JSON.stringify({ status: "starting" }));
  };
  const server = createServer({ maxHeaderSize: 16 * 1024 }, (req, res) => dispatch(req, res));
  const port = await listen(server, config.port, config.host);
  const hostForUrl = config.host === "0.0.0.0" || config.host === "::" || config.host === "127.0.0.1" ? "localhost" : config.host;
  const url = `http://${hostForUrl}:${port}`;
  ctx.config = { ...config, port, publicUrl: config.publicUrl ?? url };

  // The web server calls /v1 on this same server, so it needs the port first.
  const web = opts.web === false ? undefined : await loadWeb(ctx, `http://127.0.0.1:${port}`);
  phase("web loaded");
  const front = createFront({
    api: createApiStreamingHandler(ctx),
    web,
    staticDir: web ? join(WEB_BUILD, "client") : undefined,
    onError: (e) => log.error("front error", { error: e }),
    storage: config.mode === "embedded" ? createStorageRoute(ctx, {}, emulators.store) : undefined,
    limits: { ...config.limits, ...opts.frontLimits },
    trustProxy: config.trustProxy,
    https: config.secureCookies,
    authorize: async (req, isApi) => {
      if (!isApi) return hasValidWebSession(req.headers.cookie, ctx.secrets.session);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v;
      const probe = eventToRequest({
        version: "2.0",
        rawPath: "/",
        rawQueryString: "",
        headers,
        requestContext: { requestId: "authorize", timeEpoch: Date.now(), http: { method: "GET", path: "/", sourceIp: "" } },
        isBase64Encoded: false,
      });
      return authenticateRequest(ctx, probe).then(() => true, () => false);
    },
    health: async () => {
      const components: Record<string, boolean> = { dynamodb: false, s3: false, workflows: true, web: web !== undefined || opts.web === false, engine: engineWarm };
      await Promise.all([
        ctx.aws.ddb.send(new ListTablesCommand({ Limit: 1 })).then(() => (components.dynamodb = true), () => undefined),
        ctx.aws.s3.send(new HeadBucketCommand({ Bucket: config.aws.bucket })).then(() => (components.s3 = true), () => undefined),
      ]);
      return { ok: Object.values(components).every(Boolean), components };
    },
  });
  front.attach(server);
  dispatch = front.listener;
  // The recorder's live reading websocket (an API Gateway WebSocket API on AWS).
  const live = attachLiveReading(server, ctx, [ASSISTANT.path]);
  // The support assistant's call (speech-generation.md §7), on the same model.
  const assistant = attachAssistant(server, ctx);

  let previewsDone: Promise<unknown> = Promise.resolve();
  const stopping = new AbortController();
  if (opts.previews) {
    previewsDone = (async () => {
      await engineReady;
      const engine = await ctx.engine();
      await engine.warm();
      const made = await generatePremadePreviews(ctx, stopping.signal);
      if (made) log.info("premade voice previews ready", { count: made });
    })().catch((e: unknown) => {
      if (!stopping.signal.aborted) log.error("premade voice previews failed", { error: e });
    });
    // Similar-voice search says the library is being indexed until its embeddings are made.
    markLibraryIndexing(ctx, previewsDone);
  }

  // The embedded store has no lifecycle rules: abandoned uploads are swept at start and every few minutes.
  const sweep = () => void sweepTemporaryUploads(ctx).catch((e: unknown) => log.warn("sweeping abandoned uploads failed", { error: e }));
  let sweeper: NodeJS.Timeout | undefined;
  if (config.mode === "embedded") {
    sweep();
    sweeper = setInterval(sweep, SWEEP_INTERVAL_MS).unref();
  }
  // Scheduled workflows: the webhook dispatcher runs at once (deliveries a restart left pending)
  // and then every few seconds, one execution at a time, as EventBridge starts it on AWS.
  const scheduleMs = opts.scheduleMs ?? 5000;
  const startDispatch = () => {
    if (!workflows.running(DISPATCH_WORKFLOW)) workflows.start(DISPATCH_WORKFLOW, {}).catch((e: unknown) => log.error("webhook dispatch did not start", { error: e }));
  };
  const schedule = scheduleMs > 0 ? setInterval(startDispatch, scheduleMs) : undefined;
  schedule?.unref();
  if (scheduleMs > 0) startDispatch();

  let closed = false;
  return {
    url,
    config: ctx.config,
    ctx,
    endpoints,
    workflows,
    demo,
    engineReady,
    previewsReady: previewsDone,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(sweeper);
      stopping.abort();
      if (schedule) clearInterval(schedule);
      workflows.close();
      live.close();
      assistant.close();
      await new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      });
      await previewsDone;
      await engineReady.catch(() => undefined);
      await workflows.idle().catch(() => undefined);
      await ctx.closeEngine();
      await ctx.closeAnalyzer();
      ctx.aws.ddb.destroy();
      ctx.aws.s3.destroy();
      await emulators.close();
      await releaseCpuWorkers();
    },
  };
}
