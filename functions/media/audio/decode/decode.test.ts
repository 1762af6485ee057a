import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EspeakEngine } from "../../engine/espeak/engine.js";
import { concatPcm } from "../../engine/testing.js";
import { encodeAll } from "../encoder.js";
import { int16ToFloat, resample } from "../resample.js";
import { encodeWav } from "../wav.js";
import { decodeAudio, measureAudio, probeAudio } from "./decode.js";
import { waveformPeaks } from "../../../capabilities/pvc/audioTasks.js";
import { AudioDecodeError, AudioLimitError, UNREADABLE_AUDIO_MESSAGE } from "./errors.js";
import { bestCorrelation, ffmpegEncode, hasFfmpeg } from "./testing.js";

const engine = new EspeakEngine({ size: 1 });
const RATE = 22050;
let speech: Int16Array;
let reference16k: Float32Array;
const seconds = () => speech.length / RATE;

beforeAll(async () => {
  const voice = { language: "en", accent: "american", gender: "female", age: "young", pitch: 55, pitchRange: 50, rate: 170, timbre: 0, seed: 7 } as const;
  const chunks = [];
  for await (const c of engine.synthesize({
    text: "Please call Stella and ask her to bring these things with her from the store.",
    voice,
    settings: { stability: 0.5, similarity_boost: 0.75, style: 0, use_speaker_boost: true, speed: 1 },
    seed: 1,
    model: { id: "eleven_multilingual_v2", quality: "standard", supportsPhonemes: false },
  }))
    chunks.push(c.pcm);
  speech = concatPcm(chunks);
  reference16k = resample(int16ToFloat(speech), RATE, 16000);
}, 60_000);
afterAll(() => engine.close());

/** Decoded at 16 kHz, the audio is the same speech: duration close to the source and the waveform correlates. */
async function expectSameSpeech(bytes: Uint8Array, want: { container: string; codec: string; sampleRate: number; channels?: number }, tolerance = { seconds: 0.08, r: 0.9 }) {
  const probe = probeAudio(bytes);
  expect(probe).toMatchObject({ container: want.container, codec: want.codec, sampleRate: want.sampleRate, channels: want.channels ?? 1 });
  expect(probe.durationSecs).toBeCloseTo(seconds(), 0);
  const full = await decodeAudio(bytes);
  expect(full.sampleRate).toBe(want.sampleRate);
  expect(full.container).toBe(want.container);
  expect(full.codec).toBe(want.codec);
  expect(Math.abs(full.durationSecs - seconds())).toBeLessThan(tolerance.seconds);
  const at16k = await decodeAudio(bytes, { sampleRate: 16000 });
  expect(at16k.sampleRate).toBe(16000);
  expect(Math.abs(at16k.samples.length / 16000 - full.durationSecs)).toBeLessThan(0.002);
  const { r } = bestCorrelation(reference16k, at16k.samples, 1600);
  expect(r).toBeGreaterThan(tolerance.r);
  return full;
}

describe("decodes what the product itself encodes", () => {
  it("WAV, 16-bit", async () => {
    const d = await expectSameSpeech(encodeAll("wav_22050", speech, RATE), { container: "wav", codec: "pcm", sampleRate: 22050 }, { seconds: 0.001, r: 0.999 });
    expect(d.samples.length).toBe(speech.length);
  });

  it("MP3 (LAME) at 44.1 kHz and 22.05 kHz", async () => {
    await expectSameSpeech(encodeAll("mp3_44100_128", speech, RATE), { container: "mp3", codec: "mp3", sampleRate: 44100 });
    await expectSameSpeech(encodeAll("mp3_22050_32", speech, RATE), { container: "mp3", codec: "mp3", sampleRate: 22050 }, { seconds: 0.08, r: 0.8 });
  });

  it("Ogg Opus, trimmed to the length the last granule states", async () => {
    const d = await expectSameSpeech(encodeAll("opus_48000_64", speech, RATE), { container: "ogg", codec: "opus", sampleRate: 48000 }, { seconds: 0.005, r: 0.9 });
    expect(d.samples.length).toBe(Math.ceil((speech.length * 48000) / RATE));
  });

  it("µ-law and A-law in WAV", async () => {
    const ulaw = encodeAll("ulaw_8000", speech, RATE);
    const wav = new Uint8Array(44 + ulaw.length);
    wav.set(encodeWav(new Int16Array(0), 8000).subarray(0, 44));
    const v = new DataView(wav.buffer);
    v.setUint16(20, 7, true); // WAVE_FORMAT_MULAW
    v.setUint16(32, 1, true);
    v.setUint16(34, 8, true);
    v.setUint32(28, 8000, true);
    v.setUint32(40, ulaw.length, true);
    wav.set(ulaw, 44);
    await expectSameSpeech(wav, { container: "wav", codec: "mulaw", sampleRate: 8000 }, { seconds: 0.01, r: 0.9 });
  });
});

describe.skipIf(!hasFfmpeg)("decodes what other tools write (ffmpeg)", () => {
  const enc = (ext: string, ...args: string[]) => ffmpegEncode(speech, RATE, ext, args);

  // The FLAC decoder drops a final frame shorter than the block size (here 165 samples): see the README.
  it("FLAC", () => expectSameSpeech(enc("flac", "-c:a", "flac"), { container: "flac", codec: "flac", sampleRate: 22050 }, { seconds: 0.01, r: 0.999 }));
  it("Ogg Vorbis", () => expectSameSpeech(enc("ogg", "-c:a", "libvorbis"), { container: "ogg", codec: "vorbis", sampleRate: 22050 }));
  it("M4A (AAC-LC), trimmed gapless by its edit list", () => expectSameSpeech(enc("m4a", "-c:a", "aac", "-b:a", "96k"), { container: "mp4", codec: "aac", sampleRate: 22050 }, { seconds: 0.005, r: 0.9 }));
  it("fragmented MP4 (AAC), as some browsers record", () =>
    expectSameSpeech(enc("mp4", "-c:a", "aac", "-movflags", "frag_keyframe+empty_moov"), { container: "mp4", codec: "aac", sampleRate: 22050 }));
  it("WebM Opus", () => expectSameSpeech(enc("webm", "-c:a", "libopus"), { container: "webm", codec: "opus", sampleRate: 48000 }));
  it("WebM Vorbis", () => expectSameSpeech(enc("webm", "-c:a", "libvorbis"), { container: "webm", codec: "vorbis", sampleRate: 22050 }));
  it("Matroska Opus, stereo, downmixed", () => expectSameSpeech(enc("mka", "-c:a", "libopus", "-ac", "2"), { container: "webm", codec: "opus", sampleRate: 48000, channels: 2 }));
  it("WAV 24-bit stereo and 32-bit float", async () => {
    await expectSameSpeech(enc("wav", "-c:a", "pcm_s24le", "-ac", "2", "-ar", "48000"), { container: "wav", codec: "pcm", sampleRate: 48000, channels: 2 }, { seconds: 0.002, r: 0.99 });
    await expectSameSpeech(enc("wav", "-c:a", "pcm_f32le"), { container: "wav", codec: "float", sampleRate: 22050 }, { seconds: 0.001, r: 0.999 });
  });
  it("MP3 with an ID3 tag in front", () => expectSameSpeech(enc("mp3", "-c:a", "libmp3lame", "-metadata", "title=Sample", "-id3v2_version", "3"), { container: "mp3", codec: "mp3", sampleRate: 22050 }));

  it("a live-recorded WebM (unknown sizes, no Duration) still gives its duration from the last block", async () => {
    const live = enc("webm", "-c:a", "libopus", "-live", "1", "-cluster_time_limit", "500");
    const probe = probeAudio(live);
    expect(probe.durationSecs).not.toBeNull();
    expect(Math.abs(probe.durationSecs! - seconds())).toBeLessThan(0.1);
    expect(Math.abs((await decodeAudio(live)).durationSecs - seconds())).toBeLessThan(0.08);
  });
});

describe("refuses what it cannot read, with the spec's message", () => {
  /** `headers`: the headers themselves are unreadable, so the cheap probe refuses too. */
  const refused = async (bytes: Uint8Array, headers = true) => {
    const e = await decodeAudio(bytes).then(() => null, (x: unknown) => x);
    expect(e).toBeInstanceOf(AudioDecodeError);
    expect((e as Error).message).toBe("Could not determine audio duration, try another file");
    if (headers) expect(() => probeAudio(bytes)).toThrow(UNREADABLE_AUDIO_MESSAGE);
  };

  it("random bytes, text, an empty file", async () => {
    let x = 12345;
    await refused(Uint8Array.from({ length: 4096 }, () => ((x = (x * 1103515245 + 12345) >>> 0) >>> 24)));
    await refused(new TextEncoder().encode("this is not audio, just a text file renamed to .mp3"));
    await refused(new Uint8Array(0));
  });

  it("a file cut inside its headers", async () => {
    await refused(encodeAll("wav_22050", speech, RATE).subarray(0, 40));
    await refused(encodeAll("opus_48000_64", speech, RATE).subarray(0, 60));
    await refused(encodeAll("mp3_44100_128", speech, RATE).subarray(0, 300));
  });

  it.skipIf(!hasFfmpeg)("containers whose headers are there but whose audio is not", async () => {
    const m4a = ffmpegEncode(speech, RATE, "m4a", ["-c:a", "aac", "-movflags", "+faststart"]);
    await refused(m4a.subarray(0, 1200), false); // moov first: sample tables point past the end
    const webm = ffmpegEncode(speech, RATE, "webm", ["-c:a", "libopus"]);
    await refused(webm.subarray(0, 400), false);
    const flac = ffmpegEncode(speech, RATE, "flac", ["-c:a", "flac"]);
    const garbled = flac.slice();
    for (let i = 200; i < garbled.length; i++) garbled[i] = (i * 7919) & 0xff;
    await refused(garbled, false);
  });

  it("a truncated file decodes what is whole", async () => {
    const mp3 = encodeAll("mp3_44100_128", speech, RATE);
    const half = await decodeAudio(mp3.subarray(0, mp3.length >> 1));
    expect(half.durationSecs).toBeGreaterThan(seconds() * 0.4);
    expect(half.durationSecs).toBeLessThan(seconds() * 0.6);
  });
});

describe("bounds: refused before decoding", () => {
  it("more bytes than the caller allows", async () => {
    const wav = encodeAll("wav_22050", speech, RATE);
    const e = await decodeAudio(wav, { maxBytes: 1000 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AudioLimitError);
    expect(e).toMatchObject({ limit: "bytes", max: 1000, actual: wav.length });
  });

  it("longer than the caller allows, by the header", async () => {
    const e = await decodeAudio(encodeAll("opus_48000_64", speech, RATE), { maxSeconds: 1 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AudioLimitError);
    expect(e).toMatchObject({ limit: "duration", max: 1 });
    expect((e as AudioLimitError).actual).toBeCloseTo(seconds(), 1);
  });

  it.skipIf(!hasFfmpeg)("a file whose header claims less than it holds is stopped at the bound while decoding", async () => {
    // 60 s of audio whose STREAMINFO claims one second: the sink stops it at the caller's 5 s.
    const long = new Int16Array(RATE * 60);
    for (let i = 0; i < long.length; i++) long[i] = speech[i % speech.length];
    const flac = ffmpegEncode(long, RATE, "flac", ["-c:a", "flac"]);
    const lying = flac.slice();
    const total = RATE; // samples claimed
    lying[8 + 13] = (lying[8 + 13] & 0xf0) | 0;
    new DataView(lying.buffer).setUint32(8 + 14, total);
    expect(probeAudio(lying).durationSecs).toBe(1);
    const e = await decodeAudio(lying, { maxSeconds: 5 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AudioLimitError);
    expect(e).toMatchObject({ limit: "duration", max: 5 });
    expect((e as AudioLimitError).actual).toBeLessThan(8);
  });
});

describe("measuring: decoded in pieces that are not kept", () => {
  it("gives the decoded duration and the waveform peaks that decoding whole gives", async () => {
    for (const bytes of [encodeAll("wav_22050", speech, RATE), encodeAll("opus_48000_64", speech, RATE)]) {
      const whole = await decodeAudio(bytes, { sampleRate: 16000 });
      const m = await measureAudio(bytes, { sampleRate: 16000, points: 400 });
      expect(m.durationSecs).toBeCloseTo(whole.durationSecs, 2);
      const peaks = waveformPeaks(whole.samples, 400);
      expect(m.peaks).toHaveLength(peaks.length);
      // Stretches are cut at 10 ms blocks: a peak may move to a neighbouring point, never appear from nowhere.
      const off = m.peaks.filter((p, i) => Math.abs(p - peaks[i]) > 0.01).length;
      expect(off).toBeLessThan(peaks.length * 0.1);
      expect(Math.max(...m.peaks)).toBeCloseTo(Math.max(...peaks), 2);
    }
  });

  it("refuses by the header before decoding, and stops at the bound while decoding when the header lies", async () => {
    const opus = Buffer.from(encodeAll("opus_48000_64", speech, RATE));
    const last = opus.lastIndexOf("OggS");
    const claim = (secs: number) => {
      const b = Buffer.from(opus);
      b.writeBigUInt64LE(BigInt(Math.round(secs * 48_000)), last + 6);
      return new Uint8Array(b);
    };
    const hours = await measureAudio(claim(4 * 3600), { maxSeconds: 3 * 3600, points: 400 }).catch((x: unknown) => x);
    expect(hours).toBeInstanceOf(AudioLimitError);
    expect(hours).toMatchObject({ limit: "duration", max: 3 * 3600 });
    expect((hours as AudioLimitError).actual).toBeCloseTo(4 * 3600, 0);
    expect((hours as Error).message).toBe(`Audio is longer than ${3 * 3600} seconds`);
    // A header claiming 1 s over more than 3 s of audio: decoding stops past the caller's 2 s.
    expect(seconds()).toBeGreaterThan(3);
    const lying = await measureAudio(claim(1), { maxSeconds: 2, points: 400 }).catch((x: unknown) => x);
    expect(lying).toBeInstanceOf(AudioLimitError);
    expect(lying).toMatchObject({ limit: "duration", max: 2 });
    expect((lying as AudioLimitError).actual).toBeLessThan(3);
    // Within the bound, an understated length measures as decoding whole does (the granule trims
    // both), though far more audio than declared went through the blocks (they merged as it came).
    const understated = await measureAudio(claim(0.05), { sampleRate: 16000, points: 20 });
    const whole = await decodeAudio(claim(0.05), { sampleRate: 16000 });
    expect(understated.durationSecs).toBeCloseTo(whole.durationSecs, 3);
    expect(understated.peaks).toHaveLength(20);
    expect(Math.max(...understated.peaks)).toBeCloseTo(Math.max(...waveformPeaks(whole.samples, 20)), 2);
  });
});

it("is deterministic: the same bytes decode to identical samples", async () => {
  const mp3 = encodeAll("mp3_44100_128", speech, RATE);
  const a = await decodeAudio(mp3, { sampleRate: 16000 });
  const b = await decodeAudio(mp3, { sampleRate: 16000 });
  expect(Buffer.from(a.samples.buffer, a.samples.byteOffset, a.samples.byteLength).equals(Buffer.from(b.samples.buffer, b.samples.byteOffset, b.samples.byteLength))).toBe(true);
});
