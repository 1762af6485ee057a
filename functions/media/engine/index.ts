export * from "./port.js";
export { encodeChunks, sequence } from "./encode-stream.js";
export { splitForSynthesis, type TextChunk } from "./sentences.js";
export { EspeakEngine, type EspeakEngineOptions } from "./espeak/engine.js";
export { profileFromLabels, resolveLanguage, supportedLanguages, LANGUAGES, type VoiceLabels } from "./espeak/voices.js";
export { ipaToEspeak, arpabetToEspeak, toEspeakPhonemes } from "./espeak/phonemes.js";
