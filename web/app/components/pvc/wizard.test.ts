import { describe, expect, it } from "vitest";
import { INTRO_POINTS, INTRO_TIPS, fileStatusText, formatTrimTime, moveTrimEdge, trimChanges, trimOf, formErrors, formatDuration, isUnfinished, nextState, pvcMessages, ringShare, totalSeconds, type PvcVoice } from "./wizard.js";

describe("the professional clone wizard's rules", () => {
  it("has three intro points and eight tips, one about Enterprise permission", () => {
    expect(INTRO_POINTS).toHaveLength(3);
    expect(INTRO_TIPS).toHaveLength(8);
    expect(INTRO_TIPS.filter((t) => /Enterprise customers can clone any voice with written permission/.test(t))).toHaveLength(1);
  });

  it("words a file's stages as the spec does", () => {
    expect(fileStatusText("pending", 0)).toBe("Uploading");
    expect(fileStatusText("uploading", 0)).toBe("Uploading");
    expect(fileStatusText("uploading", 42.4)).toBe("42% uploaded");
    expect(fileStatusText("uploading", 100)).toBe("100% uploaded");
    expect(fileStatusText("processing", 100)).toBe("Processing");
  });

  it("holds Next under 10 minutes with the tooltip, and while a file is on its way", () => {
    expect(nextState(599, false)).toEqual({ disabled: true, tooltip: "At least 10 minutes of audio samples is required" });
    expect(nextState(600, true)).toEqual({ disabled: true, tooltip: null });
    expect(nextState(600, false)).toEqual({ disabled: false, tooltip: null });
  });

  it("fills the ring to 2.5 hours and sums sample durations", () => {
    expect(ringShare(0)).toBe(0);
    expect(ringShare(1.25 * 3600)).toBe(0.5);
    expect(ringShare(10 * 3600)).toBe(1);
    expect(totalSeconds([{ sample_id: "a", file_name: "a", duration_secs: 40 }, { sample_id: "b", file_name: "b", duration_secs: null }])).toBe(40);
    expect(formatDuration(40)).toBe("40 s");
    expect(formatDuration(725)).toBe("12 min 5 s");
    expect(formatDuration(3720)).toBe("1 h 2 min");
  });

  it("checks the form with the API's messages", () => {
    expect(formErrors({ name: " ", description: "" })).toEqual({ name: pvcMessages.nameRequired });
    expect(formErrors({ name: "A", description: "x".repeat(501) })).toEqual({ description: pvcMessages.descriptionTooLong });
    expect(formErrors({ name: "A", description: "x".repeat(500) })).toEqual({});
  });

  it("lists unverified or never-trained professional clones as sessions to return to", () => {
    const base: PvcVoice = { voice_id: "v", name: "n", category: "professional", fine_tuning: { state: {} }, voice_verification: { requires_verification: false, is_verified: false } };
    expect(isUnfinished(base)).toBe(true);
    expect(isUnfinished({ ...base, fine_tuning: { state: { eleven_multilingual_v2: "fine_tuned" } } })).toBe(false);
    expect(isUnfinished({ ...base, fine_tuning: { state: { eleven_multilingual_v2: "fine_tuning" } }, voice_verification: { requires_verification: true, is_verified: false } })).toBe(true);
    expect(isUnfinished({ ...base, category: "cloned" })).toBe(false);
  });

  it("keeps a trim selection inside the audio and at least a second long", () => {
    const whole = { start: 0, end: 60_000 };
    expect(moveTrimEdge(whole, "start", 10_250, 60_000)).toEqual({ start: 10_250, end: 60_000 });
    expect(moveTrimEdge(whole, "start", -5, 60_000)).toEqual({ start: 0, end: 60_000 });
    expect(moveTrimEdge(whole, "end", 90_000, 60_000)).toEqual({ start: 0, end: 60_000 });
    // An edge stops a second from the other one.
    expect(moveTrimEdge({ start: 0, end: 5_000 }, "start", 4_800, 60_000)).toEqual({ start: 4_000, end: 5_000 });
    expect(moveTrimEdge({ start: 20_000, end: 30_000 }, "end", 20_100, 60_000)).toEqual({ start: 20_000, end: 21_000 });
    // Audio shorter than a second keeps all of it.
    expect(moveTrimEdge({ start: 0, end: 800 }, "end", 300, 800)).toEqual({ start: 0, end: 800 });
  });

  it("reads a sample's trim, sends only the edges that moved, and words its times", () => {
    expect(trimOf({ duration_secs: 42.5 })).toEqual({ start: 0, end: 42_500 });
    expect(trimOf({ duration_secs: 42.5, trim_start: 1_000, trim_end: 99_000 })).toEqual({ start: 1_000, end: 42_500 });
    expect(trimChanges({ start: 0, end: 42_500 }, { start: 1_500, end: 42_500 })).toEqual({ trim_start_time: 1_500 });
    expect(trimChanges({ start: 0, end: 42_500 }, { start: 0, end: 42_500 })).toEqual({});
    expect(formatTrimTime(65_340)).toBe("1:05.3");
    expect(formatTrimTime(0)).toBe("0:00.0");
  });
});
