export * from "./port.js";
export { createVoiceAnalyzer, MAX_SEGMENTS } from "./analyzer.js";
export { analyzeVoice, detectSpeech, embedSegment, LTAS_BANDS_HZ } from "./analyze.js";
export { EMBEDDING_DIM, EMBEDDING_VERSION } from "./embedding.js";
export { similarity, topK, EmbeddingIndex, type Match } from "./search.js";
export { VAD_DEFAULTS, type VadOptions } from "./vad.js";
