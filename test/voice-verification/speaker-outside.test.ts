import { describe, expect, it, vi } from "vitest";
import { SPACE_THRESHOLDS, spaceSpeakerSimilarity } from "../../functions/capabilities/voice-verification/scoring.js";
import { similarity } from "../../functions/media/voice-analysis/search.js";
import { rate, speakers } from "./outside-measures.js";
import { isBrowserCondition, poolEmbeddings, poolTrials } from "./speaker-pool.js";

/**
 * Issue 26: the speaker check on held-out outside speakers it was not fitted on (flite's awb, Festival's ked and Czech
 * ph, each with its two sox vocal-tract variants, which are other speakers: nine men, three languages). Each enrols on
 * two clean passages and reads three utterances under changes that keep the speaker (pace, pitch jitter, telephone,
 * reverberation, noise, microphone tilt, and the web app's recording path: ./browser-channel.ts); impostors are the other
 * eight. The score and threshold are the workflow's
 * (a professional clone before fine-tuning: the recording against the samples). Speech and embeddings are cached under
 * the system temp dir, so a second run is quick.
 */
vi.setConfig({ testTimeout: 400_000 });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** How far above its threshold the median browser-path genuine reading scores, at least (measured: 0.18), and one reading (0.08). */
const BROWSER_MEDIAN_MARGIN = 0.1;
const BROWSER_MARGIN = 0.05;
const BROWSER_GENUINE_REFUSED = 0.1;

describe("the speaker check on held-out outside speakers", () => {
  it("accepts at most 10% of impostors (same language apart) and refuses at most 10% of genuine readings, through the browser's path too", async () => {
    const pool = await poolEmbeddings(speakers().filter((s) => ["flite-awb", "fest-ked", "fest-cs-ph"].includes(s.voice.id)));
    expect(pool).toHaveLength(9);
    expect(pool.every((s) => s.split === "heldout")).toBe(true);
    const trials = poolTrials(pool, spaceSpeakerSimilarity);
    const genuine = trials.filter((t) => t.genuine);
    const impostors = trials.filter((t) => !t.genuine);
    const refused = (t: { score: number }) => t.score < SPACE_THRESHOLDS.samplesOnly;
    const detail = JSON.stringify(genuine.filter(refused).map((t) => [t.test, t.condition, Math.round(t.score * 1000) / 1000]));
    expect(rate(impostors, (t) => !refused(t))).toBeLessThanOrEqual(0.1);
    expect(rate(impostors.filter((t) => t.sameLanguage), (t) => !refused(t))).toBeLessThanOrEqual(0.1);
    // The goal over every condition, the telephone band against full-band samples included (it missed, 11.7%, before
    // the refit of 2026-12-07).
    expect(rate(genuine, refused), detail).toBeLessThanOrEqual(0.1);
    // Through the web app's recording path (48 kHz, Opus in WebM, the server's decoder: ./browser-channel.ts), a genuine
    // reading clears the threshold with margin and another speaker's is refused.
    const browserGenuine = genuine.filter((t) => isBrowserCondition(t.condition));
    const browserImpostors = impostors.filter((t) => isBrowserCondition(t.condition));
    expect(browserGenuine).toHaveLength(27);
    expect(rate(browserGenuine, refused), detail).toBeLessThanOrEqual(BROWSER_GENUINE_REFUSED);
    expect(median(browserGenuine.map((t) => t.score))).toBeGreaterThanOrEqual(SPACE_THRESHOLDS.samplesOnly + BROWSER_MEDIAN_MARGIN);
    expect(rate(browserImpostors, (t) => !refused(t))).toBeLessThanOrEqual(0.1);
    const awb = browserGenuine.find((t) => t.test === "flite-awb" && t.condition === "browser")!;
    expect(awb.score).toBeGreaterThanOrEqual(SPACE_THRESHOLDS.samplesOnly + BROWSER_MARGIN);
    const kedAsAwb = browserImpostors.find((t) => t.target === "flite-awb" && t.test === "fest-ked" && t.condition === "browser")!;
    expect(kedAsAwb.score).toBeLessThan(SPACE_THRESHOLDS.samplesOnly);
    // The plain cosine, with the threshold it had before (0.54), accepts most of these impostors.
    expect(rate(poolTrials(pool, similarity).filter((t) => !t.genuine), (t) => t.score >= 0.54)).toBeGreaterThan(0.5);
  });
});
