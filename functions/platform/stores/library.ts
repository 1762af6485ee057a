import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { Table } from "./table.js";
import { withoutKeys, type Stored } from "./table.js";
import type { StoredVoiceProfile, VoiceCategory } from "./voices.js";
import { LIBRARY_INDEXES, LIBRARY_SORTS, LIBRARY_SORT_ATTRIBUTE, libraryIndexKey, type LibraryDimension, type LibrarySort } from "./libraryIndexes.js";

/**
 * The voice library in its own table (see libraryIndexes.ts for the indexes and the filters they
 * serve). A published voice is one listing item, the one source of its public settings, notice
 * period and counters, plus one small sort entry per sort order that the indexes are built on.
 * Writes are read-modify-write on the listing with a revision number (no transactions in
 * dynalite); sort entries follow with a condition on that revision, so a late writer can never
 * put an older order back.
 */
export interface LibraryListing {
  voice_id: string;
  owner_workspace_id: string;
  owner_user_id: string;
  public_owner_id: string;
  /** Shown as the publisher ("Timbre Community" for the voices the project ships). */
  owner_name: string | null;
  /** The project made it (the seeded community voices). */
  made_by_timbre: boolean;
  /** "unpublished": removed from search; copies keep working until disable_at_unix. */
  status: "listed" | "unpublished";
  date_unix: number;
  updated_at_unix: number;
  name: string;
  description: string | null;
  category: VoiceCategory;
  language: string;
  accent: string | null;
  locale: string | null;
  gender: string;
  age: string;
  use_case: string;
  descriptives: string[];
  labels: Record<string, string>;
  preview_object_key: string | null;
  /** What a workspace that adds the voice gets: the voice as published. */
  profile: StoredVoiceProfile;
  high_quality_base_model_ids: string[];
  /** Credit multiplier; null is the standard rate (1). */
  rate: number | null;
  notice_period: number;
  disable_at_unix: number | null;
  free_users_allowed: boolean;
  live_moderation_enabled: boolean;
  featured: boolean;
  reader_app_enabled: boolean;
  cloned_by_count: number;
  /** Characters generated per UTC day (last 8 days) and per month (last 13 months). */
  usage_days: Record<string, number>;
  usage_months: Record<string, number>;
  /** The one-year figure as of the last write: what the usage sort orders by. */
  usage_character_count_1y: number;
  /** log2 of exponentially decayed activity (see functions/capabilities/voices/counters.ts): the trending order. */
  trend: number;
  /**
   * Speaker embedding of the preview (Float32 values, little-endian), for similar-voice search;
   * absent until computed (functions/capabilities/voices/similar.ts). Its definition's version beside it.
   */
  embedding?: Uint8Array | null;
  embedding_version?: number | null;
  rev: number;
}

/** A listed voice's embedding, as the similar-voice index loads it. */
export interface LibraryEmbeddingEntry {
  voice_id: string;
  embedding: Uint8Array;
  version: number;
}

/**
 * Embedding entries live in a few fixed partitions (by a hash of the voice id), so the whole set
 * loads with one Query per partition and no index: 10,000 voices are about 3 MB.
 */
export const EMBEDDING_PARTITIONS = 8;

function embeddingPartition(voiceId: string): number {
  let h = 0;
  for (let i = 0; i < voiceId.length; i++) h = (h * 31 + voiceId.charCodeAt(i)) >>> 0;
  return h % EMBEDDING_PARTITIONS;
}

const sameBytes = (a: Uint8Array | null | undefined, b: Uint8Array | null | undefined) =>
  !!a && !!b && a.length === b.length && a.every((x, i) => x === b[i]);

/** What a search page shows of a listing (read with a projection: the page's one BatchGet). */
export const LISTING_SUMMARY_FIELDS = [
  "voice_id", "public_owner_id", "owner_name", "made_by_timbre", "status", "date_unix", "name", "description", "category",
  "language", "accent", "locale", "gender", "age", "use_case", "descriptives", "preview_object_key", "rate", "notice_period",
  "free_users_allowed", "live_moderation_enabled", "featured", "cloned_by_count", "usage_days", "usage_months",
] as const satisfies ReadonlyArray<keyof LibraryListing>;
export type LibraryListingSummary = Pick<LibraryListing, (typeof LISTING_SUMMARY_FIELDS)[number]>;

/** A workspace that added a library voice, under the listing. */
export interface LibraryAdder {
  workspace_id: string;
  /** The workspace's own copy. */
  voice_id: string;
  added_at_unix: number;
}

/** Filter fields every sort entry carries (equality filters not covered by the index, and the rest). */
export interface SortEntryFields {
  voice_id: string;
  rev: number;
  language: string;
  gender: string;
  age: string;
  accent: string | null;
  category: string;
  use_case: string;
  descriptives: string[];
  locale: string | null;
  notice_period: number;
  has_custom_rate: boolean;
  live_moderation_enabled: boolean;
  reader_app_enabled: boolean;
  featured: boolean;
  public_owner_id: string;
  search_text: string;
}

/** A filter applied on a Query (not by its key). Fields are SortEntryFields names. */
export type LibraryFilter =
  | { kind: "eq"; field: keyof SortEntryFields; value: string | number | boolean }
  | { kind: "in"; field: keyof SortEntryFields; values: string[] }
  | { kind: "gte"; field: keyof SortEntryFields; value: number }
  /** Every word appears in the field (substring). */
  | { kind: "all_substrings"; field: "search_text"; values: string[] }
  /** The list field holds at least one of the values. */
  | { kind: "any_element"; field: "descriptives"; values: string[] };

export interface LibrarySearch {
  sort: LibrarySort;
  index: string;
  /** One Query per entry: the values of the index's dimensions, in its order. Several are merged. */
  partitions: string[][];
  filters: LibraryFilter[];
  /** Continue after this `lib_sort` value (exclusive). */
  after?: string;
  skip: number;
  limit: number;
}

export interface LibrarySearchResult {
  rows: Array<{ voice_id: string; sort_key: string }>;
  hasMore: boolean;
}

const keys = {
  listing: (voiceId: string) => ({ pk: `V#${voiceId}`, sk: "LISTING" }),
  sortEntry: (voiceId: string, sort: LibrarySort) => ({ pk: `V#${voiceId}`, sk: `SORT#${sort}` }),
  adder: (voiceId: string, ws: string) => ({ pk: `V#${voiceId}`, sk: `ADDER#${ws}` }),
  embedding: (voiceId: string) => ({ pk: `EMB#${embeddingPartition(voiceId)}`, sk: `V#${voiceId}` }),
};

/** The entry a listing's embedding is searched by: present while it is listed and embedded. */
function embeddingEntry(l: LibraryListing): (Stored<LibraryEmbeddingEntry> & { rev: number } & Record<string, unknown>) | null {
  if (l.status !== "listed" || !l.embedding || l.embedding_version == null) return null;
  return { ...keys.embedding(l.voice_id), voice_id: l.voice_id, embedding: l.embedding, version: l.embedding_version, rev: l.rev };
}

const pad = (n: number, width: number) => String(Math.max(0, Math.floor(n))).padStart(width, "0");

/** The value a sort orders by, as a string that sorts like the number. */
function sortValue(l: LibraryListing, sort: LibrarySort): string {
  switch (sort) {
    case "trending":
      return pad(Math.round(l.trend * 1e6), 15);
    case "created_date":
      return pad(l.date_unix, 15);
    case "cloned_by_count":
      return pad(l.cloned_by_count, 15);
    case "usage_character_count_1y":
      return pad(l.usage_character_count_1y, 15);
  }
}

/** Ties break by date, then id, so the order is total and a cursor is exact. */
export const sortKeyOf = (l: LibraryListing, sort: LibrarySort) => `${sortValue(l, sort)}#${pad(l.date_unix, 12)}#${l.voice_id}`;

const norm = (s: string | null | undefined) => (s ?? "").trim().toLowerCase();

function dimensionValue(l: LibraryListing, d: LibraryDimension): string | null {
  switch (d) {
    case "language":
      return norm(l.language) || null;
    case "gender":
      return norm(l.gender) || null;
    case "age":
      return norm(l.age) || null;
    case "accent":
      return norm(l.accent) || null;
    case "category":
      return l.category;
    case "use_case":
      return norm(l.use_case) || null;
    case "featured":
      return l.featured ? "featured" : null;
    case "owner":
      return l.public_owner_id;
  }
}

export const partitionKey = (sort: LibrarySort, values: string[]) => [sort, ...values].join("|");

export function searchText(l: Pick<LibraryListing, "name" | "description" | "labels" | "descriptives" | "use_case" | "accent" | "language">): string {
  return [l.name, l.description ?? "", ...Object.values(l.labels), ...l.descriptives, l.use_case, l.accent ?? "", l.language].join(" ").toLowerCase();
}

function sortEntry(l: LibraryListing, sort: LibrarySort): Stored<SortEntryFields> & Record<string, unknown> {
  const item: Stored<SortEntryFields> & Record<string, unknown> = {
    ...keys.sortEntry(l.voice_id, sort),
    voice_id: l.voice_id,
    rev: l.rev,
    language: norm(l.language),
    gender: norm(l.gender),
    age: norm(l.age),
    accent: norm(l.accent) || null,
    category: l.category,
    use_case: norm(l.use_case),
    descriptives: l.descriptives.map(norm),
    locale: l.locale ? l.locale.toLowerCase() : null,
    notice_period: l.notice_period,
    has_custom_rate: l.rate !== null && l.rate !== 1,
    live_moderation_enabled: l.live_moderation_enabled,
    reader_app_enabled: l.reader_app_enabled,
    featured: l.featured,
    public_owner_id: l.public_owner_id,
    search_text: searchText(l),
    [LIBRARY_SORT_ATTRIBUTE]: sortKeyOf(l, sort),
  };
  for (const index of LIBRARY_INDEXES) {
    if (!index.sorts.includes(sort)) continue;
    const values = index.dims.map((d) => dimensionValue(l, d));
    // Sparse: a voice without a value for a dimension is simply absent from that index.
    if (values.every((v) => v !== null)) item[libraryIndexKey(index.name)] = partitionKey(sort, values as string[]);
  }
  return item;
}

/** Everything but the revision: what decides whether a sort entry needs rewriting. */
const entryShape = (e: Record<string, unknown>) => JSON.stringify({ ...e, rev: 0 });

type Condition = { expression: string; names?: Record<string, string>; values?: Record<string, unknown> };

function filterExpression(filters: LibraryFilter[]): Condition | undefined {
  if (!filters.length) return undefined;
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  let n = 0;
  const name = (f: string) => {
    const k = `#f${Object.keys(names).length}`;
    names[k] = f;
    return k;
  };
  const val = (v: unknown) => {
    const k = `:v${n++}`;
    values[k] = v;
    return k;
  };
  const parts = filters.map((f) => {
    const field = name(f.field);
    switch (f.kind) {
      case "eq":
        return `${field} = ${val(f.value)}`;
      case "in":
        return `${field} IN (${f.values.map(val).join(", ")})`;
      case "gte":
        return `${field} >= ${val(f.value)}`;
      case "all_substrings":
        return f.values.map((v) => `contains(${field}, ${val(v)})`).join(" AND ");
      case "any_element":
        return `(${f.values.map((v) => `contains(${field}, ${val(v)})`).join(" OR ")})`;
    }
  });
  return { expression: parts.join(" AND "), names, values };
}

export class Library {
  constructor(readonly table: Table) {}

  async listing(voiceId: string): Promise<LibraryListing | undefined> {
    const item = await this.table.get<Stored<LibraryListing>>(keys.listing(voiceId));
    return item ? withoutKeys<LibraryListing>(item) : undefined;
  }

  async listings(voiceIds: string[]): Promise<Map<string, LibraryListing>> {
    const unique = [...new Set(voiceIds)];
    const items = unique.length ? await this.table.batchGet<Stored<LibraryListing>>(unique.map(keys.listing)) : [];
    return new Map(items.map((i) => [i.voice_id, withoutKeys<LibraryListing>(i)]));
  }

  async summaries(voiceIds: string[]): Promise<Map<string, LibraryListingSummary>> {
    const unique = [...new Set(voiceIds)];
    if (!unique.length) return new Map();
    const names = Object.fromEntries(LISTING_SUMMARY_FIELDS.map((f, i) => [`#p${i}`, f]));
    const items = await this.table.batchGet<LibraryListingSummary>(unique.map(keys.listing), { projection: Object.keys(names).join(", "), names });
    return new Map(items.map((i) => [i.voice_id, i]));
  }

  /**
   * Writes the listing if it is still at `expected.rev` (or absent when `expected` is null), then
   * brings its sort entries in line: present and current while listed, gone otherwise.
   * False when another writer changed the listing first (read again and retry).
   */
  async save(next: Omit<LibraryListing, "rev">, expected: LibraryListing | null): Promise<LibraryListing | undefined> {
    const listing: LibraryListing = { ...next, rev: (expected?.rev ?? 0) + 1 };
    const ok = await this.table.put(
      { ...keys.listing(listing.voice_id), ...listing },
      expected ? { condition: "rev = :rev", values: { ":rev": expected.rev } } : { ifAbsent: true },
    );
    if (!ok) return undefined;
    await this.syncSortEntries(listing, expected);
    return listing;
  }

  private async syncSortEntries(listing: LibraryListing, before: LibraryListing | null): Promise<void> {
    const newer = { expression: "attribute_not_exists(pk) OR rev < :rev", values: { ":rev": listing.rev } };
    const entry = embeddingEntry(listing);
    const had = before ? embeddingEntry(before) : null;
    const embeddingSync = entry
      ? had && had.version === entry.version && sameBytes(had.embedding, entry.embedding)
        ? undefined
        : this.table.put(entry, { condition: newer.expression, values: newer.values })
      : had
        ? this.table.delete(keys.embedding(listing.voice_id), newer)
        : undefined;
    await Promise.all([
      embeddingSync,
      ...LIBRARY_SORTS.map(async (sort) => {
        if (listing.status !== "listed") {
          await this.table.delete(keys.sortEntry(listing.voice_id, sort), newer);
          return;
        }
        const entry = sortEntry(listing, sort);
        if (before?.status === "listed" && entryShape(sortEntry(before, sort)) === entryShape(entry)) return;
        await this.table.put(entry, { condition: newer.expression, values: newer.values });
      }),
    ]);
  }

  /**
   * Many listings at once, unconditionally (the bench's 10,000 voices). Without `sortEntries`
   * they are not searchable by GET /v1/shared-voices (a bench of similar voices needs only the
   * listings and their embeddings).
   */
  async bulkInsert(listings: LibraryListing[], opts: { sortEntries?: boolean } = {}): Promise<void> {
    const items: Array<Record<string, unknown> & { pk: string; sk: string }> = [];
    for (const l of listings) {
      items.push({ ...keys.listing(l.voice_id), ...l });
      if (l.status === "listed" && opts.sortEntries !== false) for (const sort of LIBRARY_SORTS) items.push(sortEntry(l, sort));
      const e = embeddingEntry(l);
      if (e) items.push(e);
    }
    await this.table.batchPut(items);
  }

  async search(q: LibrarySearch): Promise<LibrarySearchResult> {
    const want = q.skip + q.limit + 1;
    const filter = filterExpression(q.filters);
    const streams = await Promise.all(q.partitions.map((values) => this.queryPartition(q, partitionKey(q.sort, values), filter, want)));
    const seen = new Set<string>();
    const merged = streams
      .flat()
      .sort((a, b) => (a.sort_key < b.sort_key ? 1 : a.sort_key > b.sort_key ? -1 : 0))
      .filter((r) => (seen.has(r.voice_id) ? false : (seen.add(r.voice_id), true)));
    const page = merged.slice(q.skip, q.skip + q.limit);
    return { rows: page, hasMore: merged.length > q.skip + q.limit };
  }

  private async queryPartition(q: LibrarySearch, pk: string, filter: Condition | undefined, want: number) {
    const names: Record<string, string> = { "#pk": libraryIndexKey(q.index), "#s": LIBRARY_SORT_ATTRIBUTE, "#id": "voice_id", ...(filter?.names ?? {}) };
    const values: Record<string, unknown> = { ":pk": pk, ...(filter?.values ?? {}) };
    let keyCondition = "#pk = :pk";
    if (q.after) {
      values[":after"] = q.after;
      keyCondition += " AND #s < :after";
    }
    const rows: Array<{ voice_id: string; sort_key: string }> = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const r = await this.table.doc.send(
        new QueryCommand({
          TableName: this.table.name,
          IndexName: q.index,
          KeyConditionExpression: keyCondition,
          FilterExpression: filter?.expression,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ProjectionExpression: "#id, #s",
          ScanIndexForward: false,
          // Without a filter every item read is a match, so read exactly what is needed; with
          // one, read in larger steps (the Limit counts items read, not matches).
          Limit: filter ? Math.max(want, 200) : want,
          ExclusiveStartKey: startKey,
        }),
      );
      for (const i of r.Items ?? []) rows.push({ voice_id: i.voice_id as string, sort_key: i[LIBRARY_SORT_ATTRIBUTE] as string });
      startKey = r.LastEvaluatedKey;
    } while (startKey && rows.length < want);
    return rows;
  }

  /** Every listed voice's embedding entry (the similar-voice index loads them all). */
  async embeddings(): Promise<LibraryEmbeddingEntry[]> {
    const parts = await Promise.all(
      Array.from({ length: EMBEDDING_PARTITIONS }, (_, i) =>
        this.table.query<Stored<LibraryEmbeddingEntry>>({
          KeyConditionExpression: "pk = :p",
          ExpressionAttributeValues: { ":p": `EMB#${i}` },
          ProjectionExpression: "voice_id, embedding, version",
        }),
      ),
    );
    return parts.flatMap((p) => p.items.map((i) => ({ voice_id: i.voice_id, embedding: i.embedding, version: i.version })));
  }

  /** The ids of every listed voice (newest first): what a backfill walks. */
  async listedVoiceIds(): Promise<string[]> {
    const index = LIBRARY_INDEXES[0].name;
    const r = await this.table.query<{ voice_id: string }>({
      IndexName: index,
      KeyConditionExpression: "#pk = :pk",
      ExpressionAttributeNames: { "#pk": libraryIndexKey(index), "#id": "voice_id" },
      ExpressionAttributeValues: { ":pk": partitionKey("created_date", []) },
      ProjectionExpression: "#id",
      ScanIndexForward: false,
    });
    return r.items.map((i) => i.voice_id);
  }

  async putAdder(listingId: string, a: LibraryAdder): Promise<boolean> {
    return this.table.put({ ...keys.adder(listingId, a.workspace_id), ...a }, { ifAbsent: true });
  }

  async adder(listingId: string, ws: string): Promise<LibraryAdder | undefined> {
    const item = await this.table.get<Stored<LibraryAdder>>(keys.adder(listingId, ws));
    return item ? withoutKeys<LibraryAdder>(item) : undefined;
  }

  async removeAdder(listingId: string, ws: string): Promise<void> {
    await this.table.delete(keys.adder(listingId, ws));
  }

  async adders(listingId: string): Promise<LibraryAdder[]> {
    return (await this.table.queryPrefix<Stored<LibraryAdder>>(`V#${listingId}`, "ADDER#")).map((i) => withoutKeys<LibraryAdder>(i));
  }
}
