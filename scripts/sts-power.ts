/**
 * Where a residual variant loses words on one pair (issue 26; docs/decisions/2026-12-07-sts-residual.md,
 * 2026-12-08): one outside source voice into one premade target, sentence by sentence, with the vocoder
 * and with residual variants. Prints pocketsphinx's word errors per sentence (each sentence recognised
 * alone) and over the pair (all sentences in one run, as sts-outside.ts), and for each residual variant
 * the input residual's power at its voiced synthesis marks (dB, relative to the sentence's median
 * mark): the spread, the share of marks 6 dB or more above the median, and the first mark of each voiced
 * stretch (onsets). The vocoder's pulses have unit power at every mark (the envelope sets the level).
 *
 *   node --import tsx scripts/sts-power.ts --voice=fest-kal --target=Desmond --sentences=6
 *   VARIANTS='a:STS_OUTPUT_FILTER=minphase,STS_LOW_PULSE=1;b:...' node --import tsx scripts/sts-power.ts
 * Each variant's options are the STS_* variables of sts-outside.ts (the residual synthesis).
 */
import { OUTSIDE_VOICES } from "../test/support/outside-speech.js";
import { SENTENCES, recognize, wordErrorRate, words } from "../functions/media/engine/flite/fixtures/intelligibility.js";
import { floatToInt16, resample } from "../functions/media/audio/resample.js";
import { convertAll } from "../functions/media/voice-conversion/convert.js";
import { WORK_RATE } from "../functions/media/voice-conversion/spectral.js";
import { DEFAULT_VOICE_SETTINGS, type VoiceProfile } from "../functions/media/engine/port.js";
import { premadeVoiceRecords } from "../functions/platform/domain/premadeVoices.js";
import { DispatchingEngine } from "../functions/media/engine/dispatch.js";
import { EspeakEngine } from "../functions/media/engine/espeak/engine.js";
import { FliteEngine } from "../functions/media/engine/flite/engine.js";
import { measureTarget, residualFromEnv, sourceReadings } from "./sts-outside.js";

const arg = (k: string) => process.argv.find((a) => a.startsWith(`--${k}=`))?.split("=")[1];
const voice = OUTSIDE_VOICES.find((v) => v.id === (arg("voice") ?? "fest-kal"))!;
const targetName = arg("target") ?? "Desmond";
const sentences = SENTENCES.slice(0, Math.min(SENTENCES.length, Number(arg("sentences") ?? 6)));
const base = "STS_CROSSOVER=1000,STS_LOWER_PULSE=1.6,STS_OUTPUT_FILTER=minphase,STS_LOW_PULSE=1,STS_UNVOICED_NOISE=1";
const variants = (process.env.VARIANTS ?? `minphase+1+noise:${base};+envelope power:${base},STS_EXC_POWER=envelope`)
  .split(";")
  .filter(Boolean)
  .map((v) => {
    const [name, vars] = v.split(":");
    return { name, vars: Object.fromEntries((vars ?? "").split(",").filter(Boolean).map((kv) => kv.split("="))) as Record<string, string> };
  });

const to16k = (x: Float32Array) => floatToInt16(resample(x, WORK_RATE, 16_000));
const pct = (x: number) => `${(100 * x).toFixed(0)}%`;
const db = (x: number) => (10 * Math.log10(Math.max(1e-12, x))).toFixed(1);

const engine = new DispatchingEngine(new EspeakEngine(), { flite: () => new FliteEngine() });
try {
  const record = premadeVoiceRecords().find((r) => r.name === targetName)!;
  const stats = await measureTarget(engine, record.profile as VoiceProfile);
  const readings = await sourceReadings(voice, sentences);
  const refs = sentences.map(words);
  const report = async (name: string, outs: Float32Array[]) => {
    const per: string[] = [];
    for (let i = 0; i < outs.length; i++) per.push(pct(wordErrorRate(refs[i], await recognize([to16k(outs[i])]))));
    const pair = wordErrorRate(refs.flat(), await recognize(outs.map(to16k)));
    console.log(`${name.padEnd(22)} pair ${pct(pair).padStart(4)}  per sentence ${per.join(" ")}`);
  };
  await report("input", readings);
  await report("vocoder", readings.map((x, i) => convertAll(x, { target: stats, settings: DEFAULT_VOICE_SETTINGS, seed: 1 + i, synthesis: "vocoder" })));
  for (const v of variants) {
    const saved = { ...process.env };
    for (const k of Object.keys(process.env)) if (k.startsWith("STS_")) delete process.env[k];
    Object.assign(process.env, v.vars);
    const residual = residualFromEnv();
    process.env = saved;
    const lines: string[] = [];
    const outs = readings.map((x, i) => {
      const marks: Array<[number, number]> = [];
      const y = convertAll(x, { target: stats, settings: DEFAULT_VOICE_SETTINGS, seed: 1 + i, synthesis: "residual", residual: { ...residual, onMark: (at, p) => marks.push([at, p]) } });
      const ps = marks.map((m) => m[1]).sort((a, b) => a - b);
      const med = ps[Math.floor(ps.length / 2)] || 1e-12;
      const q = (f: number) => ps[Math.min(ps.length - 1, Math.floor(f * ps.length))] / med;
      // Onsets: the first mark after a gap of more than 30 ms between marks.
      const onsets = marks.filter((m, j) => j === 0 || m[0] - marks[j - 1][0] > 0.03 * WORK_RATE).map((m) => m[1] / med);
      const onsetMed = [...onsets].sort((a, b) => a - b)[Math.floor(onsets.length / 2)];
      lines.push(
        `  s${i + 1}: ${marks.length} marks, median ${db(med)} dB; p10 ${db(q(0.1))}, p90 ${db(q(0.9))}, max ${db(q(0.999999))} dB; ` +
          `>= +6 dB ${pct(ps.filter((p) => p >= 4 * med).length / ps.length)}, <= -10 dB ${pct(ps.filter((p) => p <= 0.1 * med).length / ps.length)}; ` +
          `${onsets.length} onsets, median ${db(onsetMed)} dB`,
      );
      return y;
    });
    await report(v.name, outs);
    for (const l of lines) console.log(l);
  }
} finally {
  await engine.close();
}
