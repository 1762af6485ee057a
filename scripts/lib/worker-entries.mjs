// @ts-check
/**
 * Every worker thread the code can start, in one place: the server bundle (`npm start`) builds
 * each of them beside start.js, and the Lambda asset bundles those marked `lambda` beside
 * index.mjs. A pool starts its worker from `<name>.js` next to the module that spawns it
 * (functions/media/workers/pool.ts: spawnWorker), so the name here is that file's name.
 *
 * test/infra/worker-entries.test.ts reads the sources for every worker a pool can start and
 * fails when one is missing here, from the server bundle or from the Lambda asset.
 *
 * Plain JavaScript on purpose: scripts/lib/server-bundle.mjs runs before anything can load
 * TypeScript.
 */
export const WORKERS = /** @type {const} */ ({
  // The speech engine (functions/media/engine/espeak/pool.ts).
  worker: { entry: "functions/media/engine/espeak/worker.ts", lambda: true },
  // The flite engine (functions/media/engine/flite/engine.ts): the premade English voices.
  "flite-worker": { entry: "functions/media/engine/flite/flite-worker.ts", lambda: true },
  // Local Piper voices (functions/media/engine/piper/engine.ts): started by infra/local/piper.ts,
  // only the embedded server has a voices folder. Each has an eSpeak NG phonemizer thread.
  "piper-worker": { entry: "functions/media/engine/piper/piper-worker.ts", lambda: false },
  "ipa-worker": { entry: "functions/media/engine/piper/ipa-worker.ts", lambda: true },
  // Uploads decoded and analysed (functions/media/voice-analysis/pool.ts).
  "analysis-worker": { entry: "functions/media/voice-analysis/analysis-worker.ts", lambda: true },
  // Speech to speech and the isolator (functions/media/voice-conversion/pool.ts).
  "conversion-worker": { entry: "functions/media/voice-conversion/conversion-worker.ts", lambda: true },
  // Password hashing, lexicon parsing (functions/platform/offload): a Lambda container serves one request
  // at a time and runs these inline (useCpuWorkers is only called by the embedded stack).
  "cpu-worker": { entry: "functions/handlers/offload/worker.ts", lambda: false },
  // The embedded DynamoDB and S3 (infra/local/emulators.ts): never part of AWS.
  "emulators-worker": { entry: "infra/local/emulators-worker.ts", lambda: false },
});

/** Output file name (without .js) -> entry, for esbuild. */
export const WORKER_ENTRY_POINTS = Object.fromEntries(Object.entries(WORKERS).map(([name, w]) => [name, w.entry]));
