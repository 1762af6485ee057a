import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppContext } from "../../platform/context.js";
import type { SpeechEngine, SynthesisRequest } from "../../media/engine/port.js";
import { EspeakEngine } from "../../media/engine/espeak/engine.js";
import { profileFromLabels } from "../../media/engine/espeak/voices.js";
import { speakPcm16 } from "../voice-clone/render.js";
import { ownReading } from "./readings.js";

/** The real engine, counting the readings it is asked for. */
function counting(real: SpeechEngine): { engine: SpeechEngine; asked: string[] } {
  const asked: string[] = [];
  const engine = new Proxy(real, {
    get(t, k) {
      if (k === "synthesize") return (req: SynthesisRequest, signal?: AbortSignal) => (asked.push(req.text), t.synthesize(req, signal));
      const v = Reflect.get(t, k, t) as unknown;
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(t) : v;
    },
  });
  return { engine, asked };
}

describe("the voice's own reading of the attempt's sentence", () => {
  const real = new EspeakEngine({ size: 1 });
  beforeAll(() => real.warm(), 60_000);
  afterAll(() => real.close());
  const profile = profileFromLabels({ language: "en", gender: "female", age: "young" }, 4711);
  const TEXT = "Lantern, copper, dolphin, winter, button, bottle.";

  it("is made once for the two checks that ask for it at once, and is the engine's reading to the sample", async () => {
    const { engine, asked } = counting(real);
    const ctx = { engine: async () => engine } as unknown as AppContext;
    const [speaker, sentence] = await Promise.all([ownReading(ctx, profile, TEXT), ownReading(ctx, profile, TEXT)]);
    expect(asked).toEqual([TEXT]);
    expect(sentence).toBe(speaker);
    const direct = await speakPcm16({ engine: async () => real } as unknown as AppContext, profile, TEXT);
    expect(speaker.sampleRate).toBe(direct.sampleRate);
    expect(speaker.pcm.length).toBeGreaterThan(0);
    expect(Buffer.from(speaker.pcm.buffer, speaker.pcm.byteOffset, speaker.pcm.byteLength).equals(Buffer.from(direct.pcm.buffer, direct.pcm.byteOffset, direct.pcm.byteLength))).toBe(true);
    // Both steps took it: the next attempt (a new sentence, or the same one read again) asks the engine again.
    await ownReading(ctx, profile, TEXT);
    expect(asked).toEqual([TEXT, TEXT]);
  }, 60_000);

  it("is not shared between profiles, texts or engines, and a failed reading is not kept", async () => {
    const { engine, asked } = counting(real);
    const ctx = { engine: async () => engine } as unknown as AppContext;
    const other = profileFromLabels({ language: "en", gender: "male", age: "old" }, 4711);
    await Promise.all([ownReading(ctx, profile, "Apple, river."), ownReading(ctx, other, "Apple, river."), ownReading(ctx, profile, "Garden, river.")]);
    expect(asked).toHaveLength(3);
    const second = counting(real);
    await ownReading({ engine: async () => second.engine } as unknown as AppContext, profile, "Apple, river.");
    expect(second.asked).toHaveLength(1);

    let fail = true;
    const flaky = new Proxy(real, {
      get(t, k) {
        if (k === "synthesize")
          return (req: SynthesisRequest, signal?: AbortSignal) => {
            if (fail) throw new Error("engine stopped");
            return t.synthesize(req, signal);
          };
        const v = Reflect.get(t, k, t) as unknown;
        return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(t) : v;
      },
    });
    const flakyCtx = { engine: async () => flaky } as unknown as AppContext;
    await expect(ownReading(flakyCtx, profile, "Window, summer.")).rejects.toThrow("engine stopped");
    fail = false;
    expect((await ownReading(flakyCtx, profile, "Window, summer.")).pcm.length).toBeGreaterThan(0);
  }, 60_000);
});
