import { describe, expect, it } from "vitest";
import { blendConflict, blendName, blendProfiles, clampSpeed, openaiVoiceId, parseBlend, readInstructions, timbreModel, SUPPORTED_RESPONSE_FORMATS } from "./mapping.js";
import { toOpenAIError } from "./errors.js";
import { premadeVoiceId, premadeVoiceRecords } from "../../platform/domain/premadeVoices.js";
import { tooManyConcurrent } from "../speech/slots.js";
import { quotaExceeded } from "../../platform/domain/quota.js";
import { ApiError, ValidationError } from "../../platform/http/errors.js";
import type { StoredVoiceProfile } from "../../platform/stores/voices.js";

const profile = (p: Partial<StoredVoiceProfile>): StoredVoiceProfile => ({ language: "en", gender: "female", age: "young", pitch: 50, pitchRange: 50, rate: 170, timbre: 0, seed: 1, ...p });

describe("OpenAI request mapping", () => {
  it("maps OpenAI's models and accepts Timbre's text-to-speech ids, nothing else", () => {
    expect(timbreModel("tts-1")?.model_id).toBe("eleven_flash_v2_5");
    expect(timbreModel("tts-1-hd")?.model_id).toBe("eleven_multilingual_v2");
    expect(timbreModel("gpt-4o-mini-tts")?.model_id).toBe("eleven_multilingual_v2");
    expect(timbreModel("eleven_v3")?.model_id).toBe("eleven_v3");
    expect(timbreModel("eleven_multilingual_sts_v2")).toBeUndefined(); // speech to speech only
    expect(timbreModel("whisper-1")).toBeUndefined();
  });

  it("maps every OpenAI voice name, any case, onto a premade English voice that exists", () => {
    const premade = new Map(premadeVoiceRecords().map((v) => [v.voice_id, v]));
    for (const name of ["alloy", "ash", "ballad", "coral", "echo", "fable", "onyx", "nova", "sage", "shimmer", "verse", "marin", "cedar"]) {
      const v = premade.get(openaiVoiceId(name)!);
      expect(v?.profile.language, name).toBe("en");
    }
    expect(openaiVoiceId("Nova")).toBe(premadeVoiceId("Avery"));
    expect(openaiVoiceId("Avery")).toBeUndefined();
  });

  it("lists only the formats it can encode (no AAC encoder here)", () => {
    expect(SUPPORTED_RESPONSE_FORMATS).toEqual(["mp3", "opus", "flac", "wav", "pcm"]);
  });

  it("clamps OpenAI's 0.25-4 speed onto Timbre's 0.7-1.2", () => {
    expect([0.25, 0.7, 1, 1.2, 4].map(clampSpeed)).toEqual([0.7, 0.7, 1, 1.2, 1.2]);
  });

  it("reads pace, mood and whispering from instructions; the last word of a group wins; the rest is ignored", () => {
    expect(readInstructions("Speak slowly and cheerfully, in a whisper.")).toEqual({
      speedFactor: 0.85,
      settings: { stability: 0.3, style: 0.6 },
      profile: { breathiness: 1, levelDb: -26 },
      applied: ["slowly", "cheerfully", "whisper"],
    });
    expect(readInstructions("Start calm, then get excited. Fast!").settings).toEqual({ stability: 0.3, style: 0.6 });
    expect(readInstructions("Start calm, then get excited. Fast!").speedFactor).toBe(1.15);
    expect(readInstructions("Sound like a pirate.")).toEqual({ speedFactor: 1, settings: {}, profile: {}, applied: [] });
    expect(readInstructions(null).applied).toEqual([]);
  });
});

describe("voice blends", () => {
  it("parses a(2)+b(1) and a+b (weight 1), and refuses malformed or unbounded blends", () => {
    expect(parseBlend("Avery")).toBeNull();
    expect(parseBlend("Avery(2)+Riley(1)")).toEqual([{ ref: "Avery", weight: 2 }, { ref: "Riley", weight: 1 }]);
    expect(parseBlend("af_bella + am_adam(0.5)")).toEqual([{ ref: "af_bella", weight: 1 }, { ref: "am_adam", weight: 0.5 }]);
    for (const bad of ["Avery(0)+Riley", "Avery+", "+Riley", "Avery(2+Riley", "Avery(x)+Riley", "A(101)+B", Array.from({ length: 9 }, (_, i) => `v${i}`).join("+")]) {
      expect(() => parseBlend(bad), bad).toThrow("syntax");
    }
  });

  it("averages the numeric profile fields by weight and keeps the heaviest voice's description", () => {
    const a = profile({ pitch: 60, rate: 180, timbre: 0.3, seed: 10, envelope: [0, 3], breathiness: 0.3, gender: "female" });
    const b = profile({ pitch: 30, rate: 150, timbre: -0.3, seed: 40, envelope: [3, 0], gender: "male", age: "old" });
    const mixed = blendProfiles([{ profile: a, weight: 2 }, { profile: b, weight: 1 }]);
    expect(mixed).toMatchObject({ language: "en", gender: "female", age: "young", pitch: 50, rate: 170, timbre: 0.1, seed: 20, envelope: [1, 2], breathiness: 0.2 });
    // Equal ratios are the same blend.
    expect(blendProfiles([{ profile: a, weight: 1 }, { profile: b, weight: 0.5 }])).toEqual(mixed);
  });

  it("requires the voices to share their language (and any other defining string field)", () => {
    expect(blendConflict([profile({}), profile({ accent: "british", gender: "male" })])).toBeNull();
    expect(blendConflict([profile({}), profile({ language: "de" })])).toEqual({ field: "language", values: ["en", "de"] });
    // One engine per blend; its base voice comes from the heaviest voice.
    expect(blendConflict([profile({ engine: "flite", engineVoice: "slt" } as never), profile({})])).toEqual({ field: "engine", values: ["flite", ""] });
    expect(blendConflict([profile({ engine: "flite", engineVoice: "slt" } as never), profile({ engine: "flite", engineVoice: "rms" } as never)])).toBeNull();
  });

  it("names a blend by its voices and weights", () => {
    const [x, y] = premadeVoiceRecords();
    expect(blendName([{ voice: x, weight: 2 }, { voice: y, weight: 1 }])).toBe(`${x.name}(2)+${y.name}(1)`);
  });
});

describe("errors in OpenAI's shape", () => {
  const body = (e: unknown) => toOpenAIError(e)!.toBody();
  it("keeps 429 and its Retry-After for a full queue, and turns an exhausted quota into 429 insufficient_quota", () => {
    const busy = toOpenAIError(tooManyConcurrent(2))!;
    expect(busy.statusCode).toBe(429);
    expect(busy.headers["retry-after"]).toBe("1");
    expect(body(tooManyConcurrent(2))).toEqual({ error: { message: expect.any(String), type: "rate_limit_exceeded", param: null, code: "too_many_concurrent_requests" } });
    const quota = toOpenAIError(quotaExceeded({ character_limit: 10, remaining: 0 }, 5))!;
    expect(quota.statusCode).toBe(429);
    expect(body(quotaExceeded({ character_limit: 10, remaining: 0 }, 5))).toMatchObject({ error: { type: "insufficient_quota", code: "insufficient_quota" } });
  });

  it("answers validation errors 400 with the parameter, keys 401, unknown voices 404", () => {
    const v = toOpenAIError(new ValidationError([{ loc: ["body", "speed"], msg: "Input should be a valid number", type: "number_type" }]))!;
    expect(v.statusCode).toBe(400);
    expect(v.toBody()).toEqual({ error: { message: "speed: Input should be a valid number", type: "invalid_request_error", param: "speed", code: "invalid_value" } });
    expect(toOpenAIError(new ApiError(401, "invalid_api_key", "Invalid API key"))!.toBody()).toEqual({ error: { message: "Invalid API key", type: "invalid_request_error", param: null, code: "invalid_api_key" } });
    expect(toOpenAIError(new ApiError(404, "voice_not_found", "no"))!.statusCode).toBe(404);
    expect(toOpenAIError(new Error("boom"))).toBeUndefined();
  });
});
