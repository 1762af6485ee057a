/**
 * Decoding uploaded audio in Node without a system ffmpeg. The type comes from the bytes
 * (`sniffAudioType`), never from a file name; the headers are read first (`probeAudio`) so a file
 * that is too long is refused before any decoding; decoding then runs incrementally into a sink
 * that enforces the same bound on what is really decoded.
 */
import { sniffAudioType } from "../sniff.js";
import { decodeWavChunks, WavFormatError } from "../wav.js";
import { decodeAacFrames, decodeFlac, decodeMpeg, decodeOggVorbis, decodeOpusPackets, decodeVorbisPackets } from "./codecs.js";
import { AudioDecodeError, AudioLimitError } from "./errors.js";
import { flacInfo, wavInfo } from "./headers.js";
import { scanMpeg } from "./mpeg.js";
import { readMp4, type Mp4Track } from "./mp4.js";
import { parseOpusHead, parseVorbisIdentification, readOgg, type OpusHead } from "./ogg.js";
import { MonoSink } from "./sink.js";
import { DEFAULT_DECODE_LIMITS, type AudioCodec, type AudioProbe, type DecodedAudioFile, type DecodeOptions } from "./types.js";
import { readWebm, xiphHeaders, type WebmTrack } from "./webm.js";

const OPUS_RATE = 48000;

const isAac = (t: Mp4Track) => t.format === "mp4a" && [0x40, 0x66, 0x67, 0x68].includes(t.objectType);
const isMp4Mp3 = (t: Mp4Track) => (t.format === "mp4a" && (t.objectType === 0x69 || t.objectType === 0x6b)) || t.format === ".mp3";

function webmCodec(t: WebmTrack): AudioCodec | null {
  if (t.codecId === "A_OPUS") return "opus";
  if (t.codecId === "A_VORBIS") return "vorbis";
  if (t.codecId.startsWith("A_AAC")) return "aac";
  if (t.codecId === "A_MPEG/L3") return "mp3";
  return null;
}

/** Opus header of a WebM track: its CodecPrivate, else the track's channels and codec delay. */
function webmOpusHead(t: WebmTrack): OpusHead | null {
  const fromPrivate = t.codecPrivate && parseOpusHead(t.codecPrivate);
  if (fromPrivate) return fromPrivate;
  if (t.channels < 1 || t.channels > 2) return null;
  return { channels: t.channels, preSkip: Math.round((t.codecDelayNs * OPUS_RATE) / 1e9), inputRate: t.sampleRate, mappingFamily: 0, streamCount: 1, coupledStreamCount: t.channels - 1, channelMappingTable: t.channels === 1 ? [0] : [0, 1] };
}

/**
 * What the headers say, without decoding: container, codec, rate, channels and duration.
 * Cheap (a walk over headers) but linear in the file for MP3 and live-recorded WebM.
 * Throws AudioDecodeError for anything we cannot decode.
 */
export function probeAudio(bytes: Uint8Array): AudioProbe {
  const p = probeHeaders(bytes);
  // A header may claim anything (a WAV's rate is 32 bits): rates no codec makes are unreadable, not a crash later on.
  if (!(Number.isInteger(p.sampleRate) && p.sampleRate >= MIN_SAMPLE_RATE && p.sampleRate <= MAX_SAMPLE_RATE)) throw new AudioDecodeError(`sample rate ${p.sampleRate} Hz`);
  if (!(Number.isInteger(p.channels) && p.channels >= 1 && p.channels <= 255)) throw new AudioDecodeError(`${p.channels} channels`);
  if (p.durationSecs !== null && !Number.isFinite(p.durationSecs)) throw new AudioDecodeError(`duration ${p.durationSecs}`);
  return p;
}

/** Sample rates a file may state: telephone-band 1 kHz up to 768 kHz studio PCM. */
export const MIN_SAMPLE_RATE = 1000;
export const MAX_SAMPLE_RATE = 768_000;

function probeHeaders(bytes: Uint8Array): AudioProbe {
  const container = sniffAudioType(bytes);
  switch (container) {
    case "wav": {
      const w = wavInfo(bytes);
      if (!w) break;
      return { container, codec: w.codec, sampleRate: w.sampleRate, channels: w.channels, durationSecs: w.frames / w.sampleRate };
    }
    case "mp3": {
      const m = scanMpeg(bytes);
      if (!m) break;
      return { container, codec: m.codec, sampleRate: m.sampleRate, channels: m.channels, durationSecs: m.samples / m.sampleRate };
    }
    case "flac": {
      const f = flacInfo(bytes);
      if (!f) break;
      return { container, codec: "flac", sampleRate: f.sampleRate, channels: f.channels, durationSecs: f.totalSamples > 0 ? f.totalSamples / f.sampleRate : null };
    }
    case "ogg": {
      const s = readOgg(bytes, { headersOnly: true });
      const first = s?.packets[0];
      if (!s || !first) break;
      const opus = parseOpusHead(first);
      if (opus) {
        const samples = Number(s.lastGranule) - opus.preSkip;
        if (samples <= 0) break;
        return { container, codec: "opus", sampleRate: OPUS_RATE, channels: opus.channels, durationSecs: samples / OPUS_RATE };
      }
      const vorbis = parseVorbisIdentification(first);
      if (vorbis && s.lastGranule > 0n) return { container, codec: "vorbis", sampleRate: vorbis.sampleRate, channels: vorbis.channels, durationSecs: Number(s.lastGranule) / vorbis.sampleRate };
      break;
    }
    case "mp4": {
      const t = readMp4(bytes, { samples: false });
      if (!t || !(isAac(t) || isMp4Mp3(t)) || !t.timescale) break;
      const units = t.duration || t.fragmentDuration;
      return { container, codec: isAac(t) ? "aac" : "mp3", sampleRate: t.sampleRate, channels: t.channels, durationSecs: units > 0 ? units / t.timescale : null };
    }
    case "webm": {
      const t = readWebm(bytes, { frames: false });
      const codec = t && webmCodec(t);
      if (!t || !codec) break;
      const rate = codec === "opus" ? OPUS_RATE : t.sampleRate;
      // Live recordings have no Duration: the last block's start plus one Opus frame is close enough to refuse early.
      const duration = t.durationSecs ?? (t.lastBlockSecs > 0 ? t.lastBlockSecs + 0.02 : null);
      return { container, codec, sampleRate: rate, channels: t.channels, durationSecs: duration };
    }
  }
  throw new AudioDecodeError(container ? `unreadable ${container} headers` : "unknown audio type");
}

/**
 * Decodes a whole file to mono Float32 (optionally resampled while decoding). Throws
 * AudioLimitError past the caller's bounds and AudioDecodeError (the spec's message) for
 * anything unreadable.
 */
export async function decodeAudio(bytes: Uint8Array, opts: DecodeOptions = {}): Promise<DecodedAudioFile> {
  const { probe, sink, trimTo } = await decodeWith(bytes, opts);
  const { samples, sampleRate } = sink.finish(trimTo);
  return { samples, sampleRate, channels: probe.channels, durationSecs: samples.length / sampleRate, container: probe.container, codec: probe.codec };
}

/** What measuring a file gives: its decoded duration and its waveform, without its samples. */
export interface MeasuredAudio {
  durationSecs: number;
  /** The loudest absolute sample in each of `points` equal stretches, 0..1 (rounded to 3 decimals). */
  peaks: number[];
  sampleRate: number;
  channels: number;
  container: AudioProbe["container"];
  codec: AudioCodec;
}

/** Blocks whose peak is kept while measuring, per point of the waveform: a point's edges move by at most 1/20. */
const BLOCKS_PER_POINT = 20;

/**
 * Decodes a whole file as `decodeAudio` does (the headers' duration checked first, the bound
 * enforced while decoding), but keeps no samples: each decoded piece is folded into the peaks of
 * short blocks and dropped, so a file of hours takes a few megabytes instead of gigabytes.
 */
export async function measureAudio(bytes: Uint8Array, opts: DecodeOptions & { points: number }): Promise<MeasuredAudio> {
  const blocks: number[] = [];
  let peak = 0;
  let filled = 0;
  let block = 160;
  const maxBlocks = 8 * opts.points * BLOCKS_PER_POINT;
  const consume = (x: Float32Array) => {
    for (let i = 0; i < x.length; i++) {
      const v = Math.abs(x[i]);
      if (v > peak) peak = v;
      if (++filled === block) {
        blocks.push(peak);
        peak = 0;
        filled = 0;
        // A header that understated the length: pairs of blocks merge, so they stay bounded in number.
        if (blocks.length >= maxBlocks) {
          for (let j = 0; j < blocks.length / 2; j++) blocks[j] = Math.max(blocks[2 * j], blocks[2 * j + 1] ?? 0);
          blocks.length = Math.ceil(blocks.length / 2);
          block *= 2;
        }
      }
    }
  };
  const { probe, sink, trimTo } = await decodeWith(bytes, opts, consume, (p) => {
    // Blocks sized from the declared length: about BLOCKS_PER_POINT per point (10 ms when unknown).
    if (p.durationSecs !== null) block = Math.max(1, Math.floor((p.durationSecs * (opts.sampleRate ?? p.sampleRate)) / (opts.points * BLOCKS_PER_POINT)));
  });
  const { length, sampleRate } = sink.finishCount(trimTo);
  if (filled) blocks.push(peak);
  const kept = blocks.slice(0, Math.ceil(length / block));
  const n = Math.max(1, Math.min(opts.points, length));
  const peaks = new Array<number>(n).fill(0);
  for (let p = 0; p < n; p++) {
    // The blocks under the samples [p*length/n, (p+1)*length/n), as waveformPeaks cuts them.
    const a = Math.floor(Math.floor((p * length) / n) / block);
    const b = Math.max(a + 1, Math.ceil(Math.floor(((p + 1) * length) / n) / block));
    let m = 0;
    for (let i = a; i < Math.min(b, kept.length); i++) if (kept[i] > m) m = kept[i];
    peaks[p] = Math.round(Math.min(1, m) * 1000) / 1000;
  }
  return { durationSecs: length / sampleRate, peaks, sampleRate, channels: probe.channels, container: probe.container, codec: probe.codec };
}

async function decodeWith(
  bytes: Uint8Array,
  opts: DecodeOptions,
  consume?: (mono: Float32Array) => void,
  onProbe?: (p: AudioProbe) => void,
): Promise<{ probe: AudioProbe; sink: MonoSink; trimTo: number | undefined }> {
  const maxBytes = opts.maxBytes ?? DEFAULT_DECODE_LIMITS.maxBytes;
  const maxSeconds = opts.maxSeconds ?? DEFAULT_DECODE_LIMITS.maxSeconds;
  if (bytes.length > maxBytes) throw new AudioLimitError("bytes", maxBytes, bytes.length);
  const probe = probeAudio(bytes);
  if (probe.durationSecs !== null && probe.durationSecs > maxSeconds) throw new AudioLimitError("duration", maxSeconds, probe.durationSecs);
  onProbe?.(probe);
  const sink = new MonoSink(maxSeconds, opts.sampleRate, consume);
  let trimTo: number | undefined;
  try {
    trimTo = await decodeInto(bytes, probe, sink);
  } catch (e) {
    if (e instanceof AudioLimitError || e instanceof AudioDecodeError) throw e;
    throw new AudioDecodeError(`${probe.container}/${probe.codec}: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { probe, sink, trimTo };
}

/** Feeds the sink; returns the length in source frames to trim to when the container states one. */
async function decodeInto(bytes: Uint8Array, probe: AudioProbe, sink: MonoSink): Promise<number | undefined> {
  switch (probe.container) {
    case "wav": {
      // In pieces: the sink stops at the duration bound, and nothing holds the whole file decoded twice.
      try {
        for (const pcm of decodeWavChunks(bytes)) sink.push([pcm], probe.sampleRate);
      } catch (e) {
        if (e instanceof WavFormatError) throw new AudioDecodeError(e.message);
        throw e;
      }
      return undefined;
    }
    case "mp3":
      await decodeMpeg(bytes, sink);
      return undefined;
    case "flac":
      await decodeFlac(bytes, sink);
      return undefined;
    case "ogg": {
      if (probe.codec === "vorbis") {
        await decodeOggVorbis(bytes, sink);
        return undefined;
      }
      const s = readOgg(bytes)!;
      const head = parseOpusHead(s.packets[0])!;
      await decodeOpusPackets(s.packets.slice(2), head, sink);
      // The last granule marks the real end: the encoder padded the last packet.
      return Number(s.lastGranule) - head.preSkip;
    }
    case "mp4": {
      const t = readMp4(bytes)!;
      const frames = t.samples.map((s) => bytes.subarray(s.offset, s.offset + s.size));
      if (frames.length === 0) throw new AudioDecodeError("mp4 track has no samples");
      if (probe.codec === "mp3") {
        await decodeMpeg(concatFrames(frames), sink);
        return undefined;
      }
      if (!t.asc) throw new AudioDecodeError("mp4 AAC track without a decoder configuration");
      await decodeAacFrames(frames, t.asc, sink, t.boxes);
      return undefined;
    }
    case "webm": {
      const t = readWebm(bytes)!;
      if (t.frames.length === 0) throw new AudioDecodeError("webm track has no frames");
      if (probe.codec === "opus") {
        const head = webmOpusHead(t);
        if (!head) throw new AudioDecodeError("webm Opus track without a usable header");
        await decodeOpusPackets(t.frames, head, sink);
        return t.durationSecs !== null ? Math.round(t.durationSecs * OPUS_RATE) : undefined;
      }
      if (probe.codec === "vorbis") {
        const headers = t.codecPrivate && xiphHeaders(t.codecPrivate);
        if (!headers) throw new AudioDecodeError("webm Vorbis track without its headers");
        await decodeVorbisPackets(headers, t.frames, t.times, t.sampleRate, sink);
        return undefined;
      }
      if (probe.codec === "aac") {
        if (!t.codecPrivate) throw new AudioDecodeError("webm AAC track without a decoder configuration");
        await decodeAacFrames(t.frames, t.codecPrivate, sink);
        return undefined;
      }
      await decodeMpeg(concatFrames(t.frames), sink);
      return undefined;
    }
  }
}

function concatFrames(frames: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
  let o = 0;
  for (const f of frames) {
    out.set(f, o);
    o += f.length;
  }
  return out;
}
