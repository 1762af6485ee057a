/**
 * A Piper voice's `.onnx.json` (written by Piper's training export): sample rate, eSpeak NG voice,
 * phoneme id map, inference scales, speakers. Parsed strictly: what the engine needs must be
 * there, with a clear reason when it is not.
 */
export interface PiperConfig {
  sampleRate: number;
  espeakVoice: string;
  /** BCP-47-ish language of the voice ("en-us"), from language.code or the eSpeak voice. */
  language: string;
  phonemeIdMap: Map<string, number[]>;
  noiseScale: number;
  lengthScale: number;
  noiseW: number;
  numSpeakers: number;
  /** Speaker name -> sid, in sid order; a single-speaker model has none. */
  speakers: Array<{ name: string; id: number }>;
  quality: string | null;
}

/** Bounds on what a json may claim, checked before anything is built from it. */
export const PIPER_LIMITS = { maxJsonBytes: 4 * 1024 * 1024, maxSpeakers: 1000, maxSymbols: 10_000 };

const num = (v: unknown, fallback: number, name: string, lo: number, hi: number): number => {
  if (v === undefined || v === null) return fallback;
  if (typeof v !== "number" || !Number.isFinite(v) || v < lo || v > hi) throw new Error(`${name} must be a number from ${lo} to ${hi}`);
  return v;
};

export function parsePiperConfig(text: string): PiperConfig {
  if (text.length > PIPER_LIMITS.maxJsonBytes) throw new Error(`the json is over ${PIPER_LIMITS.maxJsonBytes} bytes`);
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(text) as Record<string, unknown>;
  } catch (e) {
    throw new Error(`the json does not parse (${(e as Error).message})`);
  }
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw new Error("the json is not an object");
  const audio = (raw.audio ?? {}) as Record<string, unknown>;
  const sampleRate = audio.sample_rate;
  if (typeof sampleRate !== "number" || !Number.isInteger(sampleRate) || sampleRate < 8000 || sampleRate > 48000) throw new Error("audio.sample_rate must be a whole number of Hz from 8000 to 48000");
  const phonemeType = raw.phoneme_type ?? "espeak";
  if (phonemeType !== "espeak") throw new Error(`phoneme_type "${String(phonemeType)}" is not supported (only eSpeak phonemes)`);
  const espeak = (raw.espeak ?? {}) as Record<string, unknown>;
  const espeakVoice = espeak.voice;
  if (typeof espeakVoice !== "string" || !/^[A-Za-z0-9-]{1,40}$/.test(espeakVoice)) throw new Error("espeak.voice must name an eSpeak NG voice");
  const mapRaw = raw.phoneme_id_map;
  if (!mapRaw || typeof mapRaw !== "object" || Array.isArray(mapRaw)) throw new Error("phoneme_id_map is missing");
  const entries = Object.entries(mapRaw as Record<string, unknown>);
  if (entries.length > PIPER_LIMITS.maxSymbols) throw new Error(`phoneme_id_map has over ${PIPER_LIMITS.maxSymbols} symbols`);
  const phonemeIdMap = new Map<string, number[]>();
  for (const [symbol, ids] of entries) {
    if (!Array.isArray(ids) || ids.length === 0 || !ids.every((i) => Number.isInteger(i) && i >= 0)) throw new Error(`phoneme_id_map["${symbol}"] must be a list of ids`);
    phonemeIdMap.set(symbol, ids as number[]);
  }
  for (const s of ["^", "$", "_"]) if (!phonemeIdMap.has(s)) throw new Error(`phoneme_id_map has no "${s}" (Piper's ${s === "^" ? "start" : s === "$" ? "end" : "pad"} symbol)`);
  const inference = (raw.inference ?? {}) as Record<string, unknown>;
  const numSpeakers = num(raw.num_speakers, 1, "num_speakers", 1, PIPER_LIMITS.maxSpeakers);
  if (!Number.isInteger(numSpeakers)) throw new Error("num_speakers must be a whole number");
  const speakerMap = (raw.speaker_id_map ?? {}) as Record<string, unknown>;
  let speakers: Array<{ name: string; id: number }> = [];
  if (numSpeakers > 1) {
    speakers = Object.entries(speakerMap)
      .filter(([, id]) => Number.isInteger(id) && (id as number) >= 0 && (id as number) < numSpeakers)
      .map(([name, id]) => ({ name, id: id as number }));
    // Speakers the map leaves out still exist in the model: named by their number.
    const named = new Set(speakers.map((s) => s.id));
    for (let id = 0; id < numSpeakers; id++) if (!named.has(id)) speakers.push({ name: `speaker ${id}`, id });
    speakers.sort((a, b) => a.id - b.id);
  }
  const lang = (raw.language ?? {}) as Record<string, unknown>;
  const code = typeof lang.code === "string" && /^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})*$/.test(lang.code) ? lang.code : espeakVoice;
  return {
    sampleRate,
    espeakVoice,
    language: code.replace(/_/g, "-").toLowerCase(),
    phonemeIdMap,
    noiseScale: num(inference.noise_scale, 0.667, "inference.noise_scale", 0, 10),
    lengthScale: num(inference.length_scale, 1, "inference.length_scale", 0.05, 20),
    noiseW: num(inference.noise_w, 0.8, "inference.noise_w", 0, 10),
    numSpeakers,
    speakers,
    quality: typeof audio.quality === "string" ? audio.quality : null,
  };
}
