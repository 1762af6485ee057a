import { TIERS, type Tier } from "../../../../functions/platform/domain/tiers.js";
import { AGES, DESCRIPTIVES, GENDERS, LIBRARY_PAGE_SIZE_MAX, LIBRARY_SORT_VALUES, NOTICE_PERIOD_DAYS, USE_CASES } from "../../../../functions/platform/contract/voices.js";

/**
 * The voice library's filters (voice-creation.md §2.5, §3) as the page keeps them in its query
 * string, and as GET /v1/shared-voices takes them. Pure, so both directions are tested.
 */

/** speech-generation.md §9: the library loads 500 voices per page; /v1 answers 100 per call. */
export const LIBRARY_PAGE_SIZE = 500;
export const LIBRARY_REQUEST_SIZE = LIBRARY_PAGE_SIZE_MAX;

export type LibrarySort = (typeof LIBRARY_SORT_VALUES)[number];
export type Gender = "any" | (typeof GENDERS)[number];
export type Quality = "any" | "high_quality";

/** Categories offered as a filter (quality has its own control: high_quality is a category on the wire). */
export const CATEGORY_FILTERS = ["professional", "generated", "cloned", "famous"] as const;
export type CategoryFilter = (typeof CATEGORY_FILTERS)[number];

export interface LibraryFilters {
  search: string;
  sort: LibrarySort;
  gender: Gender;
  age: (typeof AGES)[number] | null;
  language: string | null;
  accent: string | null;
  category: CategoryFilter | null;
  quality: Quality;
  useCases: Array<(typeof USE_CASES)[number]>;
  descriptives: Array<(typeof DESCRIPTIVES)[number]>;
  featured: boolean;
  /** Only voices whose notice period is at least this many days. */
  noticePeriod: (typeof NOTICE_PERIOD_DAYS)[number] | null;
  /** false: leave out voices with a custom rate. */
  customRates: boolean;
  /** false: leave out live-moderated voices. */
  liveModeration: boolean;
  ownerId: string | null;
}

export const DEFAULT_FILTERS: LibraryFilters = {
  search: "",
  sort: "trending",
  gender: "any",
  age: null,
  language: null,
  accent: null,
  category: null,
  quality: "any",
  useCases: [],
  descriptives: [],
  featured: false,
  noticePeriod: null,
  customRates: true,
  liveModeration: true,
  ownerId: null,
};

export const SORT_LABELS: Record<LibrarySort, string> = {
  trending: "Trending",
  created_date: "Latest",
  cloned_by_count: "Most users",
  usage_character_count_1y: "Most used",
};

const oneOf = <T extends string>(values: readonly T[], v: string | null): T | null => (v !== null && (values as readonly string[]).includes(v) ? (v as T) : null);
const short = (v: string | null, max: number) => {
  const t = v?.trim() ?? "";
  return t && t.length <= max ? t : null;
};

/** The filters a query string asks for; anything unknown or malformed is ignored. */
export function parseLibraryFilters(params: URLSearchParams): LibraryFilters {
  const list = <T extends string>(name: string, values: readonly T[]) =>
    [...new Set(params.getAll(name).flatMap((v) => v.split(",")).map((v) => oneOf(values, v.trim())).filter((v): v is T => v !== null))];
  const notice = Number(params.get("min_notice_period_days"));
  return {
    search: (params.get("search") ?? "").slice(0, 200),
    sort: oneOf(LIBRARY_SORT_VALUES, params.get("sort")) ?? DEFAULT_FILTERS.sort,
    gender: oneOf(GENDERS, params.get("gender")) ?? "any",
    age: oneOf(AGES, params.get("age")),
    language: short(params.get("language"), 20)?.toLowerCase() ?? null,
    accent: short(params.get("accent"), 50)?.toLowerCase() ?? null,
    category: oneOf(CATEGORY_FILTERS, params.get("category")),
    quality: params.get("quality") === "high_quality" ? "high_quality" : "any",
    useCases: list("use_cases", USE_CASES),
    descriptives: list("descriptives", DESCRIPTIVES),
    featured: params.get("featured") === "true",
    noticePeriod: (NOTICE_PERIOD_DAYS as readonly number[]).includes(notice) ? (notice as LibraryFilters["noticePeriod"]) : null,
    customRates: params.get("include_custom_rates") !== "false",
    liveModeration: params.get("include_live_moderated") !== "false",
    ownerId: short(params.get("owner_id"), 64),
  };
}

/** Names of the query parameters the filters own (everything else in the URL is kept). */
export const FILTER_PARAMS = [
  "search", "sort", "gender", "age", "language", "accent", "category", "quality", "use_cases", "descriptives", "featured",
  "min_notice_period_days", "include_custom_rates", "include_live_moderated", "owner_id",
] as const;

/** The query string for `filters` on top of `base` (defaults are left out, so URLs stay short). */
export function writeLibraryFilters(filters: LibraryFilters, base = new URLSearchParams()): URLSearchParams {
  const p = new URLSearchParams(base);
  for (const name of FILTER_PARAMS) p.delete(name);
  if (filters.search.trim()) p.set("search", filters.search.trim());
  if (filters.sort !== DEFAULT_FILTERS.sort) p.set("sort", filters.sort);
  if (filters.gender !== "any") p.set("gender", filters.gender);
  if (filters.age) p.set("age", filters.age);
  if (filters.language) p.set("language", filters.language);
  if (filters.accent) p.set("accent", filters.accent);
  if (filters.category) p.set("category", filters.category);
  if (filters.quality !== "any") p.set("quality", filters.quality);
  for (const u of filters.useCases) p.append("use_cases", u);
  for (const d of filters.descriptives) p.append("descriptives", d);
  if (filters.featured) p.set("featured", "true");
  if (filters.noticePeriod) p.set("min_notice_period_days", String(filters.noticePeriod));
  if (!filters.customRates) p.set("include_custom_rates", "false");
  if (!filters.liveModeration) p.set("include_live_moderated", "false");
  if (filters.ownerId) p.set("owner_id", filters.ownerId);
  return p;
}

/** The /v1/shared-voices query for one request of a page. */
export function sharedVoicesPath(filters: LibraryFilters, opts: { pageSize: number; lastSortId?: string | null }): string {
  const p = new URLSearchParams({ page_size: String(opts.pageSize), sort: filters.sort });
  if (filters.search.trim()) p.set("search", filters.search.trim());
  if (filters.gender !== "any") p.set("gender", filters.gender);
  if (filters.age) p.set("age", filters.age);
  if (filters.language) p.set("language", filters.language);
  if (filters.accent) p.set("accent", filters.accent);
  // Quality is a category on the wire: high quality wins over a chosen category.
  const category = filters.quality === "high_quality" ? "high_quality" : filters.category;
  if (category) p.set("category", category);
  for (const u of filters.useCases) p.append("use_cases", u);
  for (const d of filters.descriptives) p.append("descriptives", d);
  if (filters.featured) p.set("featured", "true");
  if (filters.noticePeriod) p.set("min_notice_period_days", String(filters.noticePeriod));
  if (!filters.customRates) p.set("include_custom_rates", "false");
  if (!filters.liveModeration) p.set("include_live_moderated", "false");
  if (filters.ownerId) p.set("owner_id", filters.ownerId);
  if (opts.lastSortId) p.set("last_sort_id", opts.lastSortId);
  return `/v1/shared-voices?${p}`;
}

/** How many filters differ from the defaults (search and sort are not filters). */
export function activeFilterCount(f: LibraryFilters): number {
  return (
    Number(f.gender !== "any") + Number(f.age !== null) + Number(f.language !== null) + Number(f.accent !== null) + Number(f.category !== null) +
    Number(f.quality !== "any") + f.useCases.length + f.descriptives.length + Number(f.featured) + Number(f.noticePeriod !== null) +
    Number(!f.customRates) + Number(!f.liveModeration) + Number(f.ownerId !== null)
  );
}

/** True when anything that narrows the results is set: a similar-voice search cannot be combined with it. */
export const narrowsResults = (f: LibraryFilters) => activeFilterCount(f) > 0 || f.search.trim() !== "";

/** speech-generation.md §9: days, shown as 1 year above 364 days and 2 years above 366 days. */
export function formatNoticePeriod(days: number): string {
  if (days > 366) return "2 years";
  if (days > 364) return "1 year";
  return days === 1 ? "1 day" : `${days} days`;
}

/**
 * speech-generation.md §6: a voice's owner sees its custom rate in dollars, others the multiplier.
 * Timbre prices credits by the plan: what 1,000 characters with the voice cost at the owner's plan's
 * price per credit (its monthly price over its monthly credits); null on a plan without a price.
 */
export function rateInDollars(rate: number, tierId: string): string | null {
  const tier = (TIERS as Record<string, Tier | undefined>)[tierId];
  if (!tier || tier.priceUsdMonthly <= 0 || tier.characterLimit <= 0 || !(rate > 0)) return null;
  const usd = (tier.priceUsdMonthly / tier.characterLimit) * 1000 * rate;
  return `$${usd < 0.01 ? usd.toFixed(4) : usd.toFixed(2)} per 1,000 characters at the ${tier.name} plan's price`;
}

/** speech-generation.md §9: numbers abbreviated with K, M and B. */
export function abbreviateNumber(n: number): string {
  const abs = Math.abs(n);
  const units: Array<[number, string]> = [
    [1e9, "B"],
    [1e6, "M"],
    [1e3, "K"],
  ];
  for (const [size, suffix] of units) {
    if (abs >= size) {
      const v = n / size;
      const text = Math.abs(v) >= 100 ? Math.round(v).toString() : (Math.round(v * 10) / 10).toString();
      return `${text}${suffix}`;
    }
  }
  return String(Math.round(n));
}

/** speech-generation.md §9: at most 2 stat badges. */
export const MAX_STAT_BADGES = 2;

export function voiceStats(v: { cloned_by_count: number; usage_character_count_1y: number }): string[] {
  const out: string[] = [];
  if (v.cloned_by_count > 0) out.push(`${abbreviateNumber(v.cloned_by_count)} ${v.cloned_by_count === 1 ? "user" : "users"}`);
  if (v.usage_character_count_1y > 0) out.push(`${abbreviateNumber(v.usage_character_count_1y)} characters in a year`);
  return out.slice(0, MAX_STAT_BADGES);
}

/** Readable label values ("middle_aged" -> "middle aged"). */
export const readable = (v: string) => v.replace(/_/g, " ");
