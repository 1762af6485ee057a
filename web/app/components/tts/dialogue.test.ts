import { describe, expect, it } from "vitest";
import {
  assignSpeakerVoices,
  blocksFromSpeakerLines,
  capDialogue,
  dialogueInputs,
  dialogueStability,
  nextPreference,
  parseSpeakerLines,
  voiceForNewSpeaker,
  type DialogueBlock,
} from "./dialogue.js";

const block = (text: string, voiceId = "v1"): DialogueBlock => ({ id: Math.random().toString(36), voiceId, text });

describe("pasting a dialogue", () => {
  it("splits 'Speaker: text' lines into one entry per speaker line", () => {
    expect(parseSpeakerLines("Anna: Hi there.\nBen: Hello!\n\nAnna: How are you?\nfine, thanks")).toEqual([
      { speaker: "Anna", text: "Hi there." },
      { speaker: "Ben", text: "Hello!" },
      { speaker: "Anna", text: "How are you? fine, thanks" },
    ]);
  });

  it("is not a dialogue with fewer than two speaker lines, URLs or times", () => {
    expect(parseSpeakerLines("Just a sentence.")).toBeNull();
    expect(parseSpeakerLines("Anna: one line only")).toBeNull();
    expect(parseSpeakerLines("See https://example.com\nand http://x.y")).toBeNull();
    expect(parseSpeakerLines("10:30 start\n11:00 end")).toBeNull();
  });

  it("keeps text before the first speaker for the block pasted into", () => {
    expect(parseSpeakerLines("Intro line\nAnna: a\nBen: b")![0]).toEqual({ speaker: "", text: "Intro line" });
  });

  it("gives each speaker a voice: by name, else one not used yet, the same speaker always the same", () => {
    const candidates = [
      { voice_id: "avery", name: "Avery" },
      { voice_id: "marcus", name: "Marcus" },
      { voice_id: "lena", name: "Studio/Lena" },
    ];
    const voices = assignSpeakerVoices(["Anna", "lena", "Ben", "Anna"], { currentVoiceId: "avery", candidates });
    expect(voices.get("lena")).toBe("lena");
    expect(voices.get("Anna")).toBe("avery");
    expect(voices.get("Ben")).toBe("marcus");
    const lines = parseSpeakerLines("Anna: a\nBen: b\nAnna: c")!;
    const blocks = blocksFromSpeakerLines(lines, assignSpeakerVoices(lines.map((l) => l.speaker), { currentVoiceId: "avery", candidates }));
    expect(blocks.map((b) => [b.voiceId, b.text])).toEqual([["avery", "a"], ["marcus", "b"], ["avery", "c"]]);
  });

  it("reuses voices in turn when there are more speakers than voices", () => {
    const voices = assignSpeakerVoices(["A", "B", "C"], { currentVoiceId: "x", candidates: [{ voice_id: "y", name: "Y" }] });
    expect([voices.get("A"), voices.get("B"), voices.get("C")]).toEqual(["x", "y", "x"]);
  });
});

describe("dialogue caps", () => {
  it("deletes blocks past 50 with the spec's warning", () => {
    const { blocks, warnings } = capDialogue(Array.from({ length: 53 }, (_, i) => block(`line ${i}`)), 5000);
    expect(blocks).toHaveLength(50);
    expect(warnings).toEqual(["You have reached the maximum number of dialogues in this speech."]);
  });

  it("truncates text past the character cap with the spec's warning", () => {
    const { blocks, warnings } = capDialogue([block("aaaa"), block("bbbb"), block("cccc")], 6);
    expect(blocks.map((b) => b.text)).toEqual(["aaaa", "bb"]);
    expect(warnings).toEqual(["You can only have up to 6 characters in the speech."]);
    expect(capDialogue([block("ok")], 6)).toMatchObject({ warnings: [] });
  });

  it("counts the cap in code points, so emoji count once and are never cut in half", () => {
    expect(capDialogue([block("😀😀😀"), block("😀😀😀")], 6)).toMatchObject({ warnings: [] });
    const { blocks } = capDialogue([block("😀😀😀"), block("😀😀😀😀")], 5);
    expect(blocks.map((b) => b.text)).toEqual(["😀😀😀", "😀😀"]);
  });

  it("ignores empty blocks and trims text in the request", () => {
    expect(dialogueInputs([block("  Hi  ", "a"), block("   ", "b"), block("", "c"), block("Bye", "d")])).toEqual([
      { text: "Hi", voice_id: "a" },
      { text: "Bye", voice_id: "d" },
    ]);
  });

  it("rounds stability to steps of 0.5", () => {
    expect([0, 0.2, 0.26, 0.5, 0.74, 0.76, 1].map(dialogueStability)).toEqual([0, 0, 0.5, 0.5, 0.5, 1, 1]);
  });

  it("alternates speakers when one is added", () => {
    expect(voiceForNewSpeaker([block("a", "x")], ["x", "y"])).toBe("y");
    expect(voiceForNewSpeaker([block("a", "x"), block("b", "y")], ["z"])).toBe("x");
    expect(voiceForNewSpeaker([], ["x"])).toBe("x");
  });
});

describe("dialogue preference", () => {
  it("keeps the same choice and clears on the other one", () => {
    expect(nextPreference(null, "a")).toBe("a");
    expect(nextPreference("a", "a")).toBe("a");
    expect(nextPreference("a", "b")).toBeNull();
    expect(nextPreference(null, "b")).toBe("b");
  });
});
