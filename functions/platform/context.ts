import type { Config } from "./config.js";
import { createAwsClients, type AwsClients, type SdkRequestHandler } from "./adapters/aws.js";
import { createStores, type Stores } from "./stores/index.js";
import { cryptoUniform } from "./adapters/ids.js";
import { createLogger, type Logger } from "./adapters/log.js";
import { BlobStore } from "./adapters/s3.js";
import type { WorkflowStarter } from "./adapters/workflows.js";
import { createMailer, type Mailer } from "./adapters/mail.js";
import type { EngineId, SpeechEngine } from "../media/engine/port.js";
import type { VoiceAnalyzer } from "../media/voice-analysis/port.js";
import { createVoiceAnalyzer } from "../media/voice-analysis/analyzer.js";
import type { VoiceConverter } from "../media/voice-conversion/port.js";
import { createVoiceConverter } from "../media/voice-conversion/converter.js";
import { hashSeed, prng } from "../media/engine/prng.js";

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
  /** Where verification sentences draw their words: node:crypto, or a seeded source in tests. */
  challengeRandom: () => number;
  /** The speech engine, created on first use (its workers cost memory and start-up time). */
  engine(): Promise<SpeechEngine>;
  /**
   * The engine for background synthesis (the first start's previews): its own workers, one per
   * engine, at the lowest scheduling priority, so a job it is running never takes the cores
   * from a user's request (issue 24). Created on first use; `closeBackgroundEngine` ends it.
   */
  backgroundEngine(): Promise<SpeechEngine>;
  closeBackgroundEngine(): Promise<void>;
  /**
   * Decoding, analysis and noise removal of uploaded audio, on its own worker pool, created on
   * first use (cloning, verification, separation, speech to speech, similar voices).
   */
  analyzer(): VoiceAnalyzer;
  /** Speech to speech and the voice isolator, on their own worker pool, created on first use. */
  converter(): VoiceConverter;
  /** Stops the engines', the analyzer's and the converter's workers if they were created. */
  closeEngine(): Promise<void>;
  /** Stops the analyzer's workers if it was created. */
  closeAnalyzer(): Promise<void>;
}

/** `background`: the engine of `AppContext.backgroundEngine` (a factory that ignores it makes an ordinary one). */
export type EngineFactory = (cfg: Config, opts?: EngineOptions) => Promise<SpeechEngine>;

export interface EngineOptions {
  background?: boolean;
}

/**
 * The background engine's threads (nice 19: a weight of 15 against a normal thread's 1,024 on
 * Linux). They still get every core nobody else wants, so the background work completes.
 */
export const BACKGROUND_NICE = 19;

/**
 * The embedded engines: eSpeak NG in WebAssembly plus DSP, and flite (WASI) for the profiles that
 * name it (VoiceProfile.engine), each on its own worker pool, behind one dispatching engine.
 */
export const defaultEngineFactory: EngineFactory = (cfg, opts) => embeddedEngines(cfg, {}, opts);

/** The same, plus engines the caller brings (the embedded server's Piper voices: infra/local/piper.ts). */
export async function embeddedEngines(cfg: Config, extra: Partial<Record<EngineId, () => SpeechEngine>>, opts: EngineOptions = {}): Promise<SpeechEngine> {
  const { EspeakEngine } = await import("../media/engine/espeak/engine.js");
  const { FliteEngine } = await import("../media/engine/flite/engine.js");
  const { DispatchingEngine } = await import("../media/engine/dispatch.js");
  const { remoteEngineCreator } = await import("../media/engine/remote/index.js");
  const { checkedFetch } = await import("./net/fetch.js");
  // Each request resolves the engine's host and connects only to an address the target rules allow.
  const remote = remoteEngineCreator(cfg.remoteEngines, { fetch: checkedFetch(cfg.webhooks) });
  // Background synthesis: one low-priority worker per engine (the extra engines a caller brings,
  // Piper's, keep their own pools).
  const low = opts.background ? { size: 1, nice: BACKGROUND_NICE } : {};
  return new DispatchingEngine(new EspeakEngine({ parallelEncoding: cfg.engineEncoding !== "serial", ...low }), { flite: () => new FliteEngine(low), remote, ...extra });
}

export interface ContextOptions {
  workflows: WorkflowStarter;
  /** The embedded DynamoDB's request handler (infra/local/emulators.ts); default: HTTP. */
  dynamoHandler?: SdkRequestHandler;
  s3Handler?: SdkRequestHandler;
  sessionSecret: string;
  now?: () => number;
  log?: Logger;
  engine?: EngineFactory;
  /** The analyzer to create on first use; default: classical DSP on a worker pool (functions/media/voice-analysis). */
  analyzer?: () => VoiceAnalyzer;
  mailer?: Mailer;
  /**
   * Draw verification sentences from a PRNG with this seed instead of node:crypto (tests only:
   * predictable sentences are no check at all in production).
   */
  challengeSeed?: number;
}

export function createContext(cfg: Config, opts: ContextOptions): AppContext {
  const aws = createAwsClients(cfg, { dynamoHandler: opts.dynamoHandler, s3Handler: opts.s3Handler });
  let engine: Promise<SpeechEngine> | undefined;
  let backgroundEngine: Promise<SpeechEngine> | undefined;
  let analyzer: VoiceAnalyzer | undefined;
  let converter: VoiceConverter | undefined;
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
    challengeRandom: opts.challengeSeed === undefined ? cryptoUniform : prng(hashSeed("verification-challenges", opts.challengeSeed)),
    engine: () => (engine ??= factory(cfg)),
    backgroundEngine: () => (backgroundEngine ??= factory(cfg, { background: true })),
    closeBackgroundEngine: async () => {
      const b = backgroundEngine;
      backgroundEngine = undefined;
      await b?.then((x) => x.close());
    },
    // Creating the analyzer only builds its pool object: workers start on its first job.
    analyzer: () => (analyzer ??= (opts.analyzer ?? createVoiceAnalyzer)()),
    converter: () => (converter ??= createVoiceConverter()),
    closeEngine: async () => {
      const [e, b, a, c] = [engine, backgroundEngine, analyzer, converter];
      engine = undefined;
      backgroundEngine = undefined;
      analyzer = undefined;
      converter = undefined;
      await Promise.all([e?.then((x) => x.close()), b?.then((x) => x.close()), a?.close(), c?.close()]);
    },
    closeAnalyzer: async () => {
      const a = analyzer;
      analyzer = undefined;
      await a?.close();
    },
  };
}

export const unixSeconds = (ctx: Pick<AppContext, "now">) => Math.floor(ctx.now() / 1000);
