import { describe, expect, it } from "vitest";
import {
  groupVoices,
  parseRecentVoices,
  recentVoiceIds,
  recordRecentVoice,
  voiceBadges,
  voiceDisplayName,
  voicePickerEmptyState,
  RECENT_VOICES_MAX,
  type RecentVoices,
} from "./voices.js";

const v = (voice_id: string, category: string, is_legacy = false) => ({ voice_id, category, is_legacy });

describe("voice picker", () => {
  it("groups voices in the spec's order: Recent, Dub Specific, Professional, Cloned, Generated, Default", () => {
    const voices = [v("p1", "premade"), v("c1", "cloned"), v("g1", "generated"), v("pro1", "professional"), v("d1", "dub_specific"), v("p2", "premade")];
    const groups = groupVoices(voices, { c1: 5, p2: 9 }, { searching: false });
    expect(groups.map((g) => g.label)).toEqual(["Recent", "Dub Specific", "Professional", "Cloned", "Generated", "Default"]);
    expect(groups[0]!.voices.map((x) => x.voice_id)).toEqual(["p2", "c1"]);
    expect(groups.at(-1)!.voices.map((x) => x.voice_id)).toEqual(["p1", "p2"]);
  });

  it("shows legacy voices, in a Legacy group, only when searching", () => {
    const voices = [v("p1", "premade"), v("old", "premade", true)];
    expect(groupVoices(voices, {}, { searching: false }).map((g) => g.label)).toEqual(["Default"]);
    const searched = groupVoices(voices, {}, { searching: true });
    expect(searched.map((g) => g.label)).toEqual(["Default", "Legacy"]);
    expect(searched[1]!.voices.map((x) => x.voice_id)).toEqual(["old"]);
  });

  it("fills Recent from the recent voices when not searching, and only from results when searching", () => {
    const recentVoices = [v("r1", "cloned")];
    expect(groupVoices([v("p1", "premade")], { r1: 1 }, { searching: false, recentVoices })[0]).toMatchObject({ label: "Recent", voices: [{ voice_id: "r1" }] });
    expect(groupVoices([v("p1", "premade")], { r1: 1 }, { searching: true, recentVoices }).map((g) => g.label)).toEqual(["Default"]);
  });

  it("has the empty states 'No results found.' when searching and 'No voices' otherwise", () => {
    expect(voicePickerEmptyState([], true)).toBe("No results found.");
    expect(voicePickerEmptyState([], false)).toBe("No voices");
    expect(voicePickerEmptyState(groupVoices([v("a", "premade")], {}, { searching: false }), false)).toBeNull();
  });

  it("hides a name prefix before the slash", () => {
    expect(voiceDisplayName("Studio/Adam")).toBe("Adam");
    expect(voiceDisplayName("Adam")).toBe("Adam");
    expect(voiceDisplayName("Team/Narrators/Bea")).toBe("Narrators/Bea");
    expect(voiceDisplayName("Trailing/")).toBe("Trailing/");
  });

  it("shows at most 8 badges, language first and readable", () => {
    expect(voiceBadges({ gender: "female", language: "en", use_case: "narrative_story", age: "middle_aged" })).toEqual(["English", "female", "middle aged", "narrative story"]);
    const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, `v${i}`]));
    expect(voiceBadges(many)).toHaveLength(8);
  });
});

describe("recent voices", () => {
  it("orders by last use, most recent first, and keeps at most 10", () => {
    let recent: RecentVoices = {};
    for (let i = 0; i < 12; i++) recent = recordRecentVoice(recent, `v${i}`, 1000 + i);
    expect(Object.keys(recent)).toHaveLength(RECENT_VOICES_MAX);
    expect(recentVoiceIds(recent)[0]).toBe("v11");
    expect(recent.v0).toBeUndefined();
    expect(recent.v1).toBeUndefined();
    // Using an old voice again moves it to the front.
    recent = recordRecentVoice(recent, "v2", 5000);
    expect(recentVoiceIds(recent).slice(0, 2)).toEqual(["v2", "v11"]);
  });

  it("ignores malformed stored data", () => {
    expect(parseRecentVoices(null)).toEqual({});
    expect(parseRecentVoices("not json")).toEqual({});
    expect(parseRecentVoices("[1,2]")).toEqual({});
    expect(parseRecentVoices(JSON.stringify({ a: 3, b: "x", c: 1 }))).toEqual({ a: 3, c: 1 });
  });
});
