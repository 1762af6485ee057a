/**
 * How a chunk of a request becomes one eSpeak line, a voice file and DSP settings: the mapping
 * of VoiceProfile and voice_settings onto the engine (README "Voice settings" is this file).
 */
import type { EngineModel, PhonemeSpan, VoiceProfile, VoiceSettings } from "../port.js";
import { hashSeed, prng, signed } from "../prng.js";
import { BuiltLine, LineBuilder } from "./line.js";
import { toEspeakPhonemes } from "./phonemes.js";
import { MAX_LINE_BYTES, SLOT_VOICE } from "./runtime.js";
import { buildVoiceFile, clamp, resolveLanguage, type VoiceShaping } from "./voices.js";
import type { DspParams } from "./dsp.js";
import { qualityFor } from "./quality.js";

/** eSpeak's default speed; SSML rates are relative to it. */
const BASE_WPM = 175;

export interface ChunkJob {
  text: string;
  index: number;
  voice: VoiceProfile;
  settings: VoiceSettings;
  seed: number;
  model: EngineModel;
  languageCode: string | null;
  /** Relative to `text`. */
  phonemeSpans: PhonemeSpan[];
  /** Following text continues this chunk's sentence (next_text): end on a continuation tune. */
  continuation: boolean;
}

export interface ChunkPlan {
  line: BuiltLine;
  /** eSpeak language file (under espeak-ng-data/lang/) whose rules the voice uses. */
  langFile: string;
  voiceFile(langFileContents: string): string;
  dsp: DspParams;
}

export interface Prosody {
  pitch: number;
  range: number;
  wpm: number;
  /** Amplitude of the seeded per word-group pitch offsets, percent (low stability). */
  jitter: number;
  /** Amplitude of the alternating emphasis contour over word groups, percent (style). */
  emphasis: number;
}

/** The numbers behind the README table; exported for tests and docs. */
export function prosodyFor(voice: VoiceProfile, s: VoiceSettings, seed: number, index: number): Prosody {
  const rand = prng(hashSeed("chunk-prosody", seed, index));
  const instability = 1 - clamp(s.stability, 0, 1);
  const style = clamp(s.style, 0, 1);
  return {
    // Lower stability moves each sentence's pitch centre (seeded) by up to ±12 on eSpeak's scale.
    pitch: clamp(Math.round(voice.pitch + 12 * instability * signed(rand)), 0, 99),
    // Style widens the intonation up to 2x; low stability adds a little range too.
    range: clamp(Math.round(voice.pitchRange * (1 + style) * (0.85 + 0.3 * instability)), 0, 100),
    wpm: clamp(Math.round(voice.rate * clamp(s.speed, 0.5, 2)), 80, 450),
    jitter: 40 * instability,
    // eSpeak's range saturates at 100, so style also lifts and lowers alternate word groups.
    emphasis: 30 * style,
  };
}

export function shapingFor(s: VoiceSettings): VoiceShaping {
  const instability = 1 - clamp(s.stability, 0, 1);
  return { timbreStrength: 0.3 + 0.9 * clamp(s.similarity_boost, 0, 1), extraFlutter: 12 * instability };
}

/** The timbre strength of the default similarity_boost (0.75): the strength a clone is fitted at. */
export const DEFAULT_TIMBRE_STRENGTH = 0.3 + 0.9 * 0.75;
export const DEFAULT_LEVEL_DB = -18;

export function dspFor(voice: VoiceProfile, s: VoiceSettings): DspParams {
  const { timbreStrength } = shapingFor(s);
  // A fitted envelope follows similarity_boost like the rest of the timbre: exact at the default.
  const envelopeScale = timbreStrength / DEFAULT_TIMBRE_STRENGTH;
  return {
    // A spectral tilt on top of eSpeak's formant shift: up to ±4 dB above ~2 kHz.
    tiltDb: 4 * clamp(voice.timbre, -1, 1) * timbreStrength,
    speakerBoost: s.use_speaker_boost,
    targetRmsDb: clamp(voice.levelDb ?? DEFAULT_LEVEL_DB, -40, -6),
    envelopeDb: voice.envelope?.length ? voice.envelope.map((g) => g * envelopeScale) : undefined,
  };
}

/** Text already ending in punctuation gets its tune from eSpeak; only a bare cut needs a comma. */
const ENDS_WITH_PUNCTUATION = /[.!?…。！？,;:、，；：—–]["'”’)\]]*\s*$/;

export function planChunk(job: ChunkJob): ChunkPlan {
  const lang = resolveLanguage(job.languageCode || job.voice.language, job.voice.accent);
  const prosody = prosodyFor(job.voice, job.settings, job.seed, job.index);
  const jitterOn = prosody.jitter >= 0.5 || prosody.emphasis >= 0.5;
  let line = buildLine(job, prosody, jitterOn);
  if (!fits(line) && jitterOn) line = buildLine(job, prosody, false);
  if (!fits(line)) throw new Error("chunk too long for one eSpeak line");
  const shaping = shapingFor(job.settings);
  return {
    line,
    langFile: lang.file,
    voiceFile: (contents) => buildVoiceFile(contents, job.voice, shaping),
    dsp: { ...dspFor(job.voice, job.settings), quality: qualityFor(job.voice, job.seed, job.index) },
  };
}

const utf8 = new TextEncoder();
const fits = (l: BuiltLine) => utf8.encode(l.line).length + 1 <= MAX_LINE_BYTES;

type Piece = { kind: "text"; start: number; end: number } | { kind: "phonemes"; start: number; end: number; mnemonics: string };

/** Text runs split into words (with their trailing spaces) and phoneme spans as single words. */
function words(job: ChunkJob): Piece[] {
  const spans = [...job.phonemeSpans].filter((p) => p.end > p.start).sort((a, b) => a.start - b.start);
  const out: Piece[] = [];
  let pos = 0;
  const pushText = (a: number, b: number) => {
    const re = /\S+\s*|\s+/gy;
    re.lastIndex = a;
    const seg = job.text.slice(0, b);
    for (let m = re.exec(seg); m && m.index < b; m = re.exec(seg)) out.push({ kind: "text", start: m.index, end: m.index + m[0].length });
  };
  for (const span of spans) {
    if (span.start < pos) continue;
    pushText(pos, span.start);
    const mnemonics = toEspeakPhonemes(span.phonemes, span.alphabet).espeak;
    if (mnemonics) out.push({ kind: "phonemes", start: span.start, end: span.end, mnemonics });
    else pushText(span.start, span.end);
    pos = span.end;
  }
  pushText(pos, job.text.length);
  return out;
}

function buildLine(job: ChunkJob, p: Prosody, jitter: boolean): BuiltLine {
  const b = new LineBuilder();
  b.markup(`<speak><voice name="${SLOT_VOICE}"><prosody pitch="${p.pitch}" range="${p.range}" rate="${(p.wpm / BASE_WPM).toFixed(2)}">`);
  const pieces = words(job);
  const rand = prng(hashSeed("group-jitter", job.seed, job.index));
  // Groups of about three words get their own pitch offset: seeded (stability) plus an
  // alternating lift and dip (style).
  const groupSize = Math.max(3, Math.ceil(pieces.length / 10));
  for (let g = 0; g < pieces.length; g += groupSize) {
    const group = pieces.slice(g, g + groupSize);
    const contour = (g / groupSize) % 2 === 0 ? p.emphasis : -p.emphasis / 2;
    const offset = jitter ? Math.round(p.jitter * signed(rand) + contour) : 0;
    if (offset) b.markup(`<prosody pitch="${offset > 0 ? "+" : "-"}${Math.abs(offset)}%">`);
    for (const piece of group) {
      if (piece.kind === "text") b.text(job.text.slice(piece.start, piece.end), piece.start);
      else b.phonemes(piece.mnemonics, piece.start, piece.end);
    }
    if (offset) b.markup("</prosody>");
  }
  // A trailing comma makes eSpeak end on a continuation rise instead of a final fall.
  if (job.continuation && !ENDS_WITH_PUNCTUATION.test(job.text)) b.markup(",");
  b.markup("</prosody></voice></speak>");
  return b.build();
}
