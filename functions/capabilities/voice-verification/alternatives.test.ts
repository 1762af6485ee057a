import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppContext } from "../../platform/context.js";
import type { SpeechEngine, SynthesisRequest } from "../../media/engine/port.js";
import { EspeakEngine } from "../../media/engine/espeak/engine.js";
import { profileFromLabels } from "../../media/engine/espeak/voices.js";
import { createVoiceAnalyzer } from "../../media/voice-analysis/analyzer.js";
import { embeddingOf } from "./alternatives.js";

/** The real engine, counting the readings it is asked for; `fail` makes it throw instead. */
function counting(real: SpeechEngine): { engine: SpeechEngine; asked: string[]; fail: { on: boolean } } {
  const asked: string[] = [];
  const fail = { on: false };
  const engine = new Proxy(real, {
    get(t, k) {
      if (k === "synthesize")
        return (req: SynthesisRequest, signal?: AbortSignal) => {
          asked.push(req.text);
          if (fail.on) throw new Error("engine stopped");
          return t.synthesize(req, signal);
        };
      const v = Reflect.get(t, k, t) as unknown;
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(t) : v;
    },
  });
  return { engine, asked, fail };
}

describe("a library voice's embedding for the similar voices a failed verification offers", () => {
  const real = new EspeakEngine({ size: 1 });
  const analyzer = createVoiceAnalyzer({ size: 1 });
  beforeAll(() => real.warm(), 60_000);
  afterAll(async () => {
    await real.close();
    await analyzer.close();
  });
  const profile = profileFromLabels({ language: "en", gender: "female", age: "young" }, 5151);

  it("is read once for failures at the same moment, and a failed reading is not kept", async () => {
    const { engine, asked, fail } = counting(real);
    const ctx = { engine: async () => engine, analyzer: () => analyzer } as unknown as AppContext;
    const key = `listing:test-${Date.now()}:1`;
    const [a, b] = await Promise.all([embeddingOf(ctx, key, profile), embeddingOf(ctx, key, profile)]);
    expect(asked).toHaveLength(1);
    expect(a.length).toBeGreaterThan(0);
    expect(b).toBe(a);
    expect(await embeddingOf(ctx, key, profile)).toBe(a);
    expect(asked).toHaveLength(1);

    fail.on = true;
    const other = `listing:test-${Date.now()}:2`;
    await expect(Promise.all([embeddingOf(ctx, other, profile), embeddingOf(ctx, other, profile)])).rejects.toThrow("engine stopped");
    expect(asked).toHaveLength(2);
    fail.on = false;
    expect(await embeddingOf(ctx, other, profile)).toEqual(a);
    expect(asked).toHaveLength(3);
  }, 60_000);
});
