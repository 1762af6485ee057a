import { describe, expect, it } from "vitest";
import { applyRules, compileRules, findMatches, type ApplyOptions } from "./apply.js";
import { resourceRole, shareWithGroup } from "./roles.js";
import { MappedText } from "../speech/textmap.js";
import type { PronunciationRule } from "../../platform/contract/dictionaries.js";

const alias = (string_to_replace: string, a: string, flags: Partial<PronunciationRule> = {}): PronunciationRule => ({
  type: "alias",
  string_to_replace,
  alias: a,
  case_sensitive: true,
  word_boundaries: true,
  ...flags,
}) as PronunciationRule;
const phoneme = (string_to_replace: string, p: string): PronunciationRule => ({ type: "phoneme", string_to_replace, phoneme: p, alphabet: "ipa", case_sensitive: true, word_boundaries: true });

const opts = (phonemes: boolean): ApplyOptions => ({ phonemes, respell: () => "RESPELT", speakable: () => ({ ok: true, skipped: [] }) });
const spoken = (text: string, ...dicts: PronunciationRule[][]) => applyRules(MappedText.identity(text), dicts.map(compileRules), opts(false)).text.text;

describe("matching rules", () => {
  it("keeps word boundaries: letters, digits and marks on either side block a match", () => {
    const d = [alias("nin", "ninja", { case_sensitive: false })];
    expect(spoken("nin nintendo anin nin2 Nin's (nin)", d)).toBe("ninja nintendo anin nin2 ninja's (ninja)");
    expect(spoken("café cafés", [alias("café", "coffee")])).toBe("coffee cafés");
    expect(spoken("nintendo", [alias("nin", "X", { word_boundaries: false })])).toBe("Xtendo");
  });

  it("matches case-sensitively by default and case-insensitively when asked", () => {
    expect(spoken("Api API api", [alias("API", "A P I")])).toBe("Api A P I api");
    expect(spoken("Api API api", [alias("API", "A P I", { case_sensitive: false })])).toBe("A P I A P I A P I");
  });

  it("lets the first dictionary, then the first rule, win where matches overlap", () => {
    expect(spoken("New York", [alias("York", "Y")], [alias("New York", "NY")])).toBe("New Y");
    expect(spoken("New York", [alias("New York", "NY"), alias("York", "Y")])).toBe("NY");
    expect(spoken("aaa", [alias("aa", "b", { word_boundaries: false })])).toBe("ba");
  });

  it("matches multi-word inputs, punctuation and single characters", () => {
    expect(spoken("C++ and C#, & more", [alias("C++", "C plus plus"), alias("C#", "C sharp"), alias("&", "and")])).toBe("C plus plus and C sharp, and more");
  });

  it("finds every match with ten thousand rules sharing a prefix on a long text", () => {
    const rules = Array.from({ length: 10_000 }, (_, i) => alias(`word${i}`, `w ${i}`));
    const text = Array.from({ length: 4_000 }, (_, i) => `word${i * 7} plain`).join(" ");
    const m = findMatches(text, [compileRules(rules)]);
    expect(m.length).toBe(Math.ceil(10_000 / 7));
  });
});

describe("applying rules", () => {
  it("maps timings of replaced spans back to the caller's characters", () => {
    const r = applyRules(MappedText.identity("Hi W3C!"), [compileRules([alias("W3C", "World Wide Web Consortium")])], opts(false));
    expect(r.text.text).toBe("Hi World Wide Web Consortium!");
    expect(r.text.originalRange(3, 28)).toEqual({ start: 3, end: 6 });
    expect(r.text.originalRange(28, 29)).toEqual({ start: 6, end: 7 });
  });

  it("turns phoneme rules into spans in the rewritten text's coordinates on phoneme models", () => {
    const r = applyRules(MappedText.identity("AI says tomato"), [compileRules([alias("AI", "Artificial intelligence"), phoneme("tomato", "təˈmeɪtoʊ")])], opts(true));
    expect(r.text.text).toBe("Artificial intelligence says tomato");
    expect(r.phonemeSpans).toEqual([{ start: 29, end: 35, phonemes: "təˈmeɪtoʊ", alphabet: "ipa" }]);
    expect(r.respelled).toEqual([]);
  });

  it("respells phoneme rules on other models and reports them", () => {
    const r = applyRules(MappedText.identity("tomato, tomato"), [compileRules([phoneme("tomato", "təˈmeɪtoʊ")])], opts(false));
    expect(r.text.text).toBe("RESPELT, RESPELT");
    expect(r.phonemeSpans).toEqual([]);
    expect(r.respelled).toHaveLength(1);
    expect(r.respelled[0]).toMatchObject({ respelling: "RESPELT", reason: "model" });
  });
});

describe("dictionary roles", () => {
  const resource = { created_by: "owner", role_to_group_ids: { viewer: ["default"], editor: ["writers"] }, user_roles: { u2: "admin" as const } };
  it("makes the creator and workspace admins admin, and takes the highest grant otherwise", () => {
    expect(resourceRole(resource, { userId: "owner", isWorkspaceAdmin: false, groupIds: ["default"] })).toBe("admin");
    expect(resourceRole(resource, { userId: "x", isWorkspaceAdmin: true, groupIds: ["default"] })).toBe("admin");
    expect(resourceRole(resource, { userId: "u1", isWorkspaceAdmin: false, groupIds: ["default"] })).toBe("viewer");
    expect(resourceRole(resource, { userId: "u1", isWorkspaceAdmin: false, groupIds: ["default", "writers"] })).toBe("editor");
    expect(resourceRole(resource, { userId: "u2", isWorkspaceAdmin: false, groupIds: ["default"] })).toBe("admin");
    expect(resourceRole({ ...resource, role_to_group_ids: {} }, { userId: "u1", isWorkspaceAdmin: false, groupIds: ["default"] })).toBeNull();
  });

  it("gives a group one role at a time when sharing", () => {
    expect(shareWithGroup(resource, "default", "editor")).toEqual({ editor: ["writers", "default"] });
    expect(shareWithGroup(resource, "writers", null)).toEqual({ viewer: ["default"] });
  });
});
