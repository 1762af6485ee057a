import { describe, expect, it } from "vitest";
import { TIERS } from "../../../../functions/platform/domain/tiers.js";
import {
  abbreviateNumber,
  activeFilterCount,
  DEFAULT_FILTERS,
  formatNoticePeriod,
  rateInDollars,
  LIBRARY_PAGE_SIZE,
  LIBRARY_REQUEST_SIZE,
  narrowsResults,
  parseLibraryFilters,
  sharedVoicesPath,
  voiceStats,
  writeLibraryFilters,
} from "./library.js";

const params = (s: string) => new URLSearchParams(s);

describe("library filters in the query string", () => {
  it("reads every filter of voice-creation.md §2.5 and §3, ignoring unknown values", () => {
    const f = parseLibraryFilters(
      params(
        "search=warm&sort=cloned_by_count&gender=female&age=middle_aged&language=EN&accent=british&category=professional&quality=high_quality" +
          "&use_cases=narrative_story&use_cases=advertisement,bogus&descriptives=calm&featured=true&min_notice_period_days=90" +
          "&include_custom_rates=false&include_live_moderated=false&owner_id=abc",
      ),
    );
    expect(f).toEqual({
      search: "warm",
      sort: "cloned_by_count",
      gender: "female",
      age: "middle_aged",
      language: "en",
      accent: "british",
      category: "professional",
      quality: "high_quality",
      useCases: ["narrative_story", "advertisement"],
      descriptives: ["calm"],
      featured: true,
      noticePeriod: 90,
      customRates: false,
      liveModeration: false,
      ownerId: "abc",
    });
    expect(parseLibraryFilters(params("sort=loudest&gender=robot&age=ancient&min_notice_period_days=45&category=high_quality"))).toEqual(DEFAULT_FILTERS);
  });

  it("writes back only what differs from the defaults, keeping other parameters", () => {
    const base = params("voiceId=abc&mode=create&gender=male");
    const written = writeLibraryFilters({ ...DEFAULT_FILTERS, language: "de", useCases: ["conversational", "social_media"] }, base);
    expect(written.toString()).toBe("voiceId=abc&mode=create&language=de&use_cases=conversational&use_cases=social_media");
    expect(parseLibraryFilters(writeLibraryFilters(parseLibraryFilters(params("gender=neutral&featured=true&include_custom_rates=false"))))).toMatchObject({
      gender: "neutral",
      featured: true,
      customRates: false,
    });
  });

  it("asks /v1/shared-voices for pages of 100 following last_sort_id, high quality as the category", () => {
    expect(LIBRARY_PAGE_SIZE).toBe(500);
    expect(LIBRARY_REQUEST_SIZE).toBe(100);
    const path = sharedVoicesPath({ ...DEFAULT_FILTERS, quality: "high_quality", category: "generated", gender: "female", noticePeriod: 30 }, { pageSize: 100, lastSortId: "x#1" });
    const q = new URL(path, "http://x").searchParams;
    expect(q.get("category")).toBe("high_quality");
    expect(q.get("page_size")).toBe("100");
    expect(q.get("last_sort_id")).toBe("x#1");
    expect(q.get("min_notice_period_days")).toBe("30");
    expect(q.get("gender")).toBe("female");
    expect(q.get("sort")).toBe("trending");
    expect(new URL(sharedVoicesPath(DEFAULT_FILTERS, { pageSize: 100 }), "http://x").searchParams.has("gender")).toBe(false);
  });

  it("counts active filters; search narrows results but is not a filter", () => {
    expect(activeFilterCount(DEFAULT_FILTERS)).toBe(0);
    expect(activeFilterCount({ ...DEFAULT_FILTERS, useCases: ["conversational", "advertisement"], featured: true })).toBe(3);
    expect(narrowsResults({ ...DEFAULT_FILTERS, search: "deep" })).toBe(true);
    expect(narrowsResults({ ...DEFAULT_FILTERS, sort: "created_date" })).toBe(false);
  });
});

describe("library numbers", () => {
  it("shows notice periods in days, as 1 year above 364 days and 2 years above 366", () => {
    expect(formatNoticePeriod(30)).toBe("30 days");
    expect(formatNoticePeriod(364)).toBe("364 days");
    expect(formatNoticePeriod(365)).toBe("1 year");
    expect(formatNoticePeriod(366)).toBe("1 year");
    expect(formatNoticePeriod(367)).toBe("2 years");
    expect(formatNoticePeriod(730)).toBe("2 years");
  });

  it("abbreviates with K, M and B", () => {
    expect(abbreviateNumber(999)).toBe("999");
    expect(abbreviateNumber(1_000)).toBe("1K");
    expect(abbreviateNumber(1_250)).toBe("1.3K");
    expect(abbreviateNumber(254_000)).toBe("254K");
    expect(abbreviateNumber(3_400_000)).toBe("3.4M");
    expect(abbreviateNumber(2_000_000_000)).toBe("2B");
  });

  it("shows at most two stats", () => {
    expect(voiceStats({ cloned_by_count: 1, usage_character_count_1y: 12_500 })).toEqual(["1 user", "12.5K characters in a year"]);
    expect(voiceStats({ cloned_by_count: 0, usage_character_count_1y: 0 })).toEqual([]);
  });
});

describe("a custom rate in dollars (what the voice's owner sees)", () => {
  it("prices 1,000 characters at the owner's plan's price per credit, times the rate", () => {
    const creator = TIERS.creator;
    const perThousand = (creator.priceUsdMonthly / creator.characterLimit) * 1000;
    expect(rateInDollars(2, "creator")).toBe(`$${(perThousand * 2).toFixed(2)} per 1,000 characters at the Creator plan's price`);
    expect(rateInDollars(2, "creator")).not.toBe(rateInDollars(1, "creator"));
    // Cheap enough to need more digits than cents.
    expect(rateInDollars(0.01, "creator")).toMatch(/^\$0\.00\d\d per/);
  });

  it("says nothing on a plan without a price, an unknown plan, or a rate that is not positive", () => {
    expect(rateInDollars(2, "free")).toBeNull();
    expect(rateInDollars(2, "no-such-plan")).toBeNull();
    expect(rateInDollars(0, "creator")).toBeNull();
  });
});
