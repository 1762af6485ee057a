/** Remote engines for the dispatching engine (platform/context.ts): none unless REMOTE_ENGINES names some. */
import { ESPEAK_SAMPLE_RATE } from "../espeak/wasm.js";
import type { SpeechEngine } from "../port.js";
import { parseRemoteEngines } from "./config.js";
import { RemoteEngine, type RemoteEngineOptions } from "./engine.js";

export { RemoteEngine, RemoteEngineError, splitEngineVoice, type RemoteEngineHealth, type RemoteEngineOptions } from "./engine.js";
export { parseRemoteEngines, fetchRemoteVoices, keyHeaders, type RemoteEngineConfig, type RemoteEngineKind, type RemoteVoice } from "./config.js";

export function remoteEngineCreator(json: string, opts: RemoteEngineOptions = {}): (() => SpeechEngine) | null {
  const engines = parseRemoteEngines(json);
  return engines.length ? () => new RemoteEngine(engines, ESPEAK_SAMPLE_RATE, opts) : null;
}
