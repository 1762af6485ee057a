import { beforeAll, describe, expect, it } from "vitest";
import { OUTSIDE_VOICES, outsideSpeech, outsideVoiceAvailable } from "../support/outside-speech.js";
import { SENTENCES, recognize, recognizerAvailable, wordErrorRate, words } from "../../functions/media/engine/flite/fixtures/intelligibility.js";
import { decodeWav } from "../../functions/media/audio/wav.js";
import { floatToInt16, resample } from "../../functions/media/audio/resample.js";
import { bandwidthHz, fitWarp, measureVoice, type VoiceStats } from "../../functions/media/voice-conversion/mapping.js";
import { WORK_RATE } from "../../functions/media/voice-conversion/spectral.js";
import { premadeVoiceRecords } from "../../functions/platform/domain/premadeVoices.js";
import { DispatchingEngine } from "../../functions/media/engine/dispatch.js";
import { EspeakEngine } from "../../functions/media/engine/espeak/engine.js";
import { FliteEngine } from "../../functions/media/engine/flite/engine.js";
import type { VoiceProfile } from "../../functions/media/engine/port.js";
import { evaluatePair, measureTarget, residualOverrideFromEnv, sourceReadings, synthesisFromEnv } from "../../scripts/sts-outside.js";

/**
 * Issue 26, "speech to speech keeps the words": speech Timbre's engine did not make (flite's rms, a
 * tuning voice, and Festival's ked, held out) converted into premade voices (one female, one male,
 * each measured as production measures a target), recognised by pocketsphinx before and after.
 * Goal: word errors at most 15 points more after conversion, and the output's median pitch
 * within 10% of the target's in at least 80% of the sentences. Full figures, every English outside
 * voice: `node --import tsx scripts/sts-outside.ts [--heldout]` (functions/media/engine/README.md).
 */
const VOICES = ["flite-rms", "fest-ked"].map((id) => OUTSIDE_VOICES.find((v) => v.id === id)!);
const TARGETS = ["Avery", "Desmond"];
const N_SENTENCES = 6;
const sentences = SENTENCES.slice(0, N_SENTENCES);
/** Issue 26's goal: at most 15 points more word errors after conversion (mean over the pairs). */
const GOAL = 0.15;
/**
 * Not met: the default synthesis's figure on this set with a little room. The vocoder measured +2, +28, +44, +39
 * points (mean +28.6; 2026-11-29 and 2026-12-07 alike); the residual synthesis, the default since 2026-12-08
 * (docs/decisions/2026-12-07-sts-residual.md, "2026-12-08, later"), +1.8, +10.7, +25.0, +53.6 (mean +22.8; the
 * same through scripts/sts-outside.ts --sentences=6). The +18.3 measured here before 2026-12-08's fix was residual.ts's
 * bare defaults: evaluatePair passed `residual: {}`, which replaces DEFAULT_RESIDUAL whole ("2026-12-08, the test and
 * the script"). Lower it toward GOAL as the conversion keeps more words.
 */
const MEASURED_BOUND = 0.24;

const stats = async (id: string, text: string, degrade: Parameters<typeof outsideSpeech>[2] = []): Promise<VoiceStats> => {
  const d = decodeWav(new Uint8Array(await outsideSpeech(id, text, degrade)));
  return measureVoice(resample(d.pcm, d.sampleRate, WORK_RATE), WORK_RATE);
};

describe("speech to speech on outside speech (issue 26)", () => {
  const targets: { name: string; stats: VoiceStats }[] = [];
  beforeAll(async () => {
    expect(VOICES.every(outsideVoiceAvailable)).toBe(true);
    expect(recognizerAvailable()).toBe(true);
    // The bound is the default synthesis's: no STS_* variable may swap it (evaluatePair reads them).
    expect(synthesisFromEnv()).toBeUndefined();
    expect(residualOverrideFromEnv()).toBeUndefined();
    const engine = new DispatchingEngine(new EspeakEngine(), { flite: () => new FliteEngine() });
    try {
      for (const name of TARGETS) {
        const r = premadeVoiceRecords().find((x) => x.name === name)!;
        targets.push({ name, stats: await measureTarget(engine, r.profile as VoiceProfile) });
      }
    } finally {
      await engine.close();
    }
  }, 120_000);

  it("does not warp a telephone recording toward its band edge: the same speaker stays unwarped", async () => {
    const text = `${SENTENCES[0]} ${SENTENCES[1]} ${SENTENCES[2]}`;
    const full = await stats("flite-rms", text);
    const phone = await stats("flite-rms", text, [{ kind: "telephone" }]);
    // sox's 300-3400 Hz band: the cliff is found there, and a full-band recording has none below 7 kHz.
    expect(bandwidthHz(phone.meanLogEnv)).toBeGreaterThan(3000);
    expect(bandwidthHz(phone.meanLogEnv)).toBeLessThan(4000);
    expect(bandwidthHz(full.meanLogEnv)).toBeGreaterThan(7000);
    // Measured before the band was taken into account: 1.41 (the bound) from telephone to full band.
    for (const [a, b] of [
      [phone, full],
      [full, phone],
    ])
      expect(Math.abs(Math.log2(fitWarp(a.meanLogEnv, b.meanLogEnv)))).toBeLessThan(0.1);
    // flite's kal is an 8 kHz recording: against every target, no warp at the search's bound.
    const kal = await stats("flite-kal", text);
    for (const t of targets) expect(Math.abs(Math.log2(fitWarp(kal.meanLogEnv, t.stats.meanLogEnv))), t.name).toBeLessThan(0.45);
  }, 120_000);

  // The goal is not met yet (issue 26 stays open on it): the bound asserted is the default synthesis's measured
  // figure, so a change that loses more words fails here. Much of the loss was the vocoder's own analysis and resynthesis
  // (a reading converted into its own measured voice already takes fest-ked 10% -> 27-37%). Keeping the input's
  // excitation was measured and not landed twice: the grains alone (docs/decisions/2026-11-29-sts-excitation.md)
  // and the grains below 1 kHz with the vocoder above (docs/decisions/2026-12-07-sts-hybrid.md). Full figures:
  // functions/media/engine/README.md.
  it("keeps the words: word errors rise by at most the measured bound, and the pitch stays in the target's register", async () => {
    const rows: string[] = [];
    const increases: number[] = [];
    const pitch: number[] = [];
    const ref = sentences.flatMap(words);
    for (const v of VOICES) {
      const readings = await sourceReadings(v, sentences);
      const before = wordErrorRate(ref, await recognize(readings.map((x) => floatToInt16(resample(x, WORK_RATE, 16_000)))));
      for (const t of targets) {
        const r = await evaluatePair(v.id, readings, t.name, t.stats, sentences);
        increases.push(r.werAfter - before);
        pitch.push(...r.pitchErrors);
        rows.push(`${v.id}->${t.name} ${(before * 100).toFixed(0)}%->${(r.werAfter * 100).toFixed(0)}%`);
      }
    }
    const report = rows.join(", ");
    const mean = increases.reduce((a, b) => a + b, 0) / increases.length;
    console.log(`speech to speech on outside speech: ${report}; mean +${(mean * 100).toFixed(1)} points (goal +${GOAL * 100})`);
    expect(mean, report).toBeLessThanOrEqual(MEASURED_BOUND);
    expect(pitch.filter((e) => Math.abs(e) <= 0.1).length / pitch.length, report).toBeGreaterThanOrEqual(0.8);
    // 24 conversions and 6 recogniser runs: a few minutes alone; 12 minutes measured on a shared, loaded machine.
  }, 1_200_000);
});
