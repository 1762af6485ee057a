/**
 * My Voices' list (speech-generation.md §9: pages of 100) as the page keeps it in its query
 * string, and as GET /v2/voices takes it.
 */
export const MY_VOICES_PAGE_SIZE = 100;

export const MY_VOICE_FILTERS = ["all", "cloned", "professional", "generated", "community", "default"] as const;
export type MyVoiceFilter = (typeof MY_VOICE_FILTERS)[number];

export const MY_VOICE_FILTER_LABELS: Record<MyVoiceFilter, string> = {
  all: "All voices",
  cloned: "Cloned",
  professional: "Professional",
  generated: "Generated",
  community: "From the library",
  default: "Default",
};

export const MY_VOICE_SORTS = ["newest", "name"] as const;
export type MyVoiceSort = (typeof MY_VOICE_SORTS)[number];
export const MY_VOICE_SORT_LABELS: Record<MyVoiceSort, string> = { newest: "Newest first", name: "Name" };

export interface MyVoicesQuery {
  search: string;
  filter: MyVoiceFilter;
  sort: MyVoiceSort;
  collectionId: string | null;
}

const oneOf = <T extends string>(values: readonly T[], v: string | null, fallback: T): T => ((values as readonly string[]).includes(v ?? "") ? (v as T) : fallback);

export function parseMyVoicesQuery(params: URLSearchParams): MyVoicesQuery {
  const collection = params.get("collection")?.trim() ?? "";
  return {
    search: (params.get("search") ?? "").slice(0, 200),
    filter: oneOf(MY_VOICE_FILTERS, params.get("category"), "all"),
    sort: oneOf(MY_VOICE_SORTS, params.get("sort"), "newest"),
    collectionId: collection && collection.length <= 64 ? collection : null,
  };
}

export function writeMyVoicesQuery(q: MyVoicesQuery, base = new URLSearchParams()): URLSearchParams {
  const p = new URLSearchParams(base);
  for (const k of ["search", "category", "sort", "collection"]) p.delete(k);
  if (q.search.trim()) p.set("search", q.search.trim());
  if (q.filter !== "all") p.set("category", q.filter);
  if (q.sort !== "newest") p.set("sort", q.sort);
  if (q.collectionId) p.set("collection", q.collectionId);
  return p;
}

/** One page of GET /v2/voices for the query. */
export function myVoicesPath(q: MyVoicesQuery, nextPageToken: string | null = null): string {
  const p = new URLSearchParams({ page_size: String(MY_VOICES_PAGE_SIZE) });
  if (q.sort === "name") {
    p.set("sort", "name");
    p.set("sort_direction", "asc");
  } else {
    p.set("sort", "created_at_unix");
    p.set("sort_direction", "desc");
  }
  if (q.search.trim()) p.set("search", q.search.trim());
  if (q.filter === "community" || q.filter === "default") p.set("voice_type", q.filter);
  else if (q.filter !== "all") p.set("category", q.filter);
  if (q.collectionId) p.set("collection_id", q.collectionId);
  if (nextPageToken) p.set("next_page_token", nextPageToken);
  return `/v2/voices?${p}`;
}

/** Which category name a voice shows (the wire's "premade" is "Default" in the app). */
export function categoryLabel(category: string): string {
  switch (category) {
    case "premade":
      return "Default";
    case "high_quality":
      return "High quality";
    case "dub_specific":
      return "Dub specific";
    default:
      return category.charAt(0).toUpperCase() + category.slice(1);
  }
}
