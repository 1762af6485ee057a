import type { AppContext } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import type { LibrarySort } from "../../platform/stores/libraryIndexes.js";
import { ApiError } from "../../platform/http/errors.js";
import { LIBRARY_MAX_OFFSET } from "../../platform/contract/voices.js";
import { planLibrarySearch, type SharedVoicesFilters } from "./libraryQuery.js";
import { libraryVoiceWire } from "./wire.js";
import { notInLibrary } from "./library.js";

/**
 * GET /v1/shared-voices: one indexed Query (or a few merged, for repeated use cases) and, beside
 * it, one projection Query of what the caller already added; then one BatchGet of the page's
 * listings (only the fields the page shows).
 */
export interface SharedVoicesRequest extends SharedVoicesFilters {
  page_size: number;
  page: number;
  sort?: LibrarySort;
  /** Continue after the last voice of the previous page (what `last_sort_id` answered). */
  last_sort_id?: string;
}

export async function searchSharedVoices(ctx: AppContext, caller: Caller, base: string, q: SharedVoicesRequest) {
  const sort = q.sort ?? "trending";
  const plan = planLibrarySearch(q, sort);
  const skip = q.last_sort_id ? 0 : q.page * q.page_size;
  if (skip + q.page_size > LIBRARY_MAX_OFFSET) {
    throw new ApiError(400, "page_too_deep", `Pages beyond the first ${LIBRARY_MAX_OFFSET} voices are not served by number; continue with last_sort_id.`);
  }
  const addedQuery = ctx.stores.voices.libraryCopies(caller.workspaceId);
  const result = await ctx.stores.library.search({ sort, ...plan, after: q.last_sort_id, skip, limit: q.page_size });
  const [listings, added] = await Promise.all([ctx.stores.library.summaries(result.rows.map((r) => r.voice_id)), addedQuery]);
  const nowUnix = Math.floor(ctx.now() / 1000);
  const voices = result.rows
    .map((r) => listings.get(r.voice_id))
    // A voice unpublished between the Query and the read is simply left out.
    .filter((l) => l !== undefined && l.status === "listed")
    .map((l) => libraryVoiceWire(l!, { base, nowUnix, addedByCaller: added }));
  return { voices, has_more: result.hasMore, total_count: null, last_sort_id: result.rows.at(-1)?.sort_key ?? null };
}

/** One listed voice as the library shows it (Timbre's own: the library page opens a voice by id). */
export async function sharedVoice(ctx: AppContext, caller: Caller, base: string, voiceId: string) {
  const [listings, added] = await Promise.all([ctx.stores.library.summaries([voiceId]), ctx.stores.voices.libraryCopies(caller.workspaceId)]);
  const l = listings.get(voiceId);
  if (!l || l.status !== "listed") throw notInLibrary(voiceId);
  return libraryVoiceWire(l, { base, nowUnix: Math.floor(ctx.now() / 1000), addedByCaller: added });
}
