/**
 * Remote engines for the dispatching engine (platform/context.ts): the operator's (REMOTE_ENGINES)
 * and, per request, the workspace engines the product resolves (SynthesisRequest.remote), so the
 * engine exists even when REMOTE_ENGINES names none.
 */
import { ESPEAK_SAMPLE_RATE } from "../espeak/wasm.js";
import type { SpeechEngine } from "../port.js";
import { parseRemoteEngines } from "./config.js";
import { RemoteEngine, type RemoteEngineOptions } from "./engine.js";

export { RemoteEngine, RemoteEngineError, splitEngineVoice, canConvert, cannotConvertMessage, type RemoteConversion, type RemoteEngineHealth, type RemoteEngineOptions } from "./engine.js";
export { parseRemoteEngines, fetchRemoteVoices, keyHeaders, REMOTE_ENGINE_KINDS, type ReferenceAudio, type RemoteEngineConfig, type RemoteEngineKind, type RemoteTarget, type RemoteVoice } from "./config.js";

export function remoteEngineCreator(json: string, opts: RemoteEngineOptions = {}): () => SpeechEngine {
  const engines = parseRemoteEngines(json);
  return () => new RemoteEngine(engines, ESPEAK_SAMPLE_RATE, opts);
}
