import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { concatBytes } from "../audio/bytes.js";
import { DispatchingEngine } from "./dispatch.js";
import { EspeakEngine } from "./espeak/engine.js";
import { alignFlite, parseSegments } from "./flite/alignment.js";
import { FliteEngine } from "./flite/engine.js";
import { SENTENCES, recognize, recognizerAvailable, wordErrorRate, words } from "./flite/fixtures/intelligibility.js";
import type { SynthesisChunk, SynthesisRequest, VoiceProfile, VoiceSettings } from "./port.js";
import { concatPcm, median, pitchTrack, spectralCentroid } from "./testing.js";

// The real WASI module runs here, on a machine other suites share.
vi.setConfig({ testTimeout: 60_000 });

const engine = new FliteEngine({ size: 2 });
const dir = mkdtempSync(join(tmpdir(), "timbre-flite-"));
beforeAll(() => engine.warm(), 60_000);
afterAll(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

const VOICE: VoiceProfile = { language: "en", accent: "american", gender: "female", age: "young", pitch: 50, pitchRange: 50, rate: 175, timbre: 0, seed: 3, engine: "flite", engineVoice: "slt" };
const SETTINGS: VoiceSettings = { stability: 0.5, similarity_boost: 0.75, style: 0, use_speaker_boost: true, speed: 1 };
const PARAGRAPH = "The morning train was late again, so everyone waited on the cold platform. Nobody complained, because the coffee stand had just opened.";

function request(over: Omit<Partial<SynthesisRequest>, "settings" | "voice"> & { settings?: Partial<VoiceSettings>; voice?: Partial<VoiceProfile> } = {}): SynthesisRequest {
  return {
    text: PARAGRAPH,
    seed: 1,
    model: { id: "eleven_multilingual_v2", quality: "standard", supportsPhonemes: false },
    ...over,
    voice: { ...VOICE, ...over.voice },
    settings: { ...SETTINGS, ...over.settings },
  };
}

async function collect(req: SynthesisRequest, e: { synthesize: FliteEngine["synthesize"] } = engine): Promise<SynthesisChunk[]> {
  const out: SynthesisChunk[] = [];
  for await (const c of e.synthesize(req)) out.push(c);
  return out;
}
const audio = async (req: SynthesisRequest) => concatPcm((await collect(req)).map((c) => c.pcm));
async function encoded(req: SynthesisRequest, format: string): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const c of engine.synthesizeEncoded(req, format as "mp3_44100_128")) parts.push(c.audio);
  return concatBytes(parts);
}

describe("flite engine: chunks and alignment", () => {
  it("yields one chunk per sentence whose alignment spells exactly its text, at 22,050 Hz", async () => {
    const text = "First sentence here. Second one follows! And a third, with a comma?";
    const chunks = await collect(request({ text }));
    expect(chunks.map((c) => c.alignment.characters.join(""))).toEqual(["First sentence here. ", "Second one follows! ", "And a third, with a comma?"]);
    expect(chunks.map((c) => c.textOffset)).toEqual([0, 21, 41]);
    expect(chunks.every((c) => c.sampleRate === 22050 && c.pcm.length > 0)).toBe(true);
  });

  it("has non-decreasing character times within the audio, each end at or after its start", async () => {
    const text = "Salt & pepper cost $5.50, said Dr. O'Neil — twice.  Then: silence…";
    const chunks = await collect(request({ text }));
    expect(chunks.map((c) => c.alignment.characters.join("")).join("")).toBe(text);
    const starts = chunks.flatMap((c) => c.alignment.character_start_times_seconds);
    const ends = chunks.flatMap((c) => c.alignment.character_end_times_seconds);
    const total = chunks.reduce((s, c) => s + c.pcm.length, 0) / 22050;
    for (let i = 0; i < starts.length; i++) {
      expect(ends[i]).toBeGreaterThanOrEqual(starts[i]);
      if (i > 0) expect(starts[i]).toBeGreaterThanOrEqual(starts[i - 1]);
    }
    expect(ends[ends.length - 1]).toBeLessThanOrEqual(total + 0.001);
  });

  it("times words from flite's segments: the pause at a comma goes to the comma", () => {
    // Flite's -psdur output for "Hello world, it is late." (slt): phones with end times.
    const segs = parseSegments("pau:0.164 hh:0.255 ax:0.304 l:0.412 ow:0.548 w:0.663 er:0.789 l:0.971 d:1.025 pau:1.300 ih:1.360 t:1.400 ih:1.450 z:1.500 l:1.560 ey:1.700 t:1.800 pau:2.000");
    const a = alignFlite("Hello world, it is late.", segs, 2.1);
    const at = (ch: number) => [a.starts[ch], a.ends[ch]];
    expect(at(0)[0]).toBeCloseTo(0.164, 3); // "H" starts where the first phone does
    expect(at(10)[1]).toBeCloseTo(1.025, 3); // "d" of world ends with its last phone
    expect(at(11)[0]).toBeCloseTo(1.025, 3); // "," takes the pause
    expect(at(13)[0]).toBeCloseTo(1.3, 3); // "i" of "it" after the pause
    expect(a.ends[a.ends.length - 1]).toBeCloseTo(2.1, 3);
  });
});

describe("flite engine: phoneme spans (pronunciation dictionaries)", () => {
  it("speaks a span from its IPA or ARPAbet phonemes while aligning the original characters", async () => {
    const text = "Say Xylo now.";
    const plain = await collect(request({ text }));
    const long = "ˌsuːpɚˌkælɪˌfrædʒəˌlɪstɪk";
    for (const span of [
      { start: 4, end: 8, phonemes: long, alphabet: "ipa" as const },
      { start: 4, end: 8, phonemes: "S UW2 P ER0 K AE2 L AH0 F R AE2 JH AH0 L IH2 S T IH0 K", alphabet: "cmu-arpabet" as const },
    ]) {
      const ruled = await collect(request({ text, phonemeSpans: [span] }));
      expect(ruled.map((c) => c.alignment.characters.join("")).join("")).toBe(text);
      const len = (cs: SynthesisChunk[]) => cs.reduce((s, c) => s + c.pcm.length, 0);
      expect(len(ruled)).toBeGreaterThan(len(plain) * 1.3);
      // "Xylo" takes most of the added time: its characters span more than in the plain reading.
      const a = ruled[0].alignment;
      const b = plain[0].alignment;
      expect(a.character_end_times_seconds[7] - a.character_start_times_seconds[4]).toBeGreaterThan(b.character_end_times_seconds[7] - b.character_start_times_seconds[4] + 0.4);
    }
  });
});

describe("flite engine: determinism and formats", () => {
  it("gives byte-identical PCM and MP3 for the same request", async () => {
    const [a, b] = [await audio(request()), await audio(request())];
    expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(true);
    const [m1, m2] = [await encoded(request(), "mp3_44100_128"), await encoded(request(), "mp3_44100_128")];
    expect(Buffer.from(m1).equals(Buffer.from(m2))).toBe(true);
  });

  it("varies its prosody with the seed, a little, and not at all at stability 1", async () => {
    const [a, b] = [await audio(request({ seed: 1 })), await audio(request({ seed: 2 }))];
    expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(false);
    // Small: the seeds' readings stay within a semitone and 5% of each other's length.
    const f0 = (x: Int16Array) => median(pitchTrack(x));
    expect(Math.abs(Math.log2(f0(a) / f0(b)) * 12)).toBeLessThan(1.2);
    expect(Math.abs(a.length / b.length - 1)).toBeLessThan(0.05);
    // Seeds give several readings, not two: five seeds, five different lengths or pitches.
    const five = await Promise.all([3, 4, 5, 6, 7].map((seed) => audio(request({ text: "A short one.", seed }))));
    expect(new Set(five.map((x) => `${x.length}:${f0(x).toFixed(1)}`)).size).toBeGreaterThan(2);
    const [s1, s2] = await Promise.all([1, 2].map((seed) => audio(request({ seed, settings: { stability: 1 } }))));
    expect(Buffer.from(s1.buffer).equals(Buffer.from(s2.buffer))).toBe(true);
  });

  it("encodes every kind of output format, each decoding to the synthesis' duration", async () => {
    const pcm = await audio(request());
    const seconds = pcm.length / 22050;
    for (const format of ["mp3_44100_128", "mp3_22050_32", "wav_44100", "opus_48000_64", "pcm_16000", "ulaw_8000", "alaw_8000"]) {
      const bytes = await encoded(request(), format);
      expect(bytes.length, format).toBeGreaterThan(1000);
      if (format.startsWith("pcm_")) {
        expect(bytes.length / 2 / 16000).toBeCloseTo(seconds, 1);
        continue;
      }
      if (format.startsWith("ulaw") || format.startsWith("alaw")) {
        expect(bytes.length / 8000).toBeCloseTo(seconds, 1);
        continue;
      }
      const ext = format.startsWith("opus") ? "ogg" : format.slice(0, 3);
      const file = join(dir, `out.${ext}`);
      writeFileSync(file, bytes);
      const probed = Number(execFileSync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file]).toString().trim());
      expect(Math.abs(probed - seconds), format).toBeLessThan(0.15);
    }
  });

  it("speaks a sequence of requests on one timeline", async () => {
    const reqs = [request({ text: "First line." }), request({ text: "Second line.", voice: { engineVoice: "rms", gender: "male" } })];
    const chunks: Array<SynthesisChunk & { requestIndex: number }> = [];
    for await (const c of engine.synthesizeSequence(reqs)) chunks.push(c);
    expect(chunks.map((c) => c.requestIndex)).toEqual([0, 1]);
    const firstEnd = chunks[0].pcm.length / 22050;
    expect(chunks[1].alignment.character_start_times_seconds[0]).toBeGreaterThanOrEqual(firstEnd - 0.001);
  });
});

describe("flite engine: settings move what they say", () => {
  it("speed and rate stretch the duration", async () => {
    const [slow, normal, fast] = await Promise.all([0.7, 1, 1.2].map((speed) => audio(request({ settings: { speed } }))));
    expect(slow.length / normal.length).toBeGreaterThan(1.25);
    expect(fast.length / normal.length).toBeLessThan(0.9);
    const slower = await audio(request({ voice: { rate: 140 } }));
    expect(slower.length / normal.length).toBeGreaterThan(1.15);
  });

  it("pitch moves the median F0 (±10 on the 0..100 scale is about ±1.6 semitones)", async () => {
    const [low, mid, high] = await Promise.all([35, 50, 65].map((pitch) => audio(request({ voice: { pitch } }))));
    const f0 = (x: Int16Array) => median(pitchTrack(x));
    expect(f0(high) / f0(mid)).toBeGreaterThan(1.08);
    expect(f0(low) / f0(mid)).toBeLessThan(0.93);
  });

  it("timbre tilts the spectrum and levelDb sets the level", async () => {
    const [dark, bright] = await Promise.all([-0.8, 0.8].map((timbre) => audio(request({ voice: { timbre } }))));
    expect(spectralCentroid(bright) / spectralCentroid(dark)).toBeGreaterThan(1.1);
    const rms = (x: Int16Array) => Math.sqrt(x.reduce((s, v) => s + v * v, 0) / x.length);
    const [quiet, loud] = await Promise.all([-30, -18].map((levelDb) => audio(request({ voice: { levelDb } }))));
    expect(20 * Math.log10(rms(loud) / rms(quiet))).toBeGreaterThan(8);
  });

  it("each base voice sounds different (the male bases are lower than slt)", async () => {
    const slt = median(pitchTrack(await audio(request())));
    for (const v of ["rms", "awb", "kal16"]) expect(median(pitchTrack(await audio(request({ voice: { engineVoice: v } })))), v).toBeLessThan(slt * 0.85);
  });
});

describe("flite engine: refusals", () => {
  it("refuses a profile naming a voice flite does not have", async () => {
    await expect(collect(request({ voice: { engineVoice: "nobody" } }))).rejects.toThrow(/flite has no voice "nobody"/);
  });

  it("the dispatching engine refuses an engine it does not know, and routes by the profile", async () => {
    const espeak = new EspeakEngine({ size: 1 });
    const d = new DispatchingEngine(espeak, { flite: () => engine });
    try {
      expect(() => d.engineFor(request({ voice: { engine: "neural" as "flite" } }))).toThrow(/no engine neural/);
      expect(d.engineFor(request())).toBe(engine);
      expect(d.engineFor(request({ voice: { engine: undefined } }))).toBe(espeak);
      // A dialogue mixing engines is one timeline.
      const chunks: Array<{ requestIndex: number }> = [];
      for await (const c of d.synthesizeSequenceEncoded([request({ text: "Flite here." }), request({ text: "And eSpeak.", voice: { engine: undefined } })], "mp3_44100_128")) chunks.push(c);
      expect(chunks.map((c) => c.requestIndex)).toEqual([0, 1]);
    } finally {
      await espeak.close();
    }
  });
});

describe("flite engine: intelligibility", () => {
  // pocketsphinx is a Debian package (pocketsphinx, pocketsphinx-en-us); .ci/run installs it.
  // Without it there is no recogniser to measure with, so the comparison cannot run.
  it.skipIf(!recognizerAvailable())("is recognised with fewer word errors than eSpeak on the same sentences", async () => {
    const espeak = new EspeakEngine({ size: 1 });
    try {
      const sentences = SENTENCES.slice(0, 10);
      const read = async (e: { synthesizeEncoded: FliteEngine["synthesizeEncoded"] }, voice: VoiceProfile) => {
        const out: Int16Array[] = [];
        for (const text of sentences) {
          const parts: Uint8Array[] = [];
          for await (const c of e.synthesizeEncoded(request({ text, voice }), "pcm_16000")) parts.push(c.audio);
          const b = concatBytes(parts);
          out.push(new Int16Array(b.buffer, b.byteOffset, b.length / 2));
        }
        return out;
      };
      const reference = sentences.flatMap(words);
      const { engine: _, engineVoice: __, ...espeakVoice } = VOICE;
      const fliteWer = wordErrorRate(reference, await recognize(await read(engine, VOICE)));
      const espeakWer = wordErrorRate(reference, await recognize(await read(espeak, espeakVoice)));
      expect(fliteWer).toBeLessThan(espeakWer);
      expect(fliteWer).toBeLessThan(0.4);
    } finally {
      await espeak.close();
    }
  }, 240_000);
});
