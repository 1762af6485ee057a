import type { Config } from "./config.js";
import { createAwsClients, type AwsClients } from "./adapters/aws.js";
import { createStores, type Stores } from "./adapters/dynamo/index.js";
import { createLogger, type Logger } from "./adapters/log.js";
import { BlobStore } from "./adapters/s3.js";
import type { WorkflowStarter } from "./adapters/workflows.js";

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
  log: Logger;
  /** Milliseconds since the epoch; replaced in tests that move time. */
  now: () => number;
  secrets: { session: string };
}

export interface ContextOptions {
  workflows: WorkflowStarter;
  sessionSecret: string;
  now?: () => number;
  log?: Logger;
}

export function createContext(cfg: Config, opts: ContextOptions): AppContext {
  const aws = createAwsClients(cfg);
  return {
    config: cfg,
    aws,
    stores: createStores(aws.doc, cfg.aws.tables),
    blobs: new BlobStore(aws.s3, cfg.aws.bucket),
    workflows: opts.workflows,
    log: opts.log ?? createLogger(cfg.logLevel),
    now: opts.now ?? Date.now,
    secrets: { session: opts.sessionSecret },
  };
}

export const unixSeconds = (ctx: Pick<AppContext, "now">) => Math.floor(ctx.now() / 1000);
