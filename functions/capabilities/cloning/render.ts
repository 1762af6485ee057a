/**
 * A fit's renderer (fit.ts): the engine reads the language's calibration passage (passages.ts)
 * at stability 1 with a fixed seed, and the analyser measures it. The 16-bit PCM goes to the
 * analyser as it is (converted there): no per-sample work on the request loop. Synthesis runs on
 * the engine's workers, analysis on the analyser's.
 */
import type { AppContext } from "../../platform/context.js";
import type { VoiceProfile } from "../../media/engine/port.js";
import type { VoiceAnalysis } from "../../media/voice-analysis/port.js";
import { speakPcm16 } from "../voice-clone/render.js";
import { calibrationPassage } from "./passages.js";
import type { Renderer } from "./fit.js";

/** The seed a fit renders with: fixed, so the same recordings always fit the same profile. */
const FIT_SEED = 3;

export function engineRenderer(ctx: AppContext, language: string, signal?: AbortSignal): Renderer {
  const passage = calibrationPassage(language);
  return {
    flite: true,
    async render(profile: VoiceProfile): Promise<VoiceAnalysis> {
      const { pcm, sampleRate } = await speakPcm16(ctx, profile, passage, { seed: FIT_SEED, settings: { stability: 1 }, signal });
      return ctx.analyzer().analyzeSamples(pcm, sampleRate, { signal });
    },
  };
}
