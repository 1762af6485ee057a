import { describe, expect, it } from "vitest";
import { mostUsedVoices } from "./usage.js";

describe("voices used most", () => {
  it("counts each generation's voice (and each dialogue voice once) and orders by use, then recency", () => {
    const items = [
      { voice_id: "b", voice_name: "Bea", dialogue: null },
      { voice_id: "a", voice_name: "Avery", dialogue: null },
      { voice_id: null, voice_name: null, dialogue: [{ text: "x", voice_id: "a", voice_name: "Avery" }, { text: "y", voice_id: "c", voice_name: "Cy" }, { text: "z", voice_id: "a", voice_name: "Avery" }] },
      { voice_id: "b", voice_name: "Bea", dialogue: null },
    ];
    expect(mostUsedVoices(items, 4).map((v) => [v.name, v.uses])).toEqual([["Bea", 2], ["Avery", 2], ["Cy", 1]]);
    expect(mostUsedVoices(items, 1).map((v) => v.voice_id)).toEqual(["b"]);
    expect(mostUsedVoices([], 3)).toEqual([]);
  });
});
