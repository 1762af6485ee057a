import { readFile } from "node:fs/promises";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { LineBuilder } from "./espeak/line.js";
import { MAX_LINE_BYTES, runEspeak, type LineJob, type LineResult, type RunOptions } from "./espeak/runtime.js";
import { EventType, compileEspeak, espeakWasmPath, findBreakAddress, type EspeakBuild } from "./espeak/wasm.js";

let build: EspeakBuild;
beforeAll(async () => {
  build = await compileEspeak();
});

const voiceFile = (extra = "") => `name timbre\nlanguage en-us 2\nphonemes en-us\ndictrules 3 6\n${extra}`;
const line = (text: string) => `<speak><voice name="timbre">${text}</voice></speak>`;

/** Runs the lines through one instance, in order, on this thread. */
async function runLines(jobs: LineJob[], opts?: RunOptions): Promise<LineResult[]> {
  const out: LineResult[] = [];
  let i = 0;
  await runEspeak(
    build,
    (previous) => {
      if (previous) out.push(previous);
      return jobs[i++] ?? null;
    },
    opts,
  );
  return out;
}

const same = (a: Int16Array, b: Int16Array) => a.length === b.length && a.every((v, i) => v === b[i]);

describe("eSpeak runtime", () => {
  it("gives the same samples in instances started at different times (eSpeak seeds its noise from the clock)", async () => {
    const job = { line: line("A breathy voice sounds the same every time."), voiceFile: voiceFile("breath 60 60 50 40 30 20 10 10\n") };
    const now = vi.spyOn(Date, "now");
    try {
      now.mockReturnValue(1_700_000_000_000);
      const [a] = await runLines([job]);
      now.mockReturnValue(1_800_000_123_000);
      const [b] = await runLines([job]);
      expect(a.pcm.length).toBeGreaterThan(22_050);
      expect(same(a.pcm, b.pcm)).toBe(true);
    } finally {
      now.mockRestore();
    }
  });

  it("gives the same samples for the same line whatever ran before it", async () => {
    const a = { line: line("The quick brown fox jumps over the lazy dog."), voiceFile: voiceFile() };
    const b = { line: line("Completely different words, with commas; and a question?"), voiceFile: voiceFile("gender female\npitch 160 240\n") };
    const [a1, b1, a2, a3] = await runLines([a, b, a, a]);
    expect(a1.pcm.length).toBeGreaterThan(22050);
    expect(same(a1.pcm, a2.pcm)).toBe(true);
    expect(same(a1.pcm, a3.pcm)).toBe(true);
    expect(same(a1.pcm, b1.pcm)).toBe(false);
  });

  it("resets only the heap in use, and leaves all of memory as it was at the snapshot", async () => {
    expect(build.breakAddress).not.toBeNull();
    const en = { line: line("The quick brown fox jumps over the lazy dog."), voiceFile: voiceFile() };
    // Loading the Russian dictionary moves the program break up by ~8 MB.
    const ru = { line: line("Съешь же ещё этих мягких французских булок, да выпей чаю."), voiceFile: "name timbre\nlanguage ru\n" };
    const cheap: number[] = [];
    await runLines([en, en, ru, en, en], { checkReset: true, onReset: (bytes) => cheap.push(bytes) });
    const full: number[] = [];
    await runLines([en, en], { fullReset: true, checkReset: true, onReset: (bytes) => full.push(bytes) });
    // Before each line: stack and static data (~1.2 MB) instead of all 15.5 MB outside the data files.
    expect(full[1]).toBeGreaterThan(15_000_000);
    for (const i of [1, 2, 4]) expect(cheap[i]).toBeLessThan(2_000_000);
    // After the Russian line the restore covers the heap it grew, and zeroes it.
    expect(cheap[3]).toBeGreaterThan(cheap[2] + 4_000_000);
  });

  it("gives a line after one that grew the heap the samples and events of a fresh instance", async () => {
    const short = { line: line("Short, but not empty."), voiceFile: voiceFile() };
    const long = { line: line("Съешь же ещё этих мягких французских булок, да выпей чаю. ".repeat(8)), voiceFile: "name timbre\nlanguage ru\n" };
    const grown: number[] = [];
    const [, after] = await runLines([long, short], { onReset: (bytes) => grown.push(bytes) });
    const [fresh] = await runLines([short]);
    expect(grown[1]).toBeGreaterThan(grown[0] + 4_000_000);
    expect(after.pcm.length).toBeGreaterThan(0);
    expect(same(after.pcm, fresh.pcm)).toBe(true);
    expect(after.events).toEqual(fresh.events);
  });

  it("finds sbrk's break in the module, and no break in a module whose sbrk differs", async () => {
    const bytes = new Uint8Array(await readFile(espeakWasmPath()));
    const at = findBreakAddress(bytes);
    expect(at).toBe(build.breakAddress);
    // Change the break's address in sbrk's store only: load and store no longer agree.
    const leb = [0xe4, 0xa7, 0xd9, 0x08]; // 18240484, the address in the pinned build
    expect(at).toBe(18240484);
    const store = bytes.findIndex((_, i) => bytes[i] === 0x36 && bytes[i + 1] === 0x02 && leb.every((v, k) => bytes[i + 2 + k] === v));
    expect(store).toBeGreaterThan(0);
    const changed = bytes.slice();
    changed[store + 2] ^= 0x04;
    expect(findBreakAddress(changed)).toBeNull();
  });

  it("applies the voice file of each line (a female pitch line raises the pitch)", async () => {
    const text = line("Hello there, how are you today?");
    const [male, female] = await runLines([
      { line: text, voiceFile: voiceFile("gender male\npitch 80 110\n") },
      { line: text, voiceFile: voiceFile("gender female\npitch 180 250\n") },
    ]);
    const zeroCrossings = (x: Int16Array) => x.reduce((n, v, i) => n + (i > 0 && (x[i - 1] < 0) !== (v < 0) ? 1 : 0), 0) / x.length;
    expect(zeroCrossings(female.pcm)).toBeGreaterThan(zeroCrossings(male.pcm));
  });

  it("reports word events at line positions (markup included) with rising sample offsets", async () => {
    const built = new LineBuilder().markup('<speak><voice name="timbre">').text("Salt & pepper, please.", 0).markup("</voice></speak>").build();
    const [r] = await runLines([{ line: built.line, voiceFile: voiceFile() }]);
    const words = r.events.filter((e) => e.type === EventType.word);
    const spoken = words.map((w) => built.original(w.position, w.length));
    const text = "Salt & pepper, please.";
    expect(spoken.map((s) => s && text.slice(s.start, s.end))).toEqual(["Salt", "&", "pepper", "please"]);
    for (let i = 1; i < words.length; i++) expect(words[i].sample).toBeGreaterThan(words[i - 1].sample);
    expect(words[words.length - 1].sample).toBeLessThan(r.pcm.length);
  });

  it("rejects a line longer than eSpeak reads in one go, after ending cleanly", async () => {
    const long = line("word ".repeat(MAX_LINE_BYTES / 5 + 10));
    await expect(runLines([{ line: long, voiceFile: voiceFile() }])).rejects.toThrow(/exceeds/);
    expect(process.exitCode ?? 0).toBe(0);
  });
});

describe("SSML line builder", () => {
  it("escapes markup characters, neutralises phoneme brackets and maps positions back", () => {
    const b = new LineBuilder().markup("<speak>").text("a<b & [[c]]\nd", 10).markup("</speak>");
    const built = b.build();
    expect(built.line).toBe("<speak>a&lt;b &amp; ( [c]] d</speak>");
    // "&lt;" (positions 9..12, 1-based) all stand for the "<" at original index 11.
    expect(built.original(9, 4)).toEqual({ start: 11, end: 12 });
    expect(built.original(1, 7)).toBeNull();
  });

  it("maps phoneme input to the span it replaces", () => {
    const built = new LineBuilder().text("Say ", 0).phonemes("t@m'A:toU", 4, 10).text(" now", 10).build();
    expect(built.line).toBe("Say  [[t@m'A:toU]]  now");
    expect(built.original(8, 9)).toEqual({ start: 4, end: 10 });
  });
});
