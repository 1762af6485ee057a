/**
 * Speech to speech, as one pass over the input that yields audio block by block:
 *
 * 1. Summarise the input (pitch percentiles, mean envelope, level) every 20 ms and plan the
 *    mapping to the target (mapping.ts).
 * 2. For each block: track pitch every 10 ms (raw YIN a little ahead, then the cleaning, which
 *    only looks 125 ms either way, so blocks join seamlessly), analyse the envelope and
 *    aperiodicity of each frame (spectral.ts), map the frame, synthesise up to the block's end
 *    (synth.ts), then level, speaker boost and limiter (post.ts).
 *
 * The output has exactly the input's length (the same timeline, so words and pauses stay
 * where they were). The first block is short so the stream starts early. Deterministic: the
 * same samples, target, settings and seed give the same output, however it is consumed.
 */
import { CLEAN_CONTEXT, F0_RATE, FRAME_SECONDS, YinFft, cleanRange, frameCount, toF0Rate } from "./f0.js";
import { AP_BANDS, BINS, SpectralAnalyzer, WORK_RATE } from "./spectral.js";
import { PulseSynth, type FrameSource, type SynthFrame } from "./synth.js";
import { LpcFitter, RESIDUAL_LOOKAHEAD, ResidualSynth, type AnalysedFrame, type ResidualOptions } from "./residual.js";
import { mapFrame, measureVoice, planConversion, type ConversionPlan, type ConversionSettings, type VoiceStats } from "./mapping.js";
import { PostChain } from "./post.js";
import { hashSeed } from "../engine/prng.js";

export interface ConvertOptions {
  target: VoiceStats;
  settings: ConversionSettings;
  seed: number;
  /** Seconds of the first block (the stream's first audio); default 0.5. */
  firstBlockSeconds?: number;
  /** Seconds of the later blocks; default 2. */
  blockSeconds?: number;
  /**
   * "vocoder": pulses and noise shaped by the mapped envelope (synth.ts); "residual": the input's own
   * excitation, pitch-moved and filtered by the mapped envelope (residual.ts). Default: DEFAULT_SYNTHESIS.
   */
  synthesis?: Synthesis;
  /** The residual synthesis's options (residual.ts), in place of DEFAULT_RESIDUAL; read only when it is chosen. */
  residual?: ResidualOptions;
}

export type Synthesis = "vocoder" | "residual";
export const DEFAULT_SYNTHESIS: Synthesis = "residual";
/**
 * The residual synthesis as adopted (docs/decisions/2026-12-07-sts-residual.md, "2026-12-08, later"): the
 * input's analysis marks and voicing, a flat pulse and noise at each voiced mark (split at 1 kHz, the
 * pulse alone below it on large lowering), noise in unvoiced stretches, unit power (the mapped envelope
 * sets the level), the mapped envelope's minimum-phase response as the filter.
 */
export const DEFAULT_RESIDUAL: ResidualOptions = {
  crossoverHz: 1000,
  lowerPulseRatio: 1.6,
  lowPulse: 1,
  unvoicedNoise: true,
  outputFilter: "minphase",
  excitationPower: "envelope",
};

export interface ConversionReport {
  source: VoiceStats;
  plan: ConversionPlan;
}

/** Samples at WORK_RATE in, blocks at WORK_RATE out; `onPlan` hears the plan before the first block. */
export function* convertSpeech(samples: Float32Array, opts: ConvertOptions, onPlan?: (r: ConversionReport) => void): Generator<Float32Array> {
  const fs = WORK_RATE;
  const x8 = toF0Rate(samples, fs);
  const source = measureVoice(samples, fs, x8);
  const plan = planConversion(source, opts.target, opts.settings, opts.seed);
  onPlan?.({ source, plan });

  const frames = frameCount(samples.length, fs);
  const yin = new YinFft(x8);
  const raw = new Float32Array(frames);
  const level = new Float32Array(frames);
  let rawDone = 0;
  const gate = source.loudestDb - 45;
  const analyzer = new SpectralAnalyzer(fs);
  const mapped: Array<SynthFrame | undefined> = [];
  let mappedDone = 0;
  const scratch: SynthFrame = { f0: 0, logEnv: new Float32Array(BINS), ap: new Float32Array(AP_BANDS) };
  const source_: FrameSource = {
    get length() {
      return mappedDone;
    },
    at: (i) => mapped[Math.max(0, Math.min(mappedDone - 1, i))]!,
  };
  const residual = (opts.synthesis ?? DEFAULT_SYNTHESIS) === "residual";
  // The input's analysed frames (pitch and the envelope's all-pole fit), for the residual synthesis.
  const analysed: Array<AnalysedFrame | undefined> = [];
  const fitter = residual ? new LpcFitter() : null;
  const analysedSource = {
    get length() {
      return preDone;
    },
    at: (i: number) => analysed[Math.max(0, Math.min(preDone - 1, i))]!,
  };
  const synth = residual ? new ResidualSynth(samples, analysedSource, source_, fs, { seed: hashSeed("sts-noise", opts.seed), utterancePeriodRatio: 2 ** (plan.sourceLog - plan.targetLog), ...(opts.residual ?? DEFAULT_RESIDUAL) }) : new PulseSynth(source_, fs, hashSeed("sts-noise", opts.seed));
  const lookahead = residual ? RESIDUAL_LOOKAHEAD : 0;
  const post = new PostChain(fs, plan.gain, plan.speakerBoost);

  // Mapped frames before the dynamics step; it looks DYNAMICS_SPAN frames either way.
  const pre: Array<SynthFrame | undefined> = [];
  let preDone = 0;
  let preDropped = 0;
  const preFrames = (upTo: number) => {
    const want = Math.min(frames, upTo);
    if (want <= preDone) return;
    const rawWant = Math.min(frames, want + CLEAN_CONTEXT);
    for (; rawDone < rawWant; rawDone++) {
      const [f, , l] = yin.frame(rawDone * FRAME_SECONDS * F0_RATE);
      raw[rawDone] = f;
      level[rawDone] = l;
    }
    const f0 = cleanRange(raw, level, gate, preDone, want, rawDone);
    for (let i = preDone; i < want; i++) {
      scratch.f0 = f0[i - preDone];
      analyzer.analyze(samples, i * FRAME_SECONDS * fs, scratch.f0, scratch);
      if (fitter) analysed[i] = { f0: scratch.f0, lpc: fitter.fit(scratch.logEnv) };
      const out: SynthFrame = { f0: 0, logEnv: new Float32Array(BINS), ap: new Float32Array(AP_BANDS) };
      mapFrame(plan, i, scratch, out);
      pre[i] = out;
    }
    preDone = want;
  };
  const ensureFrames = (upTo: number) => {
    const want = Math.min(frames, upTo);
    if (want <= mappedDone) return;
    preFrames(want + DYNAMICS_SPAN);
    for (let i = mappedDone; i < want; i++) mapped[i] = scaleDynamics(pre, i, preDone, plan.dynamics);
    mappedDone = want;
    // Pre-frames older than the span are no longer read.
    for (; preDropped < mappedDone - DYNAMICS_SPAN - 1; preDropped++) pre[preDropped] = undefined;
  };

  const first = Math.max(0.05, opts.firstBlockSeconds ?? 0.5);
  const rest = Math.max(0.1, opts.blockSeconds ?? 2);
  let done = 0;
  let dropped = 0;
  let analysedDropped = 0;
  let blockSeconds = first;
  while (done < samples.length) {
    const until = Math.min(samples.length, done + Math.round(blockSeconds * fs));
    // Pulses near the block end read the next frame too.
    ensureFrames(Math.ceil((until + lookahead) / (FRAME_SECONDS * fs)) + 2);
    const block = synth.render(until);
    // The synthesiser only reads frames from just before `until` on: free the ones behind.
    const behind = Math.min(mappedDone - 1, Math.floor(until / (FRAME_SECONDS * fs)) - 2);
    for (; dropped < behind; dropped++) mapped[dropped] = undefined;
    // The residual synthesis reads the input's frames up to a period behind the block's end.
    for (; analysedDropped < behind - 2; analysedDropped++) analysed[analysedDropped] = undefined;
    yield post.process(block);
    done = until;
    blockSeconds = rest;
  }
}

const DYNAMICS_SPAN = Math.round(0.02 / FRAME_SECONDS);
const DYNAMICS_WEIGHTS = Array.from({ length: 2 * DYNAMICS_SPAN + 1 }, (_, j) => DYNAMICS_SPAN + 1 - Math.abs(j - DYNAMICS_SPAN));

/**
 * The envelope's movement around its local (±20 ms, triangular) average, scaled by `beta`: the
 * target's articulation moves its timbre more or less from frame to frame than the source's.
 */
function scaleDynamics(pre: Array<SynthFrame | undefined>, i: number, known: number, beta: number): SynthFrame {
  const self = pre[i]!;
  if (Math.abs(beta - 1) < 1e-6) return self;
  const out: SynthFrame = { f0: self.f0, logEnv: new Float32Array(BINS), ap: self.ap };
  const avg = new Float64Array(BINS);
  let wsum = 0;
  for (let j = -DYNAMICS_SPAN; j <= DYNAMICS_SPAN; j++) {
    const f = pre[Math.max(0, Math.min(known - 1, i + j))];
    if (!f) continue;
    const w = DYNAMICS_WEIGHTS[j + DYNAMICS_SPAN];
    wsum += w;
    for (let k = 0; k < BINS; k++) avg[k] += w * f.logEnv[k];
  }
  for (let k = 0; k < BINS; k++) {
    const m = avg[k] / wsum;
    out.logEnv[k] = m + beta * (self.logEnv[k] - m);
  }
  return out;
}

/** The whole conversion at once (tests, the non-streaming endpoint). */
export function convertAll(samples: Float32Array, opts: ConvertOptions): Float32Array {
  const out = new Float32Array(samples.length);
  let o = 0;
  for (const block of convertSpeech(samples, opts)) {
    out.set(block, o);
    o += block.length;
  }
  return out;
}
