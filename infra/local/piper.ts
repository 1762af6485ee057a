/**
 * Piper voices on the embedded server: the folder (PIPER_VOICES_DIR, default DATA_DIR/voices/piper)
 * is read at start-up, each broken file logged with its reason (the rest of the product starts as
 * usual), the voices found written as system voices, and the engine's workers started from here
 * (only the embedded server has a voices folder; the Lambda asset carries no Piper worker).
 */
import type { Worker } from "node:worker_threads";
import type { Config } from "../../functions/platform/config.js";
import type { AppContext } from "../../functions/platform/context.js";
import type { Logger } from "../../functions/platform/adapters/log.js";
import { spawnWorker } from "../../functions/media/workers/pool.js";
import { scanPiperVoices } from "../../functions/media/engine/piper/catalog.js";
import { PiperEngine } from "../../functions/media/engine/piper/engine.js";
import type { PiperWorkerInit } from "../../functions/media/engine/piper/protocol.js";
import type { SpeechEngine } from "../../functions/media/engine/port.js";
import { seedPiperVoices } from "../../functions/handlers/seed/piper.js";

export function startPiperWorker(init: PiperWorkerInit): Worker {
  return spawnWorker({ ts: new URL("./../../functions/media/engine/piper/piper-worker.ts", import.meta.url), js: new URL("./piper-worker.js", import.meta.url) }, import.meta.url, {
    workerData: init,
  });
}

/** The engine creator for the dispatching engine (platform/context.ts embeddedEngines). */
export function piperEngine(cfg: Config): () => SpeechEngine {
  return () => new PiperEngine({ dir: cfg.piperVoicesDir, start: startPiperWorker });
}

/** Reads the folder, logs what is broken, writes the voices; never throws (a broken voice must not stop the server). */
export async function loadPiperVoices(ctx: AppContext, log: Logger): Promise<number> {
  const dir = ctx.config.piperVoicesDir;
  try {
    const { voices, problems } = scanPiperVoices(dir);
    for (const p of problems) log.error(`Piper voice not loaded: ${p.file}: ${p.message}`, { file: p.file, reason: p.message });
    const { added, removed } = await seedPiperVoices(ctx, voices);
    if (voices.length || removed) log.info("Piper voices", { dir, voices: voices.length, written: added, removed });
    return voices.length;
  } catch (e) {
    log.error(`Piper voices not loaded from ${dir}`, { error: e });
    return 0;
  }
}
