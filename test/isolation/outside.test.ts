import { describe, expect, it } from "vitest";
import { loadFastRnnoise } from "../../functions/media/audio/denoise/rnnoise-fast.js";
import { OUTSIDE_VOICES, outsideVoiceAvailable } from "../support/outside-speech.js";
import { measureOutside, type OutsideIsolation, type OutsideNoise } from "./outside-measures.js";

/**
 * Issue 26: the voice isolator on speech Timbre's engine did not make (flite and Festival voices, 16 kHz), at 5 dB
 * SNR, gain in SNR against the clean speech sample for sample (outside-measures.ts). Goals: >= +8 dB on white and
 * pink noise, >= +3 dB on babble (four other outside voices), as the mean over the held-out voices and, separately,
 * over the tuning voices (the over-subtraction for fluctuating noise in isolate.ts was tuned on those).
 * Measured 2026-11-28: held out +8.8 white, +8.6 pink, +3.3 babble; tuning +9.0, +8.8, +3.2
 * (`node --import tsx scripts/isolation-outside.ts`).
 */
const voices = OUTSIDE_VOICES.filter(outsideVoiceAvailable);
const GOAL: Record<OutsideNoise, number> = { white: 8, pink: 8, babble: 3 };
/** No clip may fall far below: the worst clips measured were +6.5 white, +5.9 pink, +1.9 babble. */
const FLOOR: Record<OutsideNoise, number> = { white: 5.5, pink: 5, babble: 1.2 };

async function measureSplit(split: "tune" | "heldout"): Promise<OutsideIsolation[]> {
  const rn = await loadFastRnnoise();
  const rows: OutsideIsolation[] = [];
  for (const v of voices.filter((x) => x.split === split))
    for (const kind of ["white", "pink", "babble"] as const) rows.push(await measureOutside(v, kind, rn));
  return rows;
}

function check(rows: OutsideIsolation[]) {
  for (const kind of ["white", "pink", "babble"] as const) {
    const g = rows.filter((r) => r.noise === kind);
    expect(g.length).toBeGreaterThanOrEqual(3);
    for (const r of g) expect(r.inputSnr).toBeCloseTo(5, 1);
    const mean = g.reduce((s, r) => s + r.gain, 0) / g.length;
    expect(mean, `${kind}: ${g.map((r) => `${r.voice} ${r.gain.toFixed(1)}`).join(", ")}`).toBeGreaterThanOrEqual(GOAL[kind]);
    for (const r of g) expect(r.gain, `${r.voice} ${kind}`).toBeGreaterThan(FLOOR[kind]);
  }
}

describe("voice isolator on outside speech at 5 dB SNR (issue 26)", () => {
  it("gains >= 8 dB on white and pink noise and >= 3 dB on babble, on held-out voices", async () => {
    check(await measureSplit("heldout"));
  }, 240_000);

  it("meets the same goals on the tuning voices", async () => {
    check(await measureSplit("tune"));
  }, 240_000);
});
