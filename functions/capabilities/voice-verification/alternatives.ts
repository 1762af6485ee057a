/**
 * After a failed verification the user is offered up to four similar voices from the voice
 * library: listed voices of the same language (and gender first), ranked by the similarity of
 * their embedding to the voice's. A listing's embedding comes from the engine reading a short
 * passage with its profile; it is kept in this process (by listing revision), so only the
 * first failure pays for it, and failures at the same moment share it.
 */
import type { AppContext } from "../../platform/context.js";
import type { VoiceRecord } from "../../platform/stores/voices.js";
import type { LibraryListing } from "../../platform/stores/library.js";
import { planLibrarySearch } from "../voices/libraryQuery.js";
import { similarity } from "../../media/voice-analysis/search.js";
import { EMBEDDING_VERSION } from "../../media/voice-analysis/embedding.js";
import { MAX_ALTERNATIVE_VOICES } from "../../platform/contract/voiceCreation.js";
import { calibrationPassage } from "../cloning/passages.js";
import { speakPcm16 } from "../voice-clone/render.js";

const CANDIDATES = 12;
/** Embeddings by key, kept while pending too: two failures at once render each listing once. */
const cache = new Map<string, Promise<number[]>>();

/** A profile's embedding from the engine's reading of a short passage, made once per key in this process. */
export function embeddingOf(ctx: AppContext, key: string, profile: VoiceRecord["profile"]): Promise<number[]> {
  const hit = cache.get(key);
  if (hit) return hit;
  const made = (async () => {
    const text = calibrationPassage(profile.language).split(/(?<=[.!?।])\s/)[0];
    const { pcm, sampleRate } = await speakPcm16(ctx, profile, text);
    return (await ctx.analyzer().analyzeSamples(pcm, sampleRate)).embedding;
  })();
  if (cache.size >= 2000) cache.clear();
  cache.set(key, made);
  // A failed reading is not kept: the next failure asks again.
  made.catch(() => {
    if (cache.get(key) === made) cache.delete(key);
  });
  return made;
}

async function listed(ctx: AppContext, filters: { language: string; gender?: string }): Promise<LibraryListing[]> {
  const plan = planLibrarySearch(filters, "trending");
  const result = await ctx.stores.library.search({ sort: "trending", ...plan, skip: 0, limit: CANDIDATES });
  const listings = await ctx.stores.library.listings(result.rows.map((r) => r.voice_id));
  return result.rows.map((r) => listings.get(r.voice_id)).filter((l): l is LibraryListing => !!l && l.status === "listed");
}

export async function similarLibraryVoices(ctx: AppContext, voice: VoiceRecord): Promise<Array<{ voice_id: string; public_owner_id: string; name: string; similarity: number }>> {
  const language = voice.labels.language ?? voice.profile.language;
  let candidates = await listed(ctx, { language, gender: voice.profile.gender });
  if (candidates.length < MAX_ALTERNATIVE_VOICES) {
    const more = await listed(ctx, { language });
    candidates = [...candidates, ...more.filter((m) => !candidates.some((c) => c.voice_id === m.voice_id))];
  }
  candidates = candidates.filter((c) => c.voice_id !== voice.voice_id && c.voice_id !== voice.sharing?.original_voice_id);
  if (!candidates.length) return [];
  const own =
    voice.analysis && voice.analysis.embedding_version === EMBEDDING_VERSION ? voice.analysis.summary.embedding : await embeddingOf(ctx, `voice:${voice.voice_id}:${voice.version}`, voice.profile);
  const scored = await Promise.all(
    candidates.map(async (c) => ({ c, score: similarity(own, await embeddingOf(ctx, `listing:${c.voice_id}:${c.rev}`, c.profile)) })),
  );
  return scored
    .sort((a, b) => b.score - a.score)
    .slice(0, MAX_ALTERNATIVE_VOICES)
    .map(({ c, score }) => ({ voice_id: c.voice_id, public_owner_id: c.public_owner_id, name: c.name, similarity: Math.round(score * 1000) / 1000 }));
}
