/**
 * Speech to speech on speech Timbre's engine did not make (issue 26: "speech to speech keeps the
 * words"): outside English voices (flite, Festival; test/support/outside-speech.ts) read the
 * recogniser's sentences (functions/media/engine/flite/fixtures/intelligibility.ts); each reading
 * is converted into English premade voices as production does it (the target measured from the
 * voice's own engine reading the reference passage); pocketsphinx recognises the input and the
 * outputs. Per source voice and target:
 * - word error rate before and after (over every sentence, one recogniser run each);
 * - in register: the output's median F0 within 10% of the target's reading.
 *
 *   node --import tsx scripts/sts-outside.ts              # tune voices
 *   node --import tsx scripts/sts-outside.ts --heldout    # held-out voices (never tuned on)
 *   node --import tsx scripts/sts-outside.ts --sentences=8 --targets=Rachel,Adam --voices=flite-rms
 *   STS_SYNTH=residual node --import tsx scripts/sts-outside.ts   # the residual-excited synthesis
 */
import { OUTSIDE_VOICES, outsideSpeech, outsideVoiceAvailable, type OutsideVoice } from "../test/support/outside-speech.js";
import { SENTENCES, recognize, recognizerAvailable, wordErrorRate, words } from "../functions/media/engine/flite/fixtures/intelligibility.js";
import { decodeWav } from "../functions/media/audio/wav.js";
import { floatToInt16, resample } from "../functions/media/audio/resample.js";
import { convertAll, type Synthesis } from "../functions/media/voice-conversion/convert.js";
import type { ResidualOptions } from "../functions/media/voice-conversion/residual.js";
import { measureVoice, type VoiceStats } from "../functions/media/voice-conversion/mapping.js";
import { WORK_RATE } from "../functions/media/voice-conversion/spectral.js";
import { referenceText } from "../functions/media/voice-conversion/reference.js";
import { DEFAULT_VOICE_SETTINGS, type VoiceProfile } from "../functions/media/engine/port.js";
import { premadeVoiceRecords } from "../functions/platform/domain/premadeVoices.js";
import { DispatchingEngine } from "../functions/media/engine/dispatch.js";
import { EspeakEngine } from "../functions/media/engine/espeak/engine.js";
import { FliteEngine } from "../functions/media/engine/flite/engine.js";
import type { SpeechEngine } from "../functions/media/engine/port.js";

export interface StsOutsideRow {
  source: string;
  target: string;
  werBefore: number;
  werAfter: number;
  /** Output median F0 / target median F0 - 1, per sentence. */
  pitchErrors: number[];
}

/** STS_SYNTH=vocoder|residual picks the synthesis for a measurement; unset, the conversion's default. */
export function synthesisFromEnv(): Synthesis | undefined {
  const s = process.env.STS_SYNTH;
  if (s === undefined || s === "") return undefined;
  if (s !== "vocoder" && s !== "residual") throw new Error(`STS_SYNTH must be vocoder or residual, not ${s}`);
  return s;
}

/** STS_EPOCHS=peak|mbs, STS_CROSSOVER=<Hz>, STS_LOWER_PULSE=<period ratio> and STS_LOW_PULSE=<share>, STS_UNVOICED_NOISE=1, STS_SYNTH_ORDER=<order>, STS_OUTPUT_FILTER=allpole|minphase, STS_LOWER_PULSE_BY=mark|median, STS_EXC_POWER=residual|envelope set the residual synthesis's options (residual.ts) for a measurement. */
export function residualFromEnv(): ResidualOptions {
  const o: ResidualOptions = {};
  const e = process.env.STS_EPOCHS;
  if (e === "peak" || e === "mbs") o.epochs = e;
  else if (e) throw new Error(`STS_EPOCHS must be peak or mbs, not ${e}`);
  if (process.env.STS_CROSSOVER) o.crossoverHz = Number(process.env.STS_CROSSOVER);
  if (process.env.STS_LOWER_PULSE) o.lowerPulseRatio = Number(process.env.STS_LOWER_PULSE);
  if (process.env.STS_LOW_PULSE) o.lowPulse = Number(process.env.STS_LOW_PULSE);
  if (process.env.STS_UNVOICED_NOISE === "1") o.unvoicedNoise = true;
  if (process.env.STS_SYNTH_ORDER) o.synthesisOrder = Number(process.env.STS_SYNTH_ORDER);
  const by = process.env.STS_LOWER_PULSE_BY;
  if (by === "mark" || by === "median") o.lowerPulseBy = by;
  else if (by) throw new Error(`STS_LOWER_PULSE_BY must be mark or median, not ${by}`);
  const pw = process.env.STS_EXC_POWER;
  if (pw === "residual" || pw === "envelope") o.excitationPower = pw;
  else if (pw) throw new Error(`STS_EXC_POWER must be residual or envelope, not ${pw}`);
  const f = process.env.STS_OUTPUT_FILTER;
  if (f === "allpole" || f === "minphase") o.outputFilter = f;
  else if (f) throw new Error(`STS_OUTPUT_FILTER must be allpole or minphase, not ${f}`);
  return o;
}

/** The residual variables residualFromEnv reads. */
const RESIDUAL_VARS = ["STS_EPOCHS", "STS_CROSSOVER", "STS_LOWER_PULSE", "STS_LOW_PULSE", "STS_UNVOICED_NOISE", "STS_SYNTH_ORDER", "STS_LOWER_PULSE_BY", "STS_EXC_POWER", "STS_OUTPUT_FILTER"];

/**
 * The residual options for convertAll: undefined when no STS_* residual variable is set, so the conversion uses
 * DEFAULT_RESIDUAL. (An explicit `residual` replaces DEFAULT_RESIDUAL whole: passing residualFromEnv()'s `{}` measured
 * residual.ts's bare defaults, not the adopted synthesis; docs/decisions/2026-12-07-sts-residual.md,
 * "2026-12-08, the test and the script".)
 */
export function residualOverrideFromEnv(): ResidualOptions | undefined {
  return RESIDUAL_VARS.some((k) => process.env[k]) ? residualFromEnv() : undefined;
}

const toFloat = (pcm: Int16Array) => Float32Array.from(pcm, (v) => v / 32768);

/** The target as production measures it (functions/capabilities/speech/voiceTargets.ts). */
export async function measureTarget(engine: SpeechEngine, profile: VoiceProfile): Promise<VoiceStats> {
  const parts: Int16Array[] = [];
  for await (const c of engine.synthesize({
    text: referenceText(profile.language),
    voice: profile,
    settings: DEFAULT_VOICE_SETTINGS,
    seed: 1,
    model: { id: "eleven_multilingual_v2", quality: "standard", supportsPhonemes: false },
  }))
    parts.push(c.pcm);
  const all = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    all.set(p, o);
    o += p.length;
  }
  return measureVoice(resample(toFloat(all), engine.sampleRate, WORK_RATE), WORK_RATE);
}

/** One source voice's sentences, at WORK_RATE and at 16 kHz. */
export async function sourceReadings(v: OutsideVoice, sentences: readonly string[]): Promise<Float32Array[]> {
  return Promise.all(
    sentences.map(async (s) => {
      const d = decodeWav(new Uint8Array(await outsideSpeech(v, s)));
      return resample(d.pcm, d.sampleRate, WORK_RATE);
    }),
  );
}

const to16k = (x: Float32Array) => floatToInt16(resample(x, WORK_RATE, 16_000));

export async function evaluatePair(source: string, readings: Float32Array[], target: string, stats: VoiceStats, sentences: readonly string[]): Promise<Omit<StsOutsideRow, "werBefore"> & { after: Int16Array[] }> {
  const outs = readings.map((x, i) => convertAll(x, { target: stats, settings: DEFAULT_VOICE_SETTINGS, seed: 1 + i, synthesis: synthesisFromEnv(), residual: residualOverrideFromEnv() }));
  const pitchErrors = outs.map((y) => {
    const m = measureVoice(y, WORK_RATE).f0MedianHz;
    return m && stats.f0MedianHz ? m / stats.f0MedianHz - 1 : NaN;
  });
  const after = outs.map(to16k);
  const ref = sentences.flatMap(words);
  const werAfter = wordErrorRate(ref, await recognize(after));
  return { source, target, werAfter, pitchErrors, after };
}

async function main() {
  if (!recognizerAvailable()) throw new Error("pocketsphinx with pocketsphinx-en-us is needed");
  const arg = (k: string) => process.argv.find((a) => a.startsWith(`--${k}=`))?.split("=")[1];
  const split = process.argv.includes("--heldout") ? "heldout" : "tune";
  const sentences = SENTENCES.slice(0, Number(arg("sentences") ?? 10));
  const only = (arg("voices") ?? "").split(",").filter(Boolean);
  const voices = OUTSIDE_VOICES.filter((v) => v.language === "en" && v.split === split && outsideVoiceAvailable(v) && (!only.length || only.includes(v.id)));
  const wanted = (arg("targets") ?? "").split(",").filter(Boolean);
  const records = premadeVoiceRecords().filter((r) => (r.profile as VoiceProfile).language === "en" && (!wanted.length || wanted.includes(r.name)));
  const engine = new DispatchingEngine(new EspeakEngine(), { flite: () => new FliteEngine() });
  const rows: StsOutsideRow[] = [];
  try {
    const targets = [] as { name: string; stats: VoiceStats }[];
    for (const r of records) targets.push({ name: r.name, stats: await measureTarget(engine, r.profile as VoiceProfile) });
    const ref = sentences.flatMap(words);
    for (const v of voices) {
      const readings = await sourceReadings(v, sentences);
      const werBefore = wordErrorRate(ref, await recognize(readings.map(to16k)));
      for (const t of targets) {
        const r = await evaluatePair(v.id, readings, t.name, t.stats, sentences);
        rows.push({ source: r.source, target: r.target, werBefore, werAfter: r.werAfter, pitchErrors: r.pitchErrors });
        const inReg = r.pitchErrors.filter((e) => Math.abs(e) <= 0.1).length;
        console.log(`${v.id.padEnd(14)} -> ${t.name.padEnd(10)} WER ${(werBefore * 100).toFixed(0)}% -> ${(r.werAfter * 100).toFixed(0)}%  in register ${inReg}/${r.pitchErrors.length}`);
      }
    }
  } finally {
    await engine.close();
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const pitch = rows.flatMap((r) => r.pitchErrors);
  console.log(
    `\n${split}: ${rows.length} pairs, ${sentences.length} sentences each. WER mean ${(mean(rows.map((r) => r.werBefore)) * 100).toFixed(1)}% -> ${(mean(rows.map((r) => r.werAfter)) * 100).toFixed(1)}%, ` +
      `worst increase ${(Math.max(...rows.map((r) => r.werAfter - r.werBefore)) * 100).toFixed(1)} points; in register ${pitch.filter((e) => Math.abs(e) <= 0.1).length}/${pitch.length}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
