import { describe, expect, it } from "vitest";
import { DEFAULT_VOICE_SETTINGS, keepPerRequest, resetAll, resetSlider, setSlider, SLIDERS, sliderValue, ttsVoiceSettings } from "./settings.js";

const all = { can_use_style: true, can_use_speaker_boost: true };

describe("the volume slider (app-shell.md §5: -30 to +5 dB)", () => {
  it("runs from -30 to +5 dB in 1 dB steps, 0 by default, shown signed", () => {
    expect([SLIDERS.volume.min, SLIDERS.volume.max, SLIDERS.volume.step, SLIDERS.volume.defaultValue]).toEqual([-30, 5, 1, 0]);
    expect(SLIDERS.volume.format(-12)).toBe("-12 dB");
    expect(SLIDERS.volume.format(3)).toBe("+3 dB");
    expect(SLIDERS.volume.format(0)).toBe("0 dB");
    expect(sliderValue(DEFAULT_VOICE_SETTINGS, "volume")).toBe(0);
  });

  it("double-click resets it to 0 dB and leaves the other sliders", () => {
    const moved = setSlider({ ...DEFAULT_VOICE_SETTINGS, stability: 0.2 }, "volume", -12);
    expect(moved.volume).toBe(-12);
    const reset = resetSlider(moved, "volume");
    expect(sliderValue(reset, "volume")).toBe(0);
    expect(reset.volume).toBeUndefined();
    expect(reset.stability).toBe(0.2);
  });

  it("double-click on another slider resets that one and keeps the volume", () => {
    const s = resetSlider({ ...DEFAULT_VOICE_SETTINGS, stability: 0.1, volume: -6 }, "stability");
    expect(s.stability).toBe(SLIDERS.stability.defaultValue);
    expect(s.volume).toBe(-6);
  });

  it("'Reset values' resets volume and noise removal with the rest", () => {
    const s = resetAll({ ...DEFAULT_VOICE_SETTINGS, speed: 1.1, volume: 4, remove_background_noise: true });
    expect(s).toEqual({ ...DEFAULT_VOICE_SETTINGS, use_speaker_boost: true });
  });
});

describe("the request's voice_settings", () => {
  it("sends volume only when it is not 0 dB, and remove_background_noise only when on", () => {
    expect(ttsVoiceSettings(DEFAULT_VOICE_SETTINGS, all)).not.toHaveProperty("volume");
    expect(ttsVoiceSettings(DEFAULT_VOICE_SETTINGS, all)).not.toHaveProperty("remove_background_noise");
    const body = ttsVoiceSettings({ ...DEFAULT_VOICE_SETTINGS, volume: -10, remove_background_noise: true }, all);
    expect(body.volume).toBe(-10);
    expect(body.remove_background_noise).toBe(true);
  });

  it("leaves out style and speaker boost when the model cannot use them", () => {
    const body = ttsVoiceSettings(DEFAULT_VOICE_SETTINGS, { can_use_style: false, can_use_speaker_boost: false });
    expect(Object.keys(body).sort()).toEqual(["similarity_boost", "speed", "stability"]);
  });

  it("another voice's settings keep the page's volume and noise removal", () => {
    const next = keepPerRequest({ ...DEFAULT_VOICE_SETTINGS, volume: -8, remove_background_noise: true }, { ...DEFAULT_VOICE_SETTINGS, stability: 0.9 });
    expect(next).toEqual({ ...DEFAULT_VOICE_SETTINGS, stability: 0.9, volume: -8, remove_background_noise: true });
    expect(keepPerRequest(DEFAULT_VOICE_SETTINGS, { ...DEFAULT_VOICE_SETTINGS, volume: 2 }).volume).toBe(2);
  });
});
