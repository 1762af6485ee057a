import { describe, expect, it } from "vitest";
import { planLibrarySearch } from "./libraryQuery.js";

describe("shared-voices access patterns: which index serves which filters", () => {
  it("serves language + gender + age from one composite index, with no filter left", () => {
    expect(planLibrarySearch({ language: "en", gender: "Female", age: "Middle-aged" })).toEqual({
      index: "lib_language_gender_age",
      partitions: [["en", "female", "middle_aged"]],
      filters: [],
    });
  });

  it("serves each supported combination by key", () => {
    expect(planLibrarySearch({}).index).toBe("lib_all");
    expect(planLibrarySearch({ language: "de" }).index).toBe("lib_language");
    expect(planLibrarySearch({ language: "de", gender: "male" }).index).toBe("lib_language_gender");
    expect(planLibrarySearch({ language: "en", accent: "british" }).index).toBe("lib_language_accent");
    expect(planLibrarySearch({ gender: "male", age: "old" }).index).toBe("lib_gender_age");
    expect(planLibrarySearch({ age: "old" }).index).toBe("lib_age");
    expect(planLibrarySearch({ accent: "scottish" }).index).toBe("lib_accent");
    expect(planLibrarySearch({ category: "professional" }).index).toBe("lib_category");
    expect(planLibrarySearch({ featured: true }).index).toBe("lib_featured");
    expect(planLibrarySearch({ owner_id: "abc" })).toMatchObject({ index: "lib_owner", partitions: [["abc"]] });
  });

  it("serves the counter sorts from the single-filter indexes, filtering the rest", () => {
    const plan = planLibrarySearch({ language: "en", gender: "female", age: "young" }, "cloned_by_count");
    expect(plan.index).toBe("lib_language");
    expect(plan.filters).toEqual([
      { kind: "eq", field: "gender", value: "female" },
      { kind: "eq", field: "age", value: "young" },
    ]);
    expect(planLibrarySearch({ gender: "male", featured: true }, "usage_character_count_1y").index).toBe("lib_featured");
    expect(planLibrarySearch({ age: "old", accent: "british" }, "created_date").index).toBe("lib_age");
  });

  it("runs one Query per repeated use case and merges them", () => {
    const plan = planLibrarySearch({ use_cases: ["narrative_story", "advertisement"] });
    expect(plan.index).toBe("lib_use_case");
    expect(plan.partitions).toEqual([["narrative_story"], ["advertisement"]]);
    expect(planLibrarySearch({ language: "es", use_cases: ["conversational", "social_media"] })).toMatchObject({
      index: "lib_language_use_case",
      partitions: [["es", "conversational"], ["es", "social_media"]],
      filters: [],
    });
  });

  it("keeps what the chosen index does not cover as a filter on that Query", () => {
    const plan = planLibrarySearch({ language: "en", gender: "female", age: "young", accent: "american", featured: true, search: "Warm  narrator", descriptives: ["calm", "deep"] });
    expect(plan.index).toBe("lib_language_gender_age");
    expect(plan.filters).toEqual([
      { kind: "eq", field: "accent", value: "american" },
      { kind: "eq", field: "featured", value: true },
      { kind: "all_substrings", field: "search_text", values: ["warm", "narrator"] },
      { kind: "any_element", field: "descriptives", values: ["calm", "deep"] },
    ]);
  });

  it("turns the library terms into filters and ignores 'any' gender", () => {
    const plan = planLibrarySearch({ gender: "any", min_notice_period_days: 90, include_custom_rates: false, include_live_moderated: false, reader_app_enabled: true, locale: "en-US" });
    expect(plan.index).toBe("lib_all");
    expect(plan.filters).toEqual([
      { kind: "eq", field: "locale", value: "en-us" },
      { kind: "gte", field: "notice_period", value: 90 },
      { kind: "eq", field: "has_custom_rate", value: false },
      { kind: "eq", field: "live_moderation_enabled", value: false },
      { kind: "eq", field: "reader_app_enabled", value: true },
    ]);
  });
});
