import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readPrompt } from "../../functions/capabilities/voice-design/design.js";
import { DEFAULT_DESIGN_OPTIONS, designProfiles, remixProfiles } from "../../functions/capabilities/voice-design/profiles.js";
import { toAnalysisRate } from "../../functions/media/audio/decode/rate.js";
import { EspeakEngine } from "../../functions/media/engine/espeak/engine.js";
import { FliteEngine } from "../../functions/media/engine/flite/engine.js";
import type { SpeechEngine, VoiceProfile } from "../../functions/media/engine/port.js";
import { analyzeVoice, LTAS_BANDS_HZ } from "../../functions/media/voice-analysis/index.js";
import { PITCH_RATE, YinTracker, toPitchRate } from "../../functions/media/voice-analysis/pitch.js";
import { speak } from "../../functions/media/voice-analysis/fixtures/voices.js";

/**
 * Voice design's quality words change the sound measurably (issue 26): the same description
 * with "clear", "breathy", "raspy", "nasal" or "soft", designed with the same seed and read with
 * the same text and seed, by the eSpeak engine and by flite. Measured on the output with the
 * voice analysis (its pitch tracker, LTAS and spectral tilt) and, for what it does not report,
 * two measures written here on its pitch track:
 *   HNR     per voiced frame (40 ms), the normalised autocorrelation r at the period (Boersma's
 *           method, the window's own autocorrelation divided out): 10 log10(r / (1 - r)), median.
 *   jitter  the mean relative change of F0 between consecutive voiced 10 ms frames, median over
 *           voiced runs (a frame-level stand-in for period-to-period jitter).
 */
const TEXT = "Every morning the old ferry crosses the river, carrying travellers and their stories to the far shore.";
const SEED = 11;
const WORDS = ["clear", "breathy", "raspy", "nasal", "soft"] as const;
type Word = (typeof WORDS)[number];

const FS = 16_000;

function hnrDb(x16: Float32Array): number {
  const p8 = toPitchRate(x16, FS);
  const yin = new YinTracker(p8);
  const N = 640;
  const hop = 160;
  const w = Float64Array.from({ length: N }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * (i + 0.5)) / N));
  const rw = (lag: number) => {
    let s = 0;
    for (let i = 0; i + lag < N; i++) s += w[i] * w[i + lag];
    let s0 = 0;
    for (let i = 0; i < N; i++) s0 += w[i] * w[i];
    return s / s0;
  };
  let peak = 0;
  const energies: number[] = [];
  for (let s = 0; s + N <= x16.length; s += hop) {
    let e = 0;
    for (let i = s; i < s + N; i++) e += x16[i] * x16[i];
    energies.push(e);
    peak = Math.max(peak, e);
  }
  const out: number[] = [];
  const f = new Float64Array(N);
  for (let k = 0, s = 0; s + N <= x16.length; k++, s += hop) {
    if (energies[k] < peak * 1e-3) continue;
    const f0 = yin.at(Math.round((s * PITCH_RATE) / FS));
    if (!f0) continue;
    for (let i = 0; i < N; i++) f[i] = x16[s + i] * w[i];
    let r0 = 0;
    for (let i = 0; i < N; i++) r0 += f[i] * f[i];
    const T = FS / f0;
    let best = 0;
    for (let lag = Math.floor(T) - 2; lag <= Math.ceil(T) + 2; lag++) {
      if (lag < 1 || lag >= N / 2) continue;
      let r = 0;
      for (let i = 0; i + lag < N; i++) r += f[i] * f[i + lag];
      best = Math.max(best, r / r0 / rw(lag));
    }
    const r = Math.min(0.99999, Math.max(1e-5, best));
    out.push(10 * Math.log10(r / (1 - r)));
  }
  out.sort((a, b) => a - b);
  return out[Math.floor(out.length / 2)];
}

function jitterPct(x16: Float32Array): number {
  const p8 = toPitchRate(x16, FS);
  const yin = new YinTracker(p8);
  const f0s: number[] = [];
  for (let s = 0; s < p8.length; s += PITCH_RATE / 100) f0s.push(yin.at(s));
  const changes: number[] = [];
  for (let i = 1; i < f0s.length; i++) if (f0s[i] && f0s[i - 1]) changes.push((200 * Math.abs(f0s[i] - f0s[i - 1])) / (f0s[i] + f0s[i - 1]));
  changes.sort((a, b) => a - b);
  return changes.reduce((a, b) => a + b, 0) / changes.length;
}

/** LTAS level of the bands within [lo, hi] Hz relative to the whole spectrum's mean, dB. */
function bandDb(ltas: number[], lo: number, hi: number): number {
  const picked = LTAS_BANDS_HZ.map(([a, b], i) => ({ mid: Math.sqrt(a * b), db: ltas[i] })).filter((b) => b.mid >= lo && b.mid <= hi);
  return picked.reduce((s, b) => s + b.db, 0) / picked.length;
}

interface Measured {
  profile: VoiceProfile;
  hnr: number;
  jitter: number;
  nasalLow: number;
  nasalMid: number;
  tilt: number;
}

function profileFor(word: Word): VoiceProfile {
  const traits = readPrompt(`a ${word} voice of a middle-aged woman`);
  return designProfiles(traits, { ...DEFAULT_DESIGN_OPTIONS, seed: SEED })[0].profile;
}

async function measure(engine: SpeechEngine): Promise<Record<Word, Measured>> {
  const out = {} as Record<Word, Measured>;
  for (const word of WORDS) {
    const profile = profileFor(word);
    const x = await speak(engine, profile, TEXT, { seed: SEED });
    const x16 = toAnalysisRate(x, engine.sampleRate);
    const a = analyzeVoice(x, engine.sampleRate);
    out[word] = { profile, hnr: hnrDb(x16), jitter: jitterPct(x16), nasalLow: bandDb(a.ltasDb, 200, 320), nasalMid: bandDb(a.ltasDb, 600, 1000), tilt: a.spectralTiltDbPerOctave };
  }
  return out;
}

const report = (name: string, m: Record<Word, Measured>) =>
  console.log(
    `${name}: ` +
      WORDS.map((w) => `${w} HNR ${m[w].hnr.toFixed(1)} dB, jitter ${m[w].jitter.toFixed(2)} %, 200-320 Hz ${m[w].nasalLow.toFixed(1)} dB, 600-1000 Hz ${m[w].nasalMid.toFixed(1)} dB, tilt ${m[w].tilt.toFixed(2)} dB/oct`).join("; "),
  );

describe("voice design's quality words change the sound measurably", () => {
  it("designs the words into the profile's quality (clear has none)", () => {
    expect(profileFor("clear").quality).toBeUndefined();
    expect(profileFor("breathy").quality?.breath).toBeGreaterThan(0.2);
    expect(profileFor("raspy").quality?.rough).toBeGreaterThan(0.2);
    expect(profileFor("nasal").quality?.nasal).toBeGreaterThan(0.2);
    expect(profileFor("soft").quality?.soft).toBeGreaterThan(0.2);
    // Other words still read as before: "thin" brightens and is not nasal.
    expect(readPrompt("a thin voice").nasal).toBe(0);
    expect(readPrompt("eine näselnde Stimme").nasal).toBeGreaterThan(0);
    // A remix keeps the voice's quality and adds the description's.
    const remixed = remixProfiles(profileFor("nasal"), readPrompt("more breathy"), { ...DEFAULT_DESIGN_OPTIONS, seed: SEED })[0].profile;
    expect(remixed.quality?.nasal).toBe(profileFor("nasal").quality?.nasal);
    expect(remixed.quality?.breath).toBeGreaterThan(0.1);
  });

  for (const [name, make] of [
    ["eSpeak", () => new EspeakEngine()],
    ["flite", () => new FliteEngine()],
  ] as const) {
    describe(`on the ${name} engine`, () => {
      let engine: SpeechEngine & { close(): Promise<void> };
      let m: Record<Word, Measured>;
      beforeAll(async () => {
        engine = make();
        m = await measure(engine);
        report(name, m);
      }, 240_000);
      afterAll(() => engine?.close());

      it("breathy has a harmonics-to-noise ratio at least 3 dB under clear", () => {
        expect(m.clear.hnr - m.breathy.hnr).toBeGreaterThanOrEqual(3);
      });
      it("raspy has more jitter than clear", () => {
        expect(m.raspy.jitter).toBeGreaterThan(m.clear.jitter * 1.3);
      });
      it("nasal has more energy near 250 Hz and less at 600-1000 Hz than clear", () => {
        expect(m.nasal.nasalLow - m.clear.nasalLow).toBeGreaterThan(2);
        expect(m.clear.nasalMid - m.nasal.nasalMid).toBeGreaterThan(2);
      });
      it("soft has a steeper spectral tilt than clear", () => {
        expect(m.clear.tilt - m.soft.tilt).toBeGreaterThan(1);
      });
    });
  }
});
