/**
 * The WebAssembly codecs, each fed incrementally so the sink can stop a file at the duration
 * bound: libmpg123 (`mpg123-decoder`), libopus (`opus-decoder`), libFLAC and libvorbis
 * (`@wasm-audio-decoders/*`), FAAD2 (`@audio/decode-aac`). All carry their WebAssembly inside
 * their JavaScript, so bundlers inline them and nothing is read from disk at run time.
 */
import { decoder as aacDecoder, gapless } from "@audio/decode-aac";
import { FLACDecoder } from "@wasm-audio-decoders/flac";
import { OggVorbisDecoder } from "@wasm-audio-decoders/ogg-vorbis";
import { MPEGDecoder } from "mpg123-decoder";
import { OpusDecoder } from "opus-decoder";
import { concatBytes } from "../bytes.js";
import { OggWriter } from "../ogg.js";
import { AudioDecodeError } from "./errors.js";
import type { OpusHead } from "./ogg.js";
import type { MonoSink } from "./sink.js";

/** Bytes handed to a streaming decoder per call: small enough that the sink's bound bites early. */
const SLICE = 32 * 1024;
/** Packets per call for frame decoders. */
const BATCH = 64;

interface DecodedBlock {
  channelData: Float32Array[];
  samplesDecoded: number;
  sampleRate: number;
  errors?: Array<{ message: string }>;
}

function push(sink: MonoSink, r: DecodedBlock): void {
  if (r.samplesDecoded > 0) sink.push(r.channelData, r.sampleRate, r.samplesDecoded);
}

/** A decoder fed byte slices; `flush` drains what a codec holds back until the end. */
interface SliceDecoder {
  ready: Promise<void>;
  decode(bytes: Uint8Array): DecodedBlock | Promise<DecodedBlock>;
  flush?(): Promise<DecodedBlock>;
  free(): void;
}

async function decodeSliced(dec: SliceDecoder, bytes: Uint8Array, sink: MonoSink): Promise<void> {
  await dec.ready;
  try {
    for (let off = 0; off < bytes.length; off += SLICE) push(sink, await dec.decode(bytes.subarray(off, off + SLICE)));
    if (dec.flush) push(sink, await dec.flush());
  } finally {
    dec.free();
  }
}

export const decodeMpeg = (bytes: Uint8Array, sink: MonoSink): Promise<void> => decodeSliced(new MPEGDecoder(), bytes, sink);

export const decodeFlac = (bytes: Uint8Array, sink: MonoSink): Promise<void> => decodeSliced(new FLACDecoder(), bytes, sink);

export const decodeOggVorbis = (bytes: Uint8Array, sink: MonoSink): Promise<void> => decodeSliced(new OggVorbisDecoder(), bytes, sink);

/** Raw Opus packets (from Ogg or WebM); output at 48 kHz with the pre-skip removed. */
export async function decodeOpusPackets(packets: readonly Uint8Array[], head: OpusHead, sink: MonoSink): Promise<void> {
  const dec = new OpusDecoder({
    channels: head.channels,
    preSkip: head.preSkip,
    streamCount: head.streamCount,
    coupledStreamCount: head.coupledStreamCount,
    channelMappingTable: head.channelMappingTable,
  });
  await dec.ready;
  try {
    for (let i = 0; i < packets.length; i += BATCH) push(sink, dec.decodeFrames(packets.slice(i, i + BATCH) as Uint8Array[]));
  } finally {
    dec.free();
  }
}

/** Raw AAC access units with their AudioSpecificConfig (MP4 esds, Matroska CodecPrivate). */
export async function decodeAacFrames(frames: readonly Uint8Array[], asc: Uint8Array, sink: MonoSink, boxes?: Parameters<typeof gapless>[0]): Promise<void> {
  const window = boxes ? gapless({ ...boxes, asc }) : null;
  let dec: Awaited<ReturnType<typeof aacDecoder>>;
  try {
    dec = await aacDecoder({ asc, gapless: window ?? undefined });
  } catch (e) {
    throw new AudioDecodeError(`AAC configuration rejected: ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    for (let i = 0; i < frames.length; i += BATCH) {
      const r = dec.decode(frames.slice(i, i + BATCH) as Uint8Array[]);
      const n = r.channelData[0]?.length ?? 0;
      if (n > 0) sink.push(r.channelData, r.sampleRate, n);
    }
  } finally {
    dec.free();
  }
}

/**
 * Vorbis frames from Matroska, put back into an Ogg stream for libvorbis: the three headers,
 * then the audio packets one page per block time (granules from the block times).
 */
export async function decodeVorbisPackets(headers: Uint8Array[], packets: readonly Uint8Array[], times: readonly number[], sampleRate: number, sink: MonoSink): Promise<void> {
  const ogg = new OggWriter(1);
  const pages: Uint8Array[] = [...ogg.pages([headers[0]], 0n, { bos: true }), ...ogg.pages([headers[1], headers[2]], 0n)];
  for (let i = 0; i < packets.length; i += BATCH) {
    const batch = packets.slice(i, i + BATCH);
    const last = i + BATCH >= packets.length;
    const next = last ? times[packets.length - 1] + 0.02 : times[i + BATCH];
    pages.push(...ogg.pages(batch as Uint8Array[], BigInt(Math.max(0, Math.round(next * sampleRate))), { eos: last }));
  }
  await decodeOggVorbis(concatBytes(pages), sink);
}
