import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { tinyPiperConfig, tinyPiperModel, writeTinyVoice, SAMPLES_PER_ID } from "../support/piper-model.js";
import { scanPiperVoices } from "../../functions/media/engine/piper/catalog.js";
import { PiperEngine, parsePiperVoice, piperScales } from "../../functions/media/engine/piper/engine.js";
import { clausePhonemes, linesOf, phonemesToIds, splitClauses } from "../../functions/media/engine/piper/phonemes.js";
import { MAX_LINE_BYTES } from "../../functions/media/engine/espeak/runtime.js";
import { parsePiperConfig } from "../../functions/media/engine/piper/voice-config.js";
import { piperSignatureProblems, readOnnxSignature } from "../../functions/media/engine/piper/onnx-signature.js";
import { startPiperWorker } from "../../infra/local/piper.js";
import { DEFAULT_VOICE_SETTINGS, type PhonemeSpan, type SynthesisRequest } from "../../functions/media/engine/port.js";

/** The Piper engine's parts: files checked at start-up, Piper's phoneme id rules, the engine on its workers. */
vi.setConfig({ testTimeout: 120_000 });

let dir: string;
let engine: PiperEngine;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "timbre-piper-engine-"));
  writeTinyVoice(dir, "good");
  writeTinyVoice(dir, "multi", { speakerNames: ["a", "b", "c"] });
  writeTinyVoice(dir, "timed", { durations: true });
  writeTinyVoice(dir, "nojson");
  rmSync(join(dir, "nojson.onnx.json"));
  writeTinyVoice(dir, "wrongsig", { inputName: "tokens" });
  writeFileSync(join(dir, "corrupt.onnx"), Buffer.from([0x08, 0x07, 0x3a, 0xff, 0xff, 0xff, 0x0f, 1, 2, 3]));
  writeFileSync(join(dir, "corrupt.onnx.json"), JSON.stringify(tinyPiperConfig()));
  writeFileSync(join(dir, "badjson.onnx"), tinyPiperModel());
  writeFileSync(join(dir, "badjson.onnx.json"), JSON.stringify({ ...tinyPiperConfig(), phoneme_id_map: { a: [1] } }));
  writeFileSync(join(dir, "orphan.onnx.json"), "{}");
  engine = new PiperEngine({ dir, start: startPiperWorker, size: 1 });
});
afterAll(async () => {
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the voices folder", () => {
  it("loads good voices and names each broken file with its reason", () => {
    const { voices, problems } = scanPiperVoices(dir);
    expect(voices.map((v) => v.key)).toEqual(["good", "multi", "timed"]);
    expect(voices[1].config.speakers).toEqual([{ name: "a", id: 0 }, { name: "b", id: 1 }, { name: "c", id: 2 }]);
    const by = Object.fromEntries(problems.map((p) => [p.file.slice(dir.length + 1), p.message]));
    expect(by["nojson.onnx"]).toBe("no nojson.onnx.json beside it (Piper voices come as NAME.onnx and NAME.onnx.json)");
    expect(by["wrongsig.onnx"]).toMatch(/^the model does not have Piper's signature: no input "input"; unexpected input "tokens"/);
    expect(by["corrupt.onnx"]).toMatch(/^the model is not a readable ONNX file/);
    expect(by["badjson.onnx"]).toBe('phoneme_id_map has no "^" (Piper\'s start symbol)');
    expect(by["orphan.onnx.json"]).toBe("no orphan.onnx beside it");
    expect(scanPiperVoices(join(dir, "absent"))).toEqual({ voices: [], problems: [] });
  });

  it("reads the signature from the protobuf: sid only on multi-speaker models", () => {
    const sig = readOnnxSignature(tinyPiperModel({ speakers: true }));
    expect(sig.inputs.map((i) => i.name)).toEqual(["input", "input_lengths", "scales", "sid"]);
    expect(piperSignatureProblems(sig, true)).toEqual([]);
    expect(piperSignatureProblems(sig, false)).toEqual(['input "sid" but the json lists one speaker']);
    expect(piperSignatureProblems(readOnnxSignature(tinyPiperModel()), true)).toEqual(['no input "sid"']);
    // A voice patched for alignments: a second, untyped output.
    const timed = readOnnxSignature(tinyPiperModel({ durations: true }));
    expect(timed.outputs.map((o) => o.name)).toEqual(["output", "w_ceil"]);
    expect(piperSignatureProblems(timed, false)).toEqual([]);
  });

  it("bounds and checks what the json claims", () => {
    expect(() => parsePiperConfig("{")).toThrow(/does not parse/);
    expect(() => parsePiperConfig(JSON.stringify({ ...tinyPiperConfig(), audio: { sample_rate: 1e9 } }))).toThrow(/sample_rate/);
    expect(() => parsePiperConfig(JSON.stringify({ ...tinyPiperConfig(), num_speakers: 1e6 }))).toThrow(/num_speakers/);
    expect(() => parsePiperConfig(JSON.stringify({ ...tinyPiperConfig(), phoneme_type: "text" }))).toThrow(/phoneme_type/);
    expect(() => parsePiperConfig(JSON.stringify({ ...tinyPiperConfig(), espeak: { voice: "../../etc" } }))).toThrow(/espeak.voice/);
  });
});

describe("Piper's phoneme rules", () => {
  it("splits clauses, keeps their punctuation and joins them with spaces", () => {
    const text = "Hello, world. How are you?";
    const clauses = splitClauses(text);
    expect(clauses.map((c) => [c.text, c.punctuation])).toEqual([["Hello", ","], ["world", "."], ["How are you", "?"]]);
    expect(clauses.map((c) => text.slice(c.start, c.end)).join("")).toBe(text);
    expect(clausePhonemes(clauses, ["həlˈoʊ", "wˈɜːld", "hˌaʊ ɑːɹ juː"]).join("")).toBe("həlˈoʊ, wˈɜːld. hˌaʊ ɑːɹ juː?");
  });

  it("maps phonemes to ids: BOS, each phoneme then the pad, EOS; unknown ones dropped and reported", () => {
    const map = new Map([["^", [1]], ["$", [2]], ["_", [0]], ["h", [20]], ["ə", [59]], ["ˈ", [120]], ["l", [24]]]);
    expect(phonemesToIds("həˈl", map)).toEqual({ ids: [1, 0, 20, 0, 59, 0, 120, 0, 24, 0, 2], phonemeAt: [-1, -1, 0, -1, 1, -1, 2, -1, 3, -1, -1], missing: [] });
    expect(phonemesToIds("hʘ", map).missing).toEqual(["ʘ"]);
  });

  it("cuts a clause too long for one eSpeak line between words, escaped for SSML", () => {
    expect(linesOf("Tom & Jerry <3")).toEqual(["Tom &amp; Jerry &lt;3"]);
    const long = "& ".repeat(300) + "x".repeat(900);
    const lines = linesOf(long);
    expect(lines.length).toBeGreaterThan(2);
    for (const l of lines) expect(new TextEncoder().encode(l).length).toBeLessThan(MAX_LINE_BYTES - 60);
    const unescape = (s: string) => s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
    expect(lines.map(unescape).join("")).toBe(long);
  });

  it("maps speed to length_scale and stability to the noise scales", () => {
    const c = { noiseScale: 0.667, lengthScale: 1.2, noiseW: 0.8 };
    expect(piperScales(c, { speed: 1, stability: 0.5 })).toEqual([0.667, 1.2, 0.8]);
    const [n, l, w] = piperScales(c, { speed: 1.2, stability: 0 });
    expect([n, l, w].map((x) => Math.round(x * 1000) / 1000)).toEqual([1.001, 1, 1.2]);
    expect(parsePiperVoice("multi#2")).toEqual({ key: "multi", sid: 2 });
    expect(() => parsePiperVoice("../x")).toThrow(/not a Piper voice/);
  });
});

describe("the engine", () => {
  const req = (text: string, engineVoice: string, phonemeSpans?: PhonemeSpan[]): SynthesisRequest => ({
    text,
    voice: { language: "en", gender: "neutral", age: "middle_aged", pitch: 50, pitchRange: 50, rate: 170, timbre: 0, seed: 0, engine: "piper", engineVoice },
    settings: DEFAULT_VOICE_SETTINGS,
    seed: 1,
    model: { id: "m", quality: "standard", supportsPhonemes: true },
    phonemeSpans,
  });
  const speak = async (r: SynthesisRequest) => {
    const chunks = [];
    for await (const c of engine.synthesize(r)) chunks.push(c);
    return chunks;
  };

  it("gives the model one id per phoneme and pad: the tone's length is ids x 256 x length_scale", async () => {
    const [chunk] = await speak(req("Hi.", "good"));
    // eSpeak's IPA for "Hi." is "hˈaɪ" (4 code points), then "." : ^ _ + 5 x (id, _) + $ = 13 ids.
    expect(chunk.pcm.length).toBe(13 * SAMPLES_PER_ID);
    expect(chunk.alignment.characters.join("")).toBe("Hi.");
  });

  it("times characters from the model's durations when it gives them", async () => {
    const text = "Hello there, my friend.";
    const [even] = await speak(req(text, "good"));
    const [timed] = await speak(req(text, "timed"));
    // The same audio; the times follow the durations output (id + 1 frames in the test model), not equal shares.
    expect(Buffer.from(timed.pcm.buffer).equals(Buffer.from(even.pcm.buffer))).toBe(true);
    expect(timed.alignment.characters).toEqual(even.alignment.characters);
    expect(timed.alignment.character_start_times_seconds).not.toEqual(even.alignment.character_start_times_seconds);
    const end = timed.pcm.length / 22050;
    expect(timed.alignment.character_end_times_seconds.at(-1)!).toBeLessThanOrEqual(end + 0.001);
  });

  it("speaks dictionary phonemes in place of the text", async () => {
    const plain = await speak(req("tomato", "good"));
    const spoken = await speak(req("tomato", "good", [{ start: 0, end: 6, phonemes: "təˈmɑːtoʊ", alphabet: "ipa" }]));
    const arpabet = await speak(req("tomato", "good", [{ start: 0, end: 6, phonemes: "T AH0 M AA1 T OW2", alphabet: "cmu-arpabet" }]));
    expect(Buffer.from(spoken[0].pcm.buffer).equals(Buffer.from(plain[0].pcm.buffer))).toBe(false);
    expect(arpabet[0].pcm.length).toBeGreaterThan(0);
  });

  it("speaks a clause longer than an eSpeak line", async () => {
    // 359 characters, one clause, 1,319 bytes once escaped for SSML: over the 990 of a line.
    const text = "&& ".repeat(120).trim();
    const chunks = await speak(req(text, "good"));
    expect(chunks.map((c) => c.alignment.characters.join("")).join("")).toBe(text);
    expect(chunks.reduce((n, c) => n + c.pcm.length, 0)).toBeGreaterThan(120 * 4 * SAMPLES_PER_ID);
  });

  it("does not fail its warm-up when its workers cannot start; a request then says why", async () => {
    const broken = new PiperEngine({
      dir,
      size: 1,
      start: () => {
        throw new Error("onnxruntime binding missing");
      },
    });
    try {
      await expect(broken.warm()).resolves.toBeUndefined();
      const it = broken.synthesize(req("Hello.", "good"))[Symbol.asyncIterator]();
      await expect(it.next()).rejects.toThrow(/onnxruntime binding missing|piper engine/);
    } finally {
      await broken.close();
    }
  });

  it("refuses a speaker the model does not have and a voice that is not installed", async () => {
    await expect(speak(req("Hello.", "multi#7"))).rejects.toThrow(/no speaker 7/);
    await expect(speak(req("Hello.", "gone"))).rejects.toThrow(/The Piper voice gone is not installed on this server any more/);
  });

  it("streams a long text chunk by chunk on one timeline", async () => {
    const text = "One sentence here. Another sentence there. A third sentence to end.";
    const chunks = await speak(req(text, "multi#1"));
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    expect(chunks.map((c) => c.alignment.characters.join("")).join("")).toBe(text);
    for (let i = 1; i < chunks.length; i++) expect(chunks[i].alignment.character_start_times_seconds[0]).toBeGreaterThanOrEqual(chunks[i - 1].alignment.character_end_times_seconds.at(-1)!);
  });
});
