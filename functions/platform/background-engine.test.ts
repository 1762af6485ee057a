import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { SynthesisRequest, VoiceProfile } from "../media/engine/port.js";
import { parseConfig } from "./config.js";
import { BACKGROUND_NICE, defaultEngineFactory } from "./context.js";

/** This process's threads at a nice value (Linux: field 19 of /proc/self/task/<tid>/stat). */
function threadsAtNice(nice: number): number {
  let n = 0;
  for (const tid of readdirSync("/proc/self/task")) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]) === nice) n++;
    } catch {
      // The thread ended meanwhile.
    }
  }
  return n;
}

const espeakVoice: VoiceProfile = { language: "en", accent: "american", gender: "male", age: "middle_aged", pitch: 50, pitchRange: 50, rate: 170, timbre: 0.6, breathiness: 0, seed: 3 };
const fliteVoice: VoiceProfile = { language: "en", gender: "female", age: "young", pitch: 50, pitchRange: 50, rate: 170, timbre: 0, seed: 1, engine: "flite", engineVoice: "slt" };
const request = (voice: VoiceProfile): SynthesisRequest => ({
  text: "Hi, I can read your stories.",
  voice,
  settings: { stability: 0.5, similarity_boost: 0.75, style: 0, use_speaker_boost: true, speed: 1 },
  seed: 1,
  model: { id: "eleven_multilingual_v2", quality: "standard", supportsPhonemes: false },
  background: true,
});

describe("the background engine (issue 24)", () => {
  it.runIf(process.platform === "linux")(
    "synthesises on threads of its own at the lowest priority, one per engine, which end with it",
    async () => {
      const before = threadsAtNice(BACKGROUND_NICE);
      const engine = await defaultEngineFactory(parseConfig({}), { background: true });
      try {
        for (const voice of [espeakVoice, fliteVoice]) {
          let bytes = 0;
          for await (const c of engine.synthesizeEncoded(request(voice), "mp3_44100_128")) bytes += c.audio.byteLength;
          expect(bytes).toBeGreaterThan(1000);
        }
        // An eSpeak worker and a flite worker, each having lowered its own priority.
        expect(threadsAtNice(BACKGROUND_NICE)).toBe(before + 2);
      } finally {
        await engine.close();
      }
      await expect.poll(() => threadsAtNice(BACKGROUND_NICE), { timeout: 10_000 }).toBe(before);
    },
    60_000,
  );
});
