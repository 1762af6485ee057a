import { describe, expect, it } from "vitest";
import { addLabel, canAddLabel, labelRows, labelsError, labelsRecord, LABEL_TYPES, removeLabel, setLabelType, setLabelValue } from "./labels.js";

describe("the label set", () => {
  it("starts with the language, fixed in first place", () => {
    const rows = labelRows({ gender: "female", language: "en", accent: "british" });
    expect(rows.map((r) => r.type)).toEqual(["language", "accent", "gender"]);
    expect(removeLabel(rows, 0)).toEqual(rows);
    expect(setLabelType(rows, 0, "age")).toEqual(rows);
    expect(labelRows({}).map((r) => r.type)).toEqual(["language"]);
  });

  it("clears the accent when the language changes", () => {
    const rows = labelRows({ language: "en", accent: "british" });
    expect(labelsRecord(setLabelValue(rows, "language", "en"))).toEqual({ language: "en", accent: "british" });
    expect(setLabelValue(rows, "language", "de").find((r) => r.type === "accent")?.value).toBe("");
  });

  it("uses each type once and disables Add label when all are used", () => {
    let rows = labelRows({ language: "en" });
    while (canAddLabel(rows)) rows = addLabel(rows);
    expect(rows.map((r) => r.type).sort()).toEqual([...LABEL_TYPES].sort());
    expect(addLabel(rows)).toEqual(rows);
    expect(setLabelType(rows, 1, "gender")).toEqual(rows);
  });

  it("needs a value for each label: 'Please set values for each label'", () => {
    const rows = addLabel(labelRows({ language: "en" }));
    expect(labelsError(rows)).toBe("Please set values for each label");
    expect(labelsError(setLabelValue(rows, rows[1]!.type, "x"))).toBeNull();
  });
});
