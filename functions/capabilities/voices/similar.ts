import type { AppContext } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import type { LibraryListing } from "../../platform/stores/library.js";
import { AudioDecodeError, AudioLimitError } from "../../media/audio/decode/index.js";
import { sniffAudioType } from "../../media/audio/sniff.js";
import { EMBEDDING_DIM, EMBEDDING_VERSION, EmbeddingIndex, type Match } from "../../media/voice-analysis/index.js";
import { ApiError } from "../../platform/http/errors.js";
import { similarVoiceMessages, SIMILAR_AUDIO_MAX_BYTES, SIMILAR_AUDIO_MAX_SECONDS, SIMILAR_TOP_K_DEFAULT } from "../../platform/contract/voices.js";
import { updateListing } from "./listings.js";
import { listingIdOf, voiceNotFound } from "./records.js";
import { libraryVoiceWire } from "./wire.js";
import { yieldToInteractive } from "../speech/slots.js";

/**
 * Similar voices: every listed library voice carries a speaker embedding of its preview (computed
 * on the analyzer's worker threads when it is published, and for the community voices when their
 * previews are made); a search embeds the query audio the same way and ranks the library by
 * cosine similarity with a linear scan (EmbeddingIndex: about a millisecond for 10,000 voices).
 *
 * Each process keeps the library's embeddings in memory, loaded from the store's embedding
 * entries and reloaded in the background when older than INDEX_MAX_AGE_MS; what this process
 * itself embeds or unpublishes changes it at once. Results are always read back from the listings, so a voice removed since the load is
 * never answered.
 */
export const INDEX_MAX_AGE_MS = 60_000;

/** Float32 values, little-endian, as stored. */
export function encodeEmbedding(values: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(values.length * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < values.length; i++) view.setFloat32(i * 4, values[i], true);
  return out;
}

export function decodeEmbedding(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(Math.floor(bytes.byteLength / 4));
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

const isZero = (v: ArrayLike<number>) => Array.prototype.every.call(v, (x: number) => x === 0);

/** The library's embeddings in this process, searchable. */
export class LibraryEmbeddings {
  private vectors = new Map<string, Float32Array>();
  private index: EmbeddingIndex | null = null;
  private loadedAt = Number.NEGATIVE_INFINITY;
  private loading: Promise<void> | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  get size(): number {
    return this.vectors.size;
  }

  /**
   * Loads on first use; later, when stale, answers from what it holds while a reload runs
   * (reading 10,000 entries takes a few hundred milliseconds, no request should wait for it).
   */
  async ready(ctx: Pick<AppContext, "stores">): Promise<void> {
    if (this.now() - this.loadedAt < INDEX_MAX_AGE_MS) return;
    if (this.loadedAt === Number.NEGATIVE_INFINITY) return this.reload(ctx);
    this.reload(ctx).catch(() => undefined);
  }

  /** Reads every embedding entry again (one reload at a time). */
  reload(ctx: Pick<AppContext, "stores">): Promise<void> {
    this.loading ??= ctx.stores.library
      .embeddings()
      .then((entries) => {
        const next = new Map<string, Float32Array>();
        for (const e of entries) if (e.version === EMBEDDING_VERSION) next.set(e.voice_id, decodeEmbedding(e.embedding));
        this.vectors = next;
        this.index = null;
        this.loadedAt = this.now();
      })
      .finally(() => {
        this.loading = null;
      });
    return this.loading;
  }

  set(voiceId: string, embedding: ArrayLike<number>): void {
    if (embedding.length !== EMBEDDING_DIM) return;
    this.vectors.set(voiceId, Float32Array.from(embedding));
    this.index = null;
  }

  delete(voiceId: string): void {
    if (this.vectors.delete(voiceId)) this.index = null;
  }

  get(voiceId: string): Float32Array | undefined {
    return this.vectors.get(voiceId);
  }

  /** The k most similar voices with cosine similarity at least `minScore`, best first. */
  search(query: ArrayLike<number>, k: number, minScore = Number.NEGATIVE_INFINITY, exclude: ReadonlySet<string> = new Set()): Match[] {
    if (!this.index) {
      // Rebuilt after a change: copying 10,000 rows is cheaper than one request's DynamoDB reads.
      const index = new EmbeddingIndex(EMBEDDING_DIM, Math.max(1, this.vectors.size));
      for (const [id, v] of this.vectors) index.add(id, v);
      this.index = index;
    }
    return this.index.topK(query, k + exclude.size, minScore).filter((m) => !exclude.has(m.id)).slice(0, k);
  }
}

const indexes = new WeakMap<object, LibraryEmbeddings>();
const indexing = new WeakMap<object, number>();
/** Seconds a client is asked to wait while the library is being indexed. */
export const INDEXING_RETRY_AFTER_SECONDS = 30;

/**
 * Marks the library as being indexed in this process until `work` settles (the first start's
 * previews and their embeddings): similar-voice searches answer 503 `library_indexing` with a
 * Retry-After meanwhile, rather than ranking a library that has no embeddings yet.
 */
export function markLibraryIndexing(ctx: AppContext, work: Promise<unknown>): void {
  indexing.set(ctx, (indexing.get(ctx) ?? 0) + 1);
  const done = () => indexing.set(ctx, Math.max(0, (indexing.get(ctx) ?? 1) - 1));
  work.then(done, done);
}

export function libraryIndexing(ctx: AppContext): boolean {
  return (indexing.get(ctx) ?? 0) > 0;
}

function refuseWhileIndexing(ctx: AppContext): void {
  if (libraryIndexing(ctx)) throw new ApiError(503, "library_indexing", similarVoiceMessages.indexing, { "retry-after": String(INDEXING_RETRY_AFTER_SECONDS) });
}

/** The one index of this process's context. */
export function libraryEmbeddings(ctx: AppContext): LibraryEmbeddings {
  let index = indexes.get(ctx);
  if (!index) {
    index = new LibraryEmbeddings(() => ctx.now());
    indexes.set(ctx, index);
  }
  return index;
}

/** Embeds audio on the analyzer's workers; null when it holds no speech. */
async function embedAudio(ctx: AppContext, bytes: Uint8Array, signal?: AbortSignal): Promise<number[] | null> {
  const analyzer = await ctx.analyzer();
  const a = await analyzer.analyze(bytes, { maxBytes: SIMILAR_AUDIO_MAX_BYTES, maxSeconds: SIMILAR_AUDIO_MAX_SECONDS, signal });
  return a.speechSecs > 0 && !isZero(a.embedding) ? a.embedding : null;
}

/**
 * Computes and stores a listed voice's embedding from its preview (unless it already has one of
 * the current version for that preview). False when there is nothing to embed.
 */
export async function embedListing(ctx: AppContext, voiceId: string, signal?: AbortSignal): Promise<boolean> {
  const listing = await ctx.stores.library.listing(voiceId);
  if (!listing || listing.status !== "listed" || !listing.preview_object_key) return false;
  if (listing.embedding && listing.embedding_version === EMBEDDING_VERSION) {
    libraryEmbeddings(ctx).set(voiceId, decodeEmbedding(listing.embedding));
    return true;
  }
  const audio = await ctx.blobs.getBytes(listing.preview_object_key);
  if (!audio) return false;
  const embedding = await embedAudio(ctx, audio.bytes, signal);
  if (!embedding) return false;
  const stored = encodeEmbedding(embedding);
  const preview = listing.preview_object_key;
  const saved = await updateListing(ctx, voiceId, (current) =>
    current && current.preview_object_key === preview ? { ...current, embedding: stored, embedding_version: EMBEDDING_VERSION } : null,
  );
  if (saved?.embedding && saved.status === "listed") libraryEmbeddings(ctx).set(voiceId, decodeEmbedding(saved.embedding));
  return !!saved?.embedding;
}

/**
 * Embeds every listed voice that has a preview but no current embedding (a fresh install's
 * community voices, voices published before this existed, or after the embedding's definition
 * changed). Runs in the background; one voice at a time, so it never takes every core.
 */
export async function embedMissingListings(ctx: AppContext, signal?: AbortSignal): Promise<number> {
  const have = new Set((await ctx.stores.library.embeddings()).filter((e) => e.version === EMBEDDING_VERSION).map((e) => e.voice_id));
  let made = 0;
  for (const id of await ctx.stores.library.listedVoiceIds()) {
    if (signal?.aborted) break;
    if (have.has(id)) continue;
    // Background work: never while a user's request is being served.
    await yieldToInteractive(ctx, signal);
    if (signal?.aborted) break;
    try {
      if (await embedListing(ctx, id, signal)) made++;
    } catch (e) {
      if (signal?.aborted) break;
      ctx.log.warn("could not embed a library voice", { voice_id: id, error: e });
    }
  }
  return made;
}

export interface SimilarOptions {
  /** similarity_threshold: the largest cosine distance (1 - similarity, 0..2) to answer. */
  threshold?: number;
  topK?: number;
}

/** Ranks the library against an embedding and shapes the answer as GET /v1/shared-voices does. */
async function rank(ctx: AppContext, caller: Caller, base: string, embedding: ArrayLike<number>, opts: SimilarOptions, exclude: ReadonlySet<string>) {
  const index = libraryEmbeddings(ctx);
  await index.ready(ctx);
  const k = opts.topK ?? SIMILAR_TOP_K_DEFAULT;
  const minScore = opts.threshold === undefined ? Number.NEGATIVE_INFINITY : 1 - opts.threshold;
  const matches = index.search(embedding, k, minScore, exclude);
  const [listings, added] = await Promise.all([ctx.stores.library.summaries(matches.map((m) => m.id)), ctx.stores.voices.libraryCopies(caller.workspaceId)]);
  const nowUnix = Math.floor(ctx.now() / 1000);
  const voices = matches
    .map((m) => ({ m, l: listings.get(m.id) }))
    .filter((x) => x.l !== undefined && x.l.status === "listed")
    .map(({ m, l }) => ({ ...libraryVoiceWire(l!, { base, nowUnix, addedByCaller: added }), similarity: Math.round(m.score * 1e4) / 1e4 }));
  return { voices, has_more: false, total_count: null, last_sort_id: null };
}

/** POST /v1/similar-voices: library voices like an uploaded clip. */
export async function similarToAudio(ctx: AppContext, caller: Caller, base: string, file: { data: Uint8Array; truncated: boolean; filename: string } | undefined, opts: SimilarOptions) {
  if (!file) throw new ApiError(400, "audio_file_required", similarVoiceMessages.audioRequired);
  refuseWhileIndexing(ctx);
  if (file.truncated || file.data.byteLength > SIMILAR_AUDIO_MAX_BYTES) throw new ApiError(413, "audio_too_large", similarVoiceMessages.tooLarge);
  if (!sniffAudioType(file.data.subarray(0, 64))) throw new ApiError(400, "unsupported_audio", similarVoiceMessages.unsupported(file.filename));
  let embedding: number[] | null;
  try {
    embedding = await embedAudio(ctx, file.data);
  } catch (e) {
    if (e instanceof AudioLimitError) {
      if (e.limit === "bytes") throw new ApiError(413, "audio_too_large", similarVoiceMessages.tooLarge);
      throw new ApiError(400, "audio_too_long", similarVoiceMessages.tooLong);
    }
    if (e instanceof AudioDecodeError) throw new ApiError(400, "audio_unreadable", e.message);
    throw e;
  }
  if (!embedding) throw new ApiError(400, "no_speech_detected", similarVoiceMessages.noSpeech);
  return rank(ctx, caller, base, embedding, opts, new Set());
}

/** The embedding to compare with for a voice the caller can see, or a listed library voice. */
async function embeddingOfVoice(ctx: AppContext, caller: Caller, voiceId: string): Promise<{ embedding: ArrayLike<number>; exclude: Set<string> }> {
  const own = await ctx.stores.voices.visibleTo(caller.workspaceId, voiceId);
  const listingId = own ? listingIdOf(own) : voiceId;
  let listing: LibraryListing | undefined;
  if (listingId) {
    listing = await ctx.stores.library.listing(listingId);
    // Someone else's voice that is not (or no longer) listed is not the caller's to search with.
    if (!own && listing?.status !== "listed") listing = undefined;
  }
  if (!own && !listing) throw voiceNotFound(voiceId);
  const exclude = new Set([voiceId, ...(listingId ? [listingId] : [])]);
  if (listing?.embedding && listing.embedding_version === EMBEDDING_VERSION) return { embedding: decodeEmbedding(listing.embedding), exclude };
  if (listing && listing.status === "listed" && (await embedListing(ctx, listing.voice_id))) {
    const fresh = libraryEmbeddings(ctx).get(listing.voice_id);
    if (fresh) return { embedding: fresh, exclude };
  }
  // The caller's own voice that is not in the library: its preview, else its first sample.
  const key = own?.preview_object_key ?? own?.samples.find((s) => s.object_key)?.object_key ?? listing?.preview_object_key ?? null;
  const audio = key ? await ctx.blobs.getBytes(key) : undefined;
  const name = own?.name ?? listing?.name ?? voiceId;
  if (!audio) throw new ApiError(400, "voice_has_no_audio", similarVoiceMessages.noAudio(name));
  const embedding = await embedAudio(ctx, audio.bytes);
  if (!embedding) throw new ApiError(400, "voice_has_no_audio", similarVoiceMessages.noAudio(name));
  return { embedding, exclude };
}

/** POST /v1/similar-voices-by-id: library voices like one the caller has or sees in the library. */
export async function similarToVoice(ctx: AppContext, caller: Caller, base: string, voiceId: string, opts: SimilarOptions) {
  refuseWhileIndexing(ctx);
  const { embedding, exclude } = await embeddingOfVoice(ctx, caller, voiceId);
  return rank(ctx, caller, base, embedding, opts, exclude);
}
