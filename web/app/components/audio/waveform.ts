/**
 * Waveform peaks and drawing for the audio player. Peaks are the loudest sample of each equal
 * slice of the audio, scaled so the loudest slice fills the height; they are computed once per
 * file (decoded at a low sample rate: the shape is all we need) and redrawn at any width.
 */
export const PEAK_COUNT = 1024;
/** Decoding at 8 kHz keeps even a 10-minute file under five million samples. */
const DECODE_SAMPLE_RATE = 8_000;
/** Slices quieter than this (relative) still show a sliver, so silence reads as a line. */
const MIN_BAR = 0.04;

/** The loudest absolute sample of each of `count` equal slices of `samples`, normalised to 0..1. */
export function peaksFromSamples(samples: Float32Array, count = PEAK_COUNT): Float32Array {
  const n = Math.max(1, Math.floor(count));
  const out = new Float32Array(n);
  if (samples.length === 0) return out;
  const per = samples.length / n;
  let loudest = 0;
  for (let i = 0; i < n; i++) {
    const start = Math.floor(i * per);
    const end = Math.max(start + 1, Math.floor((i + 1) * per));
    let peak = 0;
    for (let j = start; j < end && j < samples.length; j++) {
      const v = Math.abs(samples[j]!);
      if (v > peak) peak = v;
    }
    out[i] = peak;
    if (peak > loudest) loudest = peak;
  }
  if (loudest > 0) for (let i = 0; i < n; i++) out[i] = out[i]! / loudest;
  return out;
}

/** `peaks` squeezed (or stretched) to `count` bars, each the loudest of the peaks it covers. */
export function resamplePeaks(peaks: Float32Array, count: number): Float32Array {
  const n = Math.max(1, Math.floor(count));
  const out = new Float32Array(n);
  if (peaks.length === 0) return out;
  const per = peaks.length / n;
  for (let i = 0; i < n; i++) {
    const start = Math.floor(i * per);
    const end = Math.max(start + 1, Math.floor((i + 1) * per));
    let peak = 0;
    for (let j = start; j < end && j < peaks.length; j++) peak = Math.max(peak, peaks[j]!);
    out[i] = peak;
  }
  return out;
}

/**
 * Decodes an audio file and returns its peaks. A one-shot OfflineAudioContext does the decoding
 * (it holds no audio device, so there is nothing to close); the browser decodes off the main
 * thread, and the slicing is one linear pass.
 */
export async function decodePeaks(blob: Blob, count = PEAK_COUNT): Promise<Float32Array> {
  const bytes = await blob.arrayBuffer();
  const context = new OfflineAudioContext(1, 1, DECODE_SAMPLE_RATE);
  const audio = await context.decodeAudioData(bytes);
  return peaksFromSamples(audio.getChannelData(0), count);
}

export interface WaveformFrame {
  peaks: Float32Array | null;
  /** Played share, 0..1. */
  progress: number;
  /** Share received so far while streaming (null when the file is complete). */
  received: number | null;
}

const BAR_WIDTH = 2;
const BAR_GAP = 1;

/**
 * A waveform canvas ready to draw on in CSS pixels: sized to its box at the screen's pixel ratio,
 * cleared, with the theme's two waveform colours. Null while it has no size.
 */
export function waveformSurface(canvas: HTMLCanvasElement): { g: CanvasRenderingContext2D; width: number; height: number; base: string; played: string } | null {
  const ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth;
  const height = canvas.clientHeight;
  if (!width || !height) return null;
  if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
  }
  const g = canvas.getContext("2d");
  if (!g) return null;
  const style = getComputedStyle(canvas);
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  g.clearRect(0, 0, width, height);
  return { g, width, height, base: style.getPropertyValue("--waveform").trim() || "gray", played: style.getPropertyValue("--waveform-played").trim() || "black" };
}

/** Draws bars (played ones in the accent colour) or, without peaks, a progress line. */
export function drawWaveform(canvas: HTMLCanvasElement, frame: WaveformFrame): void {
  const surface = waveformSurface(canvas);
  if (!surface) return;
  const { g, width, height, base, played } = surface;
  const playedX = Math.max(0, Math.min(1, frame.progress)) * width;
  const mid = height / 2;

  if (!frame.peaks) {
    // No shape yet (streaming or decoding): a line, solid up to what has been received.
    const upTo = frame.received === null ? width : Math.max(0, Math.min(1, frame.received)) * width;
    g.fillStyle = base;
    g.fillRect(0, mid - 1, upTo, 2);
    g.globalAlpha = 0.35;
    g.fillRect(upTo, mid - 1, width - upTo, 2);
    g.globalAlpha = 1;
    g.fillStyle = played;
    g.fillRect(0, mid - 1, Math.min(playedX, upTo), 2);
    return;
  }
  const bars = Math.max(1, Math.floor(width / (BAR_WIDTH + BAR_GAP)));
  const shaped = resamplePeaks(frame.peaks, bars);
  for (let i = 0; i < bars; i++) {
    const x = i * (BAR_WIDTH + BAR_GAP);
    const h = Math.max(MIN_BAR, shaped[i]!) * (height - 2);
    g.fillStyle = x + BAR_WIDTH / 2 <= playedX ? played : base;
    g.fillRect(x, mid - h / 2, BAR_WIDTH, h);
  }
}

/** "1:05" (or "1:02:03" past an hour). */
export function formatClock(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "0:00";
  const s = Math.floor(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/** The playback rates the player cycles through (app-shell.md §4, §9). */
export const PLAYBACK_RATES = [1, 1.5, 2] as const;
export const nextRate = (rate: number) => PLAYBACK_RATES[(PLAYBACK_RATES.findIndex((r) => r === rate) + 1) % PLAYBACK_RATES.length]!;
/** Arrow keys on the waveform move this many seconds. */
export const SEEK_STEP_SECONDS = 5;
