import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { detectLanguages } from "../../../../functions/media/language/detect.js";
import { liveWordSpans } from "../../../../functions/media/alignment/online.js";
import {
  BACKUP_KEY,
  BACKUP_MAX_CHARS,
  HeldAudio,
  LIVE_READING,
  PVC,
  SCRIPT_LANGUAGES,
  SCRIPT_STYLES,
  checkScriptFile,
  detectionSample,
  highlightLength,
  passagesOf,
  pcm16Base64,
  pvcMessages,
  readBackup,
  scriptUrl,
  writeBackup,
} from "./recorder.js";

const PUBLIC = join(import.meta.dirname, "..", "..", "..", "public");
const read = (lang: (typeof SCRIPT_LANGUAGES)[number], style: (typeof SCRIPT_STYLES)[number]["id"]) => readFileSync(join(PUBLIC, scriptUrl(lang, style)), "utf8");

describe("recorder scripts", () => {
  it("exist for every language and style, in their language, in passages the live reading accepts", () => {
    for (const lang of SCRIPT_LANGUAGES) {
      for (const style of SCRIPT_STYLES) {
        const text = read(lang, style.id);
        const passages = passagesOf(text);
        expect(passages.length, `${lang}/${style.id}`).toBeGreaterThanOrEqual(6);
        for (const p of passages) expect([...p].length).toBeLessThanOrEqual(LIVE_READING.maxScriptChars);
        expect(detectLanguages(detectionSample(text))[0]?.language, `${lang}/${style.id}`).toBe(lang);
        // Long enough for minutes of reading aloud: about 150 words a minute, 130 for Russian's
        // longer words, 110 Korean spaced words, 250 Chinese characters.
        const words = passages.reduce((n, p) => n + liveWordSpans([...p]).length, 0);
        const perMinute = ({ zh: 250, ko: 110, ru: 130 } as Record<string, number>)[lang] ?? 150;
        expect(words / perMinute, `${lang}/${style.id} minutes`).toBeGreaterThan(2);
      }
    }
  });

  it("splits a paragraph longer than a passage at its sentence ends", () => {
    const sentence = "This sentence is forty characters long. ";
    const passages = passagesOf(sentence.repeat(100));
    expect(passages.length).toBeGreaterThan(2);
    for (const p of passages) {
      expect(p.length).toBeLessThanOrEqual(LIVE_READING.maxScriptChars);
      expect(p.endsWith(".")).toBe(true);
    }
    expect(passages.join(" ")).toBe(sentence.repeat(100).trim());
  });

  it("highlights the transcript only when it is the passage's beginning", () => {
    expect(highlightLength("One two three.", "One two")).toBe(7);
    expect(highlightLength("One two three.", "Two")).toBe(0);
    expect(highlightLength("One two three.", "")).toBe(0);
  });
});

describe("script files", () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  it("accepts text, refuses other files, empty ones and files over 10 MB with the spec's words", () => {
    expect(checkScriptFile({ name: "my script.txt", size: 5, type: "text/plain" }, enc("Hello"))).toEqual({ text: "Hello" });
    expect(checkScriptFile({ name: "blank.txt", size: 3, type: "text/plain" }, enc(" \n "))).toEqual({ error: pvcMessages.scriptEmpty });
    expect(checkScriptFile({ name: "photo.png", size: 4, type: "image/png" }, new Uint8Array([137, 80, 78, 71]))).toEqual({ error: pvcMessages.fileNotLoaded("photo.png") });
    expect(checkScriptFile({ name: "fake.txt", size: 4, type: "text/plain" }, new Uint8Array([0xff, 0xfe, 0x00, 0x01]))).toEqual({ error: pvcMessages.fileNotLoaded("fake.txt") });
    expect(checkScriptFile({ name: "huge.txt", size: PVC.scriptMaxBytes + 1, type: "text/plain" }, null)).toEqual({ error: pvcMessages.fileNotLoaded("huge.txt") });
  });
});

/** A Storage that holds at most `capacity` characters, as a browser's quota does. */
function storage(capacity: number) {
  const m = new Map<string, string>();
  return {
    map: m,
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => {
      if (v.length > capacity) throw new DOMException("full", "QuotaExceededError");
      m.set(k, v);
    },
    removeItem: (k: string) => void m.delete(k),
  };
}

describe("recording backups", () => {
  const meta = { voiceId: "v1", mimeType: "audio/webm", seconds: 60, savedAt: 1 };
  it("keeps the whole recording under the 'pvc' key when it fits", () => {
    const s = storage(10_000_000);
    expect(writeBackup(s, meta, "QUJD".repeat(1000))).toBe("full");
    expect(s.map.has(BACKUP_KEY)).toBe(true);
    expect(readBackup(s)).toMatchObject({ voiceId: "v1", seconds: 60, partial: false, audio: "QUJD".repeat(1000) });
  });

  it("keeps a bounded beginning of a long recording, and less when storage is full", () => {
    const long = "QUJD".repeat(BACKUP_MAX_CHARS / 2);
    const s = storage(10_000_000);
    expect(writeBackup(s, meta, long)).toBe("partial");
    const b = readBackup(s)!;
    expect(b.audio.length).toBe(BACKUP_MAX_CHARS);
    expect(b.seconds).toBeCloseTo(30, 5);
    const small = storage(100_000);
    expect(writeBackup(small, meta, "QUJD".repeat(100_000))).toBe("partial");
    const kept = readBackup(small)!;
    expect(kept.audio.length % 4).toBe(0);
    expect(kept.audio.length).toBeLessThan(100_000);
    expect(kept.partial).toBe(true);
    expect(writeBackup(storage(100), meta, "QUJD".repeat(1000))).toBe("none");
  });
});

describe("HeldAudio", () => {
  const chunk = (n: number, v: number) => new Float32Array(n).fill(v);
  it("holds the audio read before the socket opens and sends it first, oldest first, then passes audio straight through", () => {
    const held = new HeldAudio(10_000);
    held.push(chunk(4096, 0.1), null);
    held.push(chunk(4096, 0.2), null);
    expect(held.heldSamples).toBe(8192);
    const sent: string[] = [];
    held.flush((b) => sent.push(b));
    expect(sent).toEqual([pcm16Base64(chunk(4096, 0.1)), pcm16Base64(chunk(4096, 0.2))]);
    held.push(chunk(4096, 0.3), (b) => sent.push(b));
    expect(sent[2]).toBe(pcm16Base64(chunk(4096, 0.3)));
    expect(held.heldSamples).toBe(0);
  });
  it("keeps only the newest audio within its bound while the socket is slow", () => {
    const held = new HeldAudio(10_000);
    for (let i = 1; i <= 5; i++) held.push(chunk(4096, i / 10), null);
    expect(held.heldSamples).toBeLessThanOrEqual(10_000);
    const sent: string[] = [];
    held.flush((b) => sent.push(b));
    expect(sent).toEqual([pcm16Base64(chunk(4096, 0.4)), pcm16Base64(chunk(4096, 0.5))]);
  });
});
