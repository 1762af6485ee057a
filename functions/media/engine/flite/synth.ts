/**
 * One chunk through flite: plan (voices.ts), run (wasi.ts), flite's 16 kHz samples resampled to
 * the engine's 22,050 Hz (the rate every engine of the product hands out, so downstream DSP,
 * encoders and dialogue sequences see one rate), and the alignment from flite's segments.
 */
import { Resampler, floatToInt16, int16ToFloat } from "../../audio/resample.js";
import type { DspParams } from "../espeak/dsp.js";
import { alignFlite, parseSegments, type ChunkAlignment } from "./alignment.js";
import type { FliteJob } from "./protocol.js";
import { toFlitePhones } from "./phonemes.js";
import { planFlite } from "./voices.js";
import { FLITE_SAMPLE_RATE, wavSamples, type FliteRuntime } from "./wasi.js";

export const FLITE_OUTPUT_RATE = 22050;

export interface ChunkOutput {
  /** Before the DSP stage. */
  pcm: Int16Array;
  alignment: ChunkAlignment;
  dsp: DspParams;
}

/**
 * Phoneme spans: each span's text is replaced by a made-up word ("timbrea", "timbreb", ...) that a
 * lexicon addenda (`-add_lex`) gives the span's phones; the alignment of the word is then spread
 * over the span's original characters. Spans with no phone flite knows are spoken as text.
 */
function withPhonemes(job: FliteJob): { text: string; lexicon: string | null; pieces: Array<{ original: string; spoken: string }> } {
  const spans = [...(job.phonemeSpans ?? [])].sort((a, b) => a.start - b.start);
  const pieces: Array<{ original: string; spoken: string }> = [];
  const lines: string[] = [];
  let pos = 0;
  for (const s of spans) {
    if (s.start < pos || s.end > job.text.length || s.end <= s.start) continue;
    const { phones } = toFlitePhones(s.phonemes, s.alphabet);
    if (!phones.some((p) => /\d$/.test(p))) continue; // no vowel: flite would refuse the entry
    const word = `timbre${placeholder(lines.length)}`;
    lines.push(`${word} : ${phones.join(" ")}`);
    if (s.start > pos) pieces.push({ original: job.text.slice(pos, s.start), spoken: job.text.slice(pos, s.start) });
    pieces.push({ original: job.text.slice(s.start, s.end), spoken: word });
    pos = s.end;
  }
  if (pos < job.text.length) pieces.push({ original: job.text.slice(pos), spoken: job.text.slice(pos) });
  return { text: pieces.map((p) => p.spoken).join(""), lexicon: lines.length ? `${lines.join("\n")}\n` : null, pieces };
}

function placeholder(k: number): string {
  let s = "";
  do {
    s = String.fromCharCode(97 + (k % 26)) + s;
    k = Math.floor(k / 26) - 1;
  } while (k >= 0);
  return s;
}

/** The alignment of the spoken text back on the original characters (a span's word spread over the span). */
function remap(a: ChunkAlignment, pieces: ReadonlyArray<{ original: string; spoken: string }>): ChunkAlignment {
  const out: ChunkAlignment = { characters: [], starts: [], ends: [] };
  let k = 0;
  for (const p of pieces) {
    const orig = Array.from(p.original);
    const n = Array.from(p.spoken).length;
    if (p.original === p.spoken) {
      out.characters.push(...orig);
      out.starts.push(...a.starts.slice(k, k + n));
      out.ends.push(...a.ends.slice(k, k + n));
    } else {
      const t0 = a.starts[k];
      const t1 = a.ends[k + n - 1];
      orig.forEach((c, i) => {
        out.characters.push(c);
        out.starts.push(t0 + ((t1 - t0) * i) / orig.length);
        out.ends.push(t0 + ((t1 - t0) * (i + 1)) / orig.length);
      });
    }
    k += n;
  }
  return out;
}

export function synthesizeChunk(runtime: FliteRuntime, job: FliteJob): ChunkOutput {
  const spoken = withPhonemes(job);
  const plan = planFlite(spoken.text, job.voice, job.settings, job.seed, job.index);
  const args = spoken.lexicon ? ["-add_lex", "/lex.txt", ...plan.args] : plan.args;
  const run = runtime.run(args, spoken.lexicon ? { "lex.txt": new TextEncoder().encode(spoken.lexicon) } : {});
  if (run.exitCode !== 0 || !run.wav) throw new Error(`flite failed (exit ${run.exitCode}): ${run.stderr.trim().slice(0, 200)}`);
  const { pcm: raw, sampleRate } = wavSamples(run.wav);
  if (sampleRate !== FLITE_SAMPLE_RATE) throw new Error(`flite voice ${plan.voice.name} wrote ${sampleRate} Hz, expected ${FLITE_SAMPLE_RATE}`);
  const r = new Resampler(FLITE_SAMPLE_RATE, FLITE_OUTPUT_RATE);
  const a = r.process(int16ToFloat(raw));
  const b = r.flush();
  const x = new Float32Array(a.length + b.length);
  x.set(a);
  x.set(b, a.length);
  const pcm = floatToInt16(x);
  const aligned = alignFlite(spoken.text, parseSegments(run.stdout), pcm.length / FLITE_OUTPUT_RATE);
  const alignment = spoken.lexicon ? remap(aligned, spoken.pieces) : aligned;
  return { pcm, alignment, dsp: plan.dsp };
}
