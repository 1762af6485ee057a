/**
 * The access patterns of the voice library (GET /v1/shared-voices), declared once: the CDK table
 * (infra/constructs/data.ts) creates one GSI per entry and the library store queries them.
 *
 * Every published voice has one small "sort entry" item per sort order. A sort entry carries the
 * partition key of each index below as `{sort}|{value}|{value}...` and one shared sort attribute,
 * `lib_sort` (the sort value, zero-padded, then the date and the voice id). So one Query on
 * `{index}` with `pk = {sort}|{filter values}`, descending, returns the matching voices already
 * in the requested order: every filter an index names is a key condition, not a filter.
 *
 * Which index serves which filters (the planner picks the index that covers the most of the
 * request's equality filters for the requested sort; the rest become a FilterExpression on that
 * Query). Combinations are kept for the two orders the library page shows by default
 * (trending, created_date); the counter orders, whose entries are rewritten as voices are used,
 * carry the single-filter indexes only:
 *
 *   lib_all                  (no filter)                  every sort; the fallback of any combination
 *   lib_language             language                     every sort
 *   lib_category             category                     every sort
 *   lib_use_case             use_case                     every sort (use_cases repeated: one Query per value, merged)
 *   lib_featured             featured=true                every sort (sparse: only featured voices have the key)
 *   lib_owner                owner_id                     every sort
 *   lib_language_gender      language + gender            trending, created_date
 *   lib_language_gender_age  language + gender + age      trending, created_date: the page's usual three filters
 *   lib_language_accent      language + accent            trending, created_date
 *   lib_language_use_case    language + use_case          trending, created_date
 *   lib_gender               gender                       trending, created_date
 *   lib_gender_age           gender + age                 trending, created_date
 *   lib_age                  age                          trending, created_date
 *   lib_accent               accent                       trending, created_date
 *
 * Always a FilterExpression on the chosen Query: search (words in name, description, labels),
 * descriptives, locale, min_notice_period_days, include_custom_rates=false,
 * include_live_moderated=false, reader_app_enabled, and whatever equality filters the chosen
 * index does not cover. Sorts: trending, created_date, cloned_by_count, usage_character_count_1y
 * (all newest / highest first).
 */
export const LIBRARY_SORTS = ["trending", "created_date", "cloned_by_count", "usage_character_count_1y"] as const;
export type LibrarySort = (typeof LIBRARY_SORTS)[number];

export type LibraryDimension = "language" | "gender" | "age" | "accent" | "category" | "use_case" | "featured" | "owner";

export interface LibraryIndex {
  name: string;
  dims: readonly LibraryDimension[];
  /** The sorts whose entries carry this index's key. */
  sorts: readonly LibrarySort[];
}

const BROWSING: readonly LibrarySort[] = ["trending", "created_date"];

export const LIBRARY_INDEXES: readonly LibraryIndex[] = [
  { name: "lib_all", dims: [], sorts: LIBRARY_SORTS },
  { name: "lib_language", dims: ["language"], sorts: LIBRARY_SORTS },
  { name: "lib_category", dims: ["category"], sorts: LIBRARY_SORTS },
  { name: "lib_use_case", dims: ["use_case"], sorts: LIBRARY_SORTS },
  { name: "lib_featured", dims: ["featured"], sorts: LIBRARY_SORTS },
  { name: "lib_owner", dims: ["owner"], sorts: LIBRARY_SORTS },
  { name: "lib_language_gender", dims: ["language", "gender"], sorts: BROWSING },
  { name: "lib_language_gender_age", dims: ["language", "gender", "age"], sorts: BROWSING },
  { name: "lib_language_accent", dims: ["language", "accent"], sorts: BROWSING },
  { name: "lib_language_use_case", dims: ["language", "use_case"], sorts: BROWSING },
  { name: "lib_gender", dims: ["gender"], sorts: BROWSING },
  { name: "lib_gender_age", dims: ["gender", "age"], sorts: BROWSING },
  { name: "lib_age", dims: ["age"], sorts: BROWSING },
  { name: "lib_accent", dims: ["accent"], sorts: BROWSING },
];

/** The sort attribute every library index shares. */
export const LIBRARY_SORT_ATTRIBUTE = "lib_sort";

/** The partition-key attribute of a library index. */
export const libraryIndexKey = (index: string) => `${index}_pk`;
