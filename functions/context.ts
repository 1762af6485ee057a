import type { Config } from "./config.js";
import { createAwsClients, type AwsClients } from "./adapters/aws.js";
import { createStores, type Stores } from "./adapters/dynamo/index.js";
import { createLogger, type Logger } from "./adapters/log.js";
import { BlobStore } from "./adapters/s3.js";
import type { WorkflowStarter } from "./adapters/workflows.js";
import { createMailer, type Mailer } from "./adapters/mail.js";
import type { SpeechEngine } from "./engine/port.js";

/**
 * Everything a handler needs, built once per process (a Lambda container or the embedded
 * stack) and passed in explicitly, so several stacks can live in one test process.
 */
export interface AppContext {
  config: Config;
  aws: AwsClients;
  stores: Stores;
  blobs: BlobStore;
  workflows: WorkflowStarter;
  mailer: Mailer;
  log: Logger;
  /** Milliseconds since the epoch; replaced in tests that move time. */
  now: () => number;
  secrets: { session: string };
  /** The speech engine, created on first use (its workers cost memory and start-up time). */
  engine(): Promise<SpeechEngine>;
  /** Stops the engine's workers if it was created. */
  closeEngine(): Promise<void>;
}

export type EngineFactory = () => Promise<SpeechEngine>;

/** The embedded default: eSpeak NG in WebAssembly plus DSP, on a worker pool. */
export const defaultEngineFactory: EngineFactory = async () => {
  const { EspeakEngine } = await import("./engine/espeak/engine.js");
  return new EspeakEngine();
};

export interface ContextOptions {
  workflows: WorkflowStarter;
  sessionSecret: string;
  now?: () => number;
  log?: Logger;
  engine?: EngineFactory;
  mailer?: Mailer;
}

export function createContext(cfg: Config, opts: ContextOptions): AppContext {
  const aws = createAwsClients(cfg);
  let engine: Promise<SpeechEngine> | undefined;
  const factory = opts.engine ?? defaultEngineFactory;
  return {
    config: cfg,
    aws,
    stores: createStores(aws.doc, cfg.aws.tables),
    blobs: new BlobStore(aws.s3, cfg.aws.bucket),
    workflows: opts.workflows,
    mailer: opts.mailer ?? createMailer(cfg),
    log: opts.log ?? createLogger(cfg.logLevel),
    now: opts.now ?? Date.now,
    secrets: { session: opts.sessionSecret },
    engine: () => (engine ??= factory()),
    closeEngine: async () => {
      if (engine) await (await engine).close();
      engine = undefined;
    },
  };
}

export const unixSeconds = (ctx: Pick<AppContext, "now">) => Math.floor(ctx.now() / 1000);
