/**
 * Why the similarity setting moves (or does not move) the measured timbre (issue 26;
 * docs/decisions/2026-12-07-sts-residual.md, "2026-12-08, later"): convert.test.ts's own case (Jonas reading
 * the German held-out text into Lena, Klaus and Ananya, eSpeak), each synthesis at similarity_boost 0 and 1.
 * Prints the test's figure (the output's centred mean-envelope distance to the target, summed over the
 * three) per variant, and per band (natural-log power, centred, minus the target's) the output's mean
 * envelope, the mapped mean envelope the plan asks for (the source's, warped and equalised), and the
 * output's voiced frames and voiced synthesis marks.
 *
 *   VARIANTS='name:STS_...=..,STS_...=..;name2:...' node --import tsx scripts/sts-similarity.ts
 * "vocoder" as a variant's options runs the vocoder.
 */
import { EspeakEngine } from "../functions/media/engine/espeak/engine.js";
import { PASSAGES } from "../functions/media/voice-conversion/../voice-analysis/fixtures/texts.js";
import { premadeVoices, speak } from "../functions/media/voice-analysis/fixtures/voices.js";
import { convertAll } from "../functions/media/voice-conversion/convert.js";
import { measureVoice, type ConversionSettings, type VoiceStats } from "../functions/media/voice-conversion/mapping.js";
import { referenceText } from "../functions/media/voice-conversion/reference.js";
import { BINS, WORK_RATE, FFT_SIZE } from "../functions/media/voice-conversion/spectral.js";
import { residualFromEnv } from "./sts-outside.js";

const DEFAULTS: ConversionSettings = { stability: 0.5, similarity_boost: 0.75, style: 0, use_speaker_boost: true };
const base = "STS_CROSSOVER=1000,STS_LOWER_PULSE=1.6,STS_OUTPUT_FILTER=minphase,STS_LOW_PULSE=1,STS_UNVOICED_NOISE=1,STS_EXC_POWER=envelope";
const variants = (process.env.VARIANTS ?? `vocoder:vocoder;variant:${base}`).split(";").map((v) => {
  const [name, opts] = v.split(":");
  return { name, opts };
});
const EDGES = [0, 500, 1000, 2000, 3000, 4000, 6000, 8000, 11025];
const df = WORK_RATE / FFT_SIZE;
const centred = (e: ArrayLike<number>) => {
  const m = Array.from(e).reduce((s, v) => s + v, 0) / e.length;
  return Array.from(e, (v) => v - m);
};
const bands = (d: number[]) =>
  EDGES.slice(0, -1).map((lo, b) => {
    let s = 0;
    let n = 0;
    for (let k = 0; k < BINS; k++) if (k * df >= lo && k * df < EDGES[b + 1]) (s += d[k]), n++;
    return n ? s / n : 0;
  });
const distance = (m: ArrayLike<number>, t: VoiceStats) => {
  const a = centred(m);
  const b = centred(t.meanLogEnv);
  let s = 0;
  for (let k = 0; k < a.length; k++) s += (a[k] - b[k]) ** 2;
  return Math.sqrt(s / a.length);
};
const interp = (c: ArrayLike<number>, pos: number) => {
  const i = Math.max(0, Math.min(c.length - 1, Math.floor(pos)));
  const j = Math.min(c.length - 1, i + 1);
  const f = Math.max(0, Math.min(1, pos - i));
  return c[i] * (1 - f) + c[j] * f;
};
const fmt = (x: number[]) => x.map((v) => (v >= 0 ? " " : "") + v.toFixed(2)).join(" ");

const engine = new EspeakEngine({ size: 1 });
try {
  const byName = (n: string) => premadeVoices().find((v) => v.name === n)!;
  const source = await speak(engine, byName("Jonas").profile, PASSAGES.de.heldOut[0]);
  const names = (process.env.NAMES ?? "Lena,Klaus,Ananya").split(",");
  const targets: VoiceStats[] = [];
  for (const n of names) targets.push(measureVoice(await speak(engine, byName(n).profile, referenceText(byName(n).profile.language))));
  console.log(`bands (kHz): ${EDGES.slice(0, -1).map((e, i) => `${e / 1000}-${EDGES[i + 1] / 1000}`).join(" ")}`);
  for (const v of variants) {
    for (const k of Object.keys(process.env)) if (k.startsWith("STS_")) delete process.env[k];
    if (v.opts !== "vocoder") for (const kv of v.opts.split(",")) process.env[kv.split("=")[0]] = kv.split("=")[1];
    const residual = v.opts === "vocoder" ? undefined : residualFromEnv();
    const sums = [0, 0];
    for (let i = 0; i < names.length; i++) {
      const t = targets[i];
      const row: string[] = [];
      for (const sim of [0, 1]) {
        let marks = 0;
        let plan: { alpha: number; eq: Float32Array } | undefined;
        const settings = { ...DEFAULTS, similarity_boost: sim };
        const y = residual
          ? convertAll(source, { target: t, settings, seed: 1, synthesis: "residual", residual: { ...residual, onMark: () => marks++ } })
          : convertAll(source, { target: t, settings, seed: 1, synthesis: "vocoder" });
        const m = measureVoice(y, WORK_RATE);
        const d = distance(m.meanLogEnv, t);
        sums[sim] += d;
        // The plan's mapped mean envelope (what the filter is asked for), from the source's.
        const { planConversion } = await import("../functions/media/voice-conversion/mapping.js");
        const src = measureVoice(source, WORK_RATE);
        plan = planConversion(src, t, settings, 1);
        const mapped = Array.from({ length: BINS }, (_, k) => interp(src.meanLogEnv, k / plan!.alpha) + plan!.eq[k]);
        const tc = centred(t.meanLogEnv);
        const out = bands(centred(m.meanLogEnv).map((x, k) => x - tc[k]));
        const want = bands(centred(mapped).map((x, k) => x - tc[k]));
        row.push(
          `  sim ${sim}: distance ${d.toFixed(3)} (mapped ${distance(mapped, t).toFixed(3)}); voiced frames ${m.voicedFrames}, unvoiced ${m.unvoicedFrames}${residual ? `, voiced marks ${marks}` : ""}\n` +
            `    output - target ${fmt(out)}\n    mapped - target ${fmt(want)}\n` +
            `    output's aperiodicity per analysis band (0-1, 1-2, 2-4, 4-6, 6-11 kHz) ${m.meanApLogit.map((l) => (1 / (1 + Math.exp(-l))).toFixed(2)).join(" ")}`,
        );
      }
      console.log(`${v.name} ${names[i]}\n${row.join("\n")}`);
    }
    console.log(`${v.name}: test figure ${sums[0].toFixed(3)} -> ${sums[1].toFixed(3)} (${(sums[1] / sums[0]).toFixed(3)}; the test wants < 0.97)\n`);
  }
} finally {
  await engine.close();
}
