import { LIBRARY_INDEXES, type LibraryDimension, type LibrarySort } from "../../platform/stores/libraryIndexes.js";
import type { LibraryFilter, SortEntryFields } from "../../platform/stores/library.js";

/**
 * Turns a shared-voices search into one DynamoDB access pattern: the index that covers the most
 * of the request's equality filters (its key), and a FilterExpression for everything else.
 * Pure, so which index serves which request is tested directly.
 */
export interface SharedVoicesFilters {
  category?: string;
  gender?: string;
  age?: string;
  accent?: string;
  language?: string;
  locale?: string;
  search?: string;
  use_cases?: string[];
  descriptives?: string[];
  featured?: boolean;
  min_notice_period_days?: number;
  include_custom_rates?: boolean;
  include_live_moderated?: boolean;
  reader_app_enabled?: boolean;
  owner_id?: string;
}

export interface LibraryPlan {
  index: string;
  /** One Query per entry (several when a repeated filter is part of the key). */
  partitions: string[][];
  filters: LibraryFilter[];
}

/** Label values as stored: lower case, words joined by "_" ("Middle-aged" -> "middle_aged"). */
export const normaliseLabel = (s: string) => s.trim().toLowerCase().replace(/[\s-]+/g, "_");

const FIELD: Record<LibraryDimension, keyof SortEntryFields> = {
  language: "language",
  gender: "gender",
  age: "age",
  accent: "accent",
  category: "category",
  use_case: "use_case",
  featured: "featured",
  owner: "public_owner_id",
};

export const MAX_SEARCH_WORDS = 10;

export function planLibrarySearch(f: SharedVoicesFilters, sort: LibrarySort = "trending"): LibraryPlan {
  const eq = new Map<LibraryDimension, string[]>();
  const one = (d: LibraryDimension, v: string | undefined) => {
    if (v !== undefined && v.trim() !== "") eq.set(d, [d === "owner" || d === "category" ? v.trim() : normaliseLabel(v)]);
  };
  one("language", f.language);
  if (f.gender && normaliseLabel(f.gender) !== "any") one("gender", f.gender);
  one("age", f.age);
  one("accent", f.accent);
  one("category", f.category);
  one("owner", f.owner_id);
  const useCases = [...new Set((f.use_cases ?? []).map(normaliseLabel).filter(Boolean))];
  if (useCases.length) eq.set("use_case", useCases);
  if (f.featured === true) eq.set("featured", ["featured"]);

  // The index naming the most of the request's filters for this sort; earlier entries win ties.
  let best = LIBRARY_INDEXES[0];
  for (const index of LIBRARY_INDEXES) {
    if (index.sorts.includes(sort) && index.dims.every((d) => eq.has(d)) && index.dims.length > best.dims.length) best = index;
  }
  let partitions: string[][] = [[]];
  for (const d of best.dims) partitions = partitions.flatMap((p) => eq.get(d)!.map((v) => [...p, v]));

  const filters: LibraryFilter[] = [];
  for (const [d, values] of eq) {
    if (best.dims.includes(d)) continue;
    if (d === "featured") filters.push({ kind: "eq", field: "featured", value: true });
    else if (values.length === 1) filters.push({ kind: "eq", field: FIELD[d], value: values[0] });
    else filters.push({ kind: "in", field: FIELD[d], values });
  }
  const words = (f.search ?? "").toLowerCase().split(/\s+/).filter(Boolean).slice(0, MAX_SEARCH_WORDS);
  if (words.length) filters.push({ kind: "all_substrings", field: "search_text", values: words });
  const descriptives = [...new Set((f.descriptives ?? []).map(normaliseLabel).filter(Boolean))];
  if (descriptives.length) filters.push({ kind: "any_element", field: "descriptives", values: descriptives });
  if (f.locale?.trim()) filters.push({ kind: "eq", field: "locale", value: f.locale.trim().toLowerCase() });
  if (f.min_notice_period_days !== undefined && f.min_notice_period_days > 0) filters.push({ kind: "gte", field: "notice_period", value: f.min_notice_period_days });
  if (f.include_custom_rates === false) filters.push({ kind: "eq", field: "has_custom_rate", value: false });
  if (f.include_live_moderated === false) filters.push({ kind: "eq", field: "live_moderation_enabled", value: false });
  if (f.reader_app_enabled === true) filters.push({ kind: "eq", field: "reader_app_enabled", value: true });
  return { index: best.name, partitions, filters };
}

export type { LibrarySort };
