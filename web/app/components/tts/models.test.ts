import { describe, expect, it } from "vitest";
import { MODELS } from "../../../../functions/platform/domain/models.js";
import { modelWire } from "../../../../functions/capabilities/speech/api/models.js";
import { clampToSlider, DIALOGUE_STABILITY, SLIDERS } from "./settings.js";
import { costIndicator, creditCost, formatMultiplier, modelForTask, modelForVoice, modelMessages, summariseLanguages, textLimit } from "./models.js";

const models = MODELS.map((m) => modelWire(m));

describe("model switching", () => {
  it("keeps a model that can do the task and switches one that cannot", () => {
    expect(modelForTask(models, "eleven_flash_v2_5", "tts")).toEqual({ modelId: "eleven_flash_v2_5", error: null });
    expect(modelForTask(models, "eleven_flash_v2_5", "sts")).toEqual({ modelId: "eleven_multilingual_sts_v2", error: null });
    expect(modelForTask(models, "eleven_english_sts_v2", "tts")).toEqual({ modelId: "eleven_multilingual_v2", error: null });
    expect(modelForTask(models, null, "tts").modelId).toBe("eleven_multilingual_v2");
  });

  it("says 'No model found for this task' when no model can do it", () => {
    const ttsOnly = models.filter((m) => m.can_do_text_to_speech);
    expect(modelForTask(ttsOnly, "eleven_v3", "sts")).toEqual({ modelId: null, error: "No model found for this task. Please select another task." });
  });

  it("switches a professional voice without a fine-tuned model to eleven_multilingual_v2, with a warning", () => {
    const pro = { name: "Studio/Nora", category: "professional", high_quality_base_model_ids: ["eleven_flash_v2_5"] };
    expect(modelForVoice(models, "eleven_flash_v2_5", pro, "tts")).toEqual({ modelId: "eleven_flash_v2_5", warning: null });
    expect(modelForVoice(models, "eleven_turbo_v2_5", pro, "tts")).toEqual({
      modelId: "eleven_multilingual_v2",
      warning: modelMessages.notFineTuned("Nora", "Eleven Turbo v2.5", "Eleven Multilingual v2"),
    });
    expect(modelForVoice(models, "eleven_turbo_v2_5", pro, "sts").modelId).toBe("eleven_multilingual_sts_v2");
    // Other voices never force a switch.
    expect(modelForVoice(models, "eleven_turbo_v2_5", { ...pro, category: "cloned" }, "tts").warning).toBeNull();
  });
});

describe("limits and cost", () => {
  it("limits text to the smaller of the model's maximum and 40,000", () => {
    expect(textLimit({ maximum_text_length_per_request: 5_000 })).toBe(5_000);
    expect(textLimit({ maximum_text_length_per_request: 100_000 })).toBe(40_000);
  });

  it("costs characters times the model multiplier, rounded up", () => {
    expect(creditCost(1000, 1)).toBe(1000);
    expect(creditCost(1001, 0.5)).toBe(501);
    expect(creditCost(0, 0.5)).toBe(0);
  });

  it("shows cost against 5,000 credits and suggests Studio above it", () => {
    expect(costIndicator(2500)).toEqual({ percent: 50, useStudio: false });
    expect(costIndicator(5000)).toEqual({ percent: 100, useStudio: false });
    expect(costIndicator(7000)).toEqual({ percent: 100, useStudio: true });
  });

  it("describes multipliers and languages compactly", () => {
    expect(formatMultiplier(0.5)).toBe("0.5x");
    expect(formatMultiplier(1)).toBe("1x");
    expect(summariseLanguages([{ name: "English" }])).toBe("English");
    expect(summariseLanguages("abcdef".split("").map((name) => ({ name })))).toBe("a, b, c, d +2 more");
  });
});

describe("voice settings sliders", () => {
  it("have the spec's ranges and defaults", () => {
    expect(SLIDERS.stability).toMatchObject({ min: 0, max: 1, step: 0.01, defaultValue: 0.5 });
    expect(SLIDERS.similarity_boost).toMatchObject({ min: 0, max: 1 });
    expect(SLIDERS.style).toMatchObject({ min: 0, max: 1 });
    expect(SLIDERS.speed).toMatchObject({ min: 0.7, max: 1.2, defaultValue: 1 });
  });

  it("warn under 30% stability and over 50% style exaggeration", () => {
    expect(SLIDERS.stability.warning!(0.29)).toBe("Under 30% may lead to instability");
    expect(SLIDERS.stability.warning!(0.3)).toBeNull();
    expect(SLIDERS.style.warning!(0.51)).toBe("Over 50% may lead to instability");
    expect(SLIDERS.style.warning!(0.5)).toBeNull();
  });

  it("keep values in range and on the step; dialogue stability has three stops", () => {
    expect(clampToSlider(SLIDERS.speed, 2)).toBe(1.2);
    expect(clampToSlider(SLIDERS.stability, 0.123)).toBe(0.12);
    expect(clampToSlider(DIALOGUE_STABILITY, 0.7)).toBe(0.5);
    expect([0, 0.5, 1].map(DIALOGUE_STABILITY.format)).toEqual(["Creative", "Natural", "Robust"]);
  });
});
