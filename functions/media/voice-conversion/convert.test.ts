import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EspeakEngine } from "../engine/espeak/engine.js";
import { analyzeVoice } from "../voice-analysis/analyze.js";
import { similarity } from "../voice-analysis/search.js";
import { PASSAGES } from "../voice-analysis/fixtures/texts.js";
import { premadeVoices, speak, type NamedVoice } from "../voice-analysis/fixtures/voices.js";
import { convertAll, convertSpeech } from "./convert.js";
import { measureVoice, type ConversionSettings, type VoiceStats } from "./mapping.js";
import { referenceText } from "./reference.js";
import { trackF0 } from "./f0.js";

/**
 * The vocoder and the mapping on engine speech. Voices and texts here are held out: the mapping's
 * constants were tuned on the English premade voices reading other texts (scripts/sts-evaluate.ts).
 */
const engine = new EspeakEngine({ size: 1 });
afterAll(() => engine.close());

const DEFAULTS: ConversionSettings = { stability: 0.5, similarity_boost: 0.75, style: 0, use_speaker_boost: true };
const byName = (name: string) => premadeVoices().find((v) => v.name === name)!;
const targets = new Map<string, VoiceStats>();
async function target(v: NamedVoice): Promise<VoiceStats> {
  let t = targets.get(v.name);
  if (!t) targets.set(v.name, (t = measureVoice(await speak(engine, v.profile, referenceText(v.profile.language)))));
  return t;
}

const TEXT = PASSAGES.de.heldOut[0];
let source: Float32Array;
beforeAll(async () => {
  source = await speak(engine, byName("Jonas").profile, TEXT);
});

const median = (x: Float32Array) => {
  const v = Array.from(x).filter((f) => f > 0).sort((a, b) => a - b);
  return v[v.length >> 1];
};

describe("speech to speech conversion", () => {
  it("keeps the input's length exactly and gives the same samples for the same input, settings and seed", async () => {
    const t = await target(byName("Lena"));
    const a = convertAll(source, { target: t, settings: DEFAULTS, seed: 7 });
    const b = convertAll(source, { target: t, settings: DEFAULTS, seed: 7 });
    expect(a.length).toBe(source.length);
    expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(true);
    const c = convertAll(source, { target: t, settings: { ...DEFAULTS, stability: 0 }, seed: 8 });
    expect(Buffer.from(c.buffer).equals(Buffer.from(a.buffer))).toBe(false);
  });

  it("streams: blocks of any size join into exactly the whole conversion", async () => {
    const t = await target(byName("Klaus"));
    const whole = convertAll(source, { target: t, settings: DEFAULTS, seed: 3 });
    const blocks = [...convertSpeech(source, { target: t, settings: DEFAULTS, seed: 3, firstBlockSeconds: 0.13, blockSeconds: 0.77 })];
    expect(blocks.length).toBeGreaterThan(5);
    const joined = new Float32Array(whole.length);
    let o = 0;
    for (const b of blocks) {
      joined.set(b, o);
      o += b.length;
    }
    expect(o).toBe(whole.length);
    let maxDiff = 0;
    for (let i = 0; i < whole.length; i++) maxDiff = Math.max(maxDiff, Math.abs(whole[i] - joined[i]));
    expect(maxDiff).toBe(0);
  });

  it("converts one speaker into three voices: pitch near each target's, identity nearer the target than the source", async () => {
    const names = ["Lena", "Klaus", "Ananya"];
    const readings = await Promise.all(names.map(async (n) => analyzeVoice(await speak(engine, byName(n).profile, TEXT), 22_050)));
    const ax = analyzeVoice(source, 22_050);
    let nearerTarget = 0;
    for (let i = 0; i < names.length; i++) {
      const y = convertAll(source, { target: await target(byName(names[i])), settings: DEFAULTS, seed: 1 });
      const ay = analyzeVoice(y, 22_050);
      expect(Math.abs(ay.f0MedianHz! / readings[i].f0MedianHz! - 1), names[i]).toBeLessThan(0.1);
      if (similarity(ay.embedding, readings[i].embedding) > similarity(ay.embedding, ax.embedding)) nearerTarget++;
      // The words stay where they were: speech and pauses line up with the input's.
      expect(Math.abs(ay.speechSecs - ax.speechSecs), names[i]).toBeLessThan(0.25);
    }
    // The issue asks for 80% of pairs (README figures: 81% held out); Jonas and Klaus are both
    // German men, the hard case, so two of three is the bound here.
    expect(nearerTarget).toBeGreaterThanOrEqual(2);
  });

  it("keeps the intonation shape: the output's pitch contour follows the input's", async () => {
    const y = convertAll(source, { target: await target(byName("Lena")), settings: { ...DEFAULTS, stability: 1 }, seed: 1 });
    const a = trackF0(source, 22_050).f0;
    const b = trackF0(y, 22_050).f0;
    const xs: number[] = [];
    const ys: number[] = [];
    for (let i = 0; i < a.length; i++) {
      if (a[i] > 0 && b[i] > 0) {
        xs.push(Math.log2(a[i]));
        ys.push(Math.log2(b[i]));
      }
    }
    expect(xs.length).toBeGreaterThan(100);
    const mx = xs.reduce((s, v) => s + v, 0) / xs.length;
    const my = ys.reduce((s, v) => s + v, 0) / ys.length;
    let sxy = 0, sxx = 0, syy = 0;
    for (let i = 0; i < xs.length; i++) {
      sxy += (xs[i] - mx) * (ys[i] - my);
      sxx += (xs[i] - mx) ** 2;
      syy += (ys[i] - my) ** 2;
    }
    expect(sxy / Math.sqrt(sxx * syy)).toBeGreaterThan(0.8);
    // Lena is higher than Jonas: the register moved up.
    expect(median(b)).toBeGreaterThan(median(a) * 1.3);
  });

  it("settings have their documented effect: style widens the range, lower stability wanders, similarity moves the timbre", async () => {
    const v = byName("Lena");
    const t = await target(v);
    const spread = (y: Float32Array) => {
      const a = analyzeVoice(y, 22_050);
      return Math.log2(a.f0P90Hz! / a.f0P10Hz!);
    };
    const flat = convertAll(source, { target: t, settings: { ...DEFAULTS, stability: 1, style: 0 }, seed: 1 });
    const styled = convertAll(source, { target: t, settings: { ...DEFAULTS, stability: 1, style: 1 }, seed: 1 });
    expect(spread(styled)).toBeGreaterThan(spread(flat) * 1.3);
    const wandering = convertAll(source, { target: t, settings: { ...DEFAULTS, stability: 0, style: 0 }, seed: 1 });
    // Pitch movement the input does not explain: residuals of log F0 out against log F0 in.
    const unexplained = (y: Float32Array) => {
      const f = trackF0(y, 22_050).f0;
      const src = trackF0(source, 22_050).f0;
      const xs: number[] = [];
      const ys: number[] = [];
      for (let i = 0; i < f.length; i++) {
        if (f[i] > 0 && src[i] > 0) {
          xs.push(Math.log2(src[i]));
          ys.push(Math.log2(f[i]));
        }
      }
      const mx = xs.reduce((s, v) => s + v, 0) / xs.length;
      const my = ys.reduce((s, v) => s + v, 0) / ys.length;
      let sxy = 0, sxx = 0;
      for (let i = 0; i < xs.length; i++) {
        sxy += (xs[i] - mx) * (ys[i] - my);
        sxx += (xs[i] - mx) ** 2;
      }
      const slope = sxy / sxx;
      // Median absolute residual: robust to the odd octave slip of the pitch tracker.
      const r = ys.map((v, i) => Math.abs(v - my - slope * (xs[i] - mx))).sort((a, b) => a - b);
      return r[r.length >> 1];
    };
    expect(unexplained(wandering)).toBeGreaterThan(unexplained(flat) * 1.5);
    // Similarity moves the timbre 80% of the way at 0 and all the way at 1: the output's mean
    // envelope, measured as the mapping measures voices, lands nearer the target's at 1 (on
    // average over three targets; the step is small for a voice already close, README figures).
    const envDistance = (y: Float32Array, t: VoiceStats) => {
      const m = measureVoice(y, 22_050).meanLogEnv;
      const mean = (e: ArrayLike<number>) => Array.from(e).reduce((s, v) => s + v, 0) / e.length;
      const dm = mean(m);
      const dt = mean(t.meanLogEnv);
      let s = 0;
      for (let k = 0; k < m.length; k++) s += (m[k] - dm - (t.meanLogEnv[k] - dt)) ** 2;
      return Math.sqrt(s / m.length);
    };
    let low = 0;
    let high = 0;
    for (const name of ["Lena", "Klaus", "Ananya"]) {
      const tt = await target(byName(name));
      const at0 = envDistance(convertAll(source, { target: tt, settings: { ...DEFAULTS, similarity_boost: 0 }, seed: 1 }), tt);
      expect(at0, name).toBeLessThan(envDistance(source, tt));
      low += at0;
      high += envDistance(convertAll(source, { target: tt, settings: { ...DEFAULTS, similarity_boost: 1 }, seed: 1 }), tt);
    }
    expect(high).toBeLessThan(low * 0.97);
  }, 60_000);

  it("silence in, silence out (no pitch, no crash)", () => {
    const quiet = new Float32Array(22_050);
    const y = convertAll(quiet, { target: measureVoice(source), settings: DEFAULTS, seed: 1 });
    expect(y.length).toBe(quiet.length);
    expect(Math.max(...y.map(Math.abs))).toBeLessThan(1e-3);
  });
});
