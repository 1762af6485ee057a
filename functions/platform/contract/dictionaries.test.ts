import { describe, expect, it } from "vitest";
import { canSave, dictionaryAlert, editorRuleFrom, requestFromEditorRule, ruleAlerts, ruleErrors, ruleFromRequest, type EditorRule } from "./dictionaries.js";

const row = (r: Partial<EditorRule> = {}): EditorRule => ({
  key: r.key ?? Math.random().toString(36),
  type: "alias",
  string_to_replace: "AI",
  output: "A I",
  alphabet: "ipa",
  case_sensitive: true,
  word_boundaries: true,
  ...r,
});

describe("rule checks in the editor (app-shell.md §5)", () => {
  it("gives the spec's messages for input and output", () => {
    expect(ruleErrors(row({ string_to_replace: " " }))).toEqual({ input: "Input is required" });
    expect(ruleErrors(row({ string_to_replace: "x".repeat(51) }))).toEqual({ input: "Input is too long" });
    expect(ruleErrors(row({ output: "" }))).toEqual({ output: "Output is required" });
    expect(ruleErrors(row({ output: "y".repeat(101) }))).toEqual({ output: "Output is too long" });
    expect(ruleErrors(row({ type: "phoneme", output: "təˈmeɪtoʊ" }))).toEqual({ output: "Output must start and end with /" });
    expect(ruleErrors(row({ type: "phoneme", output: "/təˈmeɪtoʊ/" }))).toEqual({});
    expect(ruleErrors(row({ type: "phoneme", alphabet: "cmu-arpabet", output: "T AH0 M EY1 T OW2" }))).toEqual({});
  });

  it("ranks alerts error > warning > change > static, warning on duplicates and phonemes without an english-only model", () => {
    const saved = new Map([["a", row({ key: "a" })]]);
    const rules = [row({ key: "a" }), row({ key: "b" }), row({ key: "c", string_to_replace: "" }), row({ key: "d", string_to_replace: "new" }), row({ key: "e", string_to_replace: "ph", type: "phoneme", output: "/f/" })];
    const alerts = ruleAlerts(rules, saved, "eleven_multilingual_v2");
    expect(alerts.get("a")).toEqual({ level: "warning", messages: ["Rule is already defined"] });
    expect(alerts.get("b")).toEqual({ level: "warning", messages: ["Rule is already defined"] });
    expect(alerts.get("c")?.level).toBe("error");
    expect(alerts.get("d")?.level).toBe("change");
    expect(alerts.get("e")).toEqual({ level: "warning", messages: ["Phonemes require an english-only model"] });
    expect(ruleAlerts([rules[4]], new Map(), "eleven_flash_v2").get("e")?.level).toBe("change");
    expect(ruleAlerts([row({ key: "a" })], saved, null).get("a")?.level).toBe("static");
    expect(dictionaryAlert(rules, alerts, saved, "admin").level).toBe("error");
  });

  it("enables Save only with changes, no errors and the editor or admin role", () => {
    const saved = new Map([["a", row({ key: "a" })]]);
    const same = [row({ key: "a" })];
    const edited = [row({ key: "a", output: "Artificial intelligence" })];
    const broken = [row({ key: "a", output: "" })];
    const check = (rules: EditorRule[], role: "admin" | "editor" | "viewer") => canSave(rules, ruleAlerts(rules, saved, null), saved, role);
    expect(check(same, "admin")).toBe(false);
    expect(check(edited, "editor")).toBe(true);
    expect(check(edited, "viewer")).toBe(false);
    expect(check(broken, "admin")).toBe(false);
    expect(check([], "admin")).toBe(true); // a removed rule is a change
    expect(dictionaryAlert(edited, ruleAlerts(edited, saved, null), saved, "viewer")).toEqual({ level: "warning", message: "Editor role required for saving changes" });
  });

  it("round-trips editor rows and API rules: IPA shown with slashes, stored without", () => {
    const stored = { type: "phoneme" as const, string_to_replace: "tomato", phoneme: "təˈmeɪtoʊ", alphabet: "ipa" as const, case_sensitive: false, word_boundaries: true };
    const editor = editorRuleFrom(stored, "k");
    expect(editor.output).toBe("/təˈmeɪtoʊ/");
    const back = ruleFromRequest(requestFromEditorRule(editor));
    expect(back).toEqual({ rule: stored });
  });
});
