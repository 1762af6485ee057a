/**
 * One chunk through a Piper model, the parts that need no thread of their own: the eSpeak input of
 * each clause (phoneme spans as eSpeak phoneme input), the model's output to the engine's PCM
 * (level normalised as Piper does, resampled to the product's 22,050 Hz) and the alignment.
 */
import { Resampler, floatToInt16 } from "../../audio/resample.js";
import { toEspeakPhonemes } from "../espeak/phonemes.js";
import { alignFlite, type ChunkAlignment, type Segment } from "../flite/alignment.js";
import type { PhonemeSpan } from "../port.js";
import type { Clause } from "./phonemes.js";

export const PIPER_OUTPUT_RATE = 22050;
/** Piper scales each sentence to full scale; we leave 1 dB of headroom for the encoders. */
const PEAK = 0.89;

/** What eSpeak reads for a clause: its text with the dictionary's phoneme spans as `[[...]]`. */
export function espeakInput(text: string, clause: Clause, spans: readonly PhonemeSpan[]): string {
  let out = "";
  let pos = clause.start;
  const end = clause.start + clause.text.length;
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    if (s.start < pos || s.end > end) continue;
    const { espeak } = toEspeakPhonemes(s.phonemes, s.alphabet);
    if (!espeak) continue;
    out += `${text.slice(pos, s.start)} [[${espeak}]] `;
    pos = s.end;
  }
  return out + text.slice(pos, end);
}

/** The model's float samples as 16-bit PCM at the engine's rate, peak-normalised. */
export function toEnginePcm(audio: Float32Array, modelRate: number): Int16Array {
  let peak = 0;
  for (const x of audio) peak = Math.max(peak, Math.abs(x));
  const gain = PEAK / Math.max(0.01, peak);
  const scaled = audio.map((x) => x * gain);
  if (modelRate === PIPER_OUTPUT_RATE) return floatToInt16(scaled);
  const r = new Resampler(modelRate, PIPER_OUTPUT_RATE);
  const a = r.process(scaled);
  const b = r.flush();
  const x = new Float32Array(a.length + b.length);
  x.set(a);
  x.set(b, a.length);
  return floatToInt16(x);
}

const SPOKEN = /[\p{L}\p{M}]/u;
const PAUSE = /[,;:.!?]/;

/**
 * Character times from the ids: each id lasts what the model says (a voice patched for alignments
 * gives its durations) or, without durations, an equal share of the audio; each phoneme (its id and the pad after it) becomes a timed phone, and clause
 * punctuation a pause; flite's aligner (words by letters over phones, phrases at pauses) maps
 * them onto the text, as it does for flite.
 */
export function alignPiper(text: string, phonemes: string, phonemeAt: readonly number[], duration: number, idDurations?: ArrayLike<number>): ChunkAlignment {
  const chars = Array.from(phonemes.normalize("NFD"));
  // Where each id ends: from the model's durations when it gives them (scaled so they add up to
  // the audio: they count frames), else an equal share each.
  const ends = new Array<number>(phonemeAt.length);
  const total = idDurations && idDurations.length === phonemeAt.length ? Array.from(idDurations).reduce((s, d) => s + Math.max(0, d), 0) : 0;
  let acc = 0;
  for (let j = 0; j < phonemeAt.length; j++) {
    acc += total > 0 ? (Math.max(0, idDurations![j]) * duration) / total : duration / phonemeAt.length;
    ends[j] = Math.min(duration, acc);
  }
  const segments: Segment[] = [];
  for (let j = 0; j < phonemeAt.length; j++) {
    const at = phonemeAt[j];
    if (at < 0) continue;
    const c = chars[at];
    // A phoneme's time is its id's and the pad's after it.
    const end = ends[Math.min(j + 1, ends.length - 1)];
    if (SPOKEN.test(c) && !/[ˈˌːˑ]/.test(c)) segments.push({ phone: c, end });
    else if (PAUSE.test(c) && j < phonemeAt.length - 3) segments.push({ phone: "pau", end });
  }
  if (segments.length) segments.unshift({ phone: "pau", end: ends[1] ?? 0 });
  segments.push({ phone: "pau", end: duration });
  return alignFlite(text, segments, duration);
}
