import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ElevenLabsClient, ElevenLabsError } from "@elevenlabs/elevenlabs-js";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { startTestStack, createTestAccount, insertOwnVoice, apiFetch } from "../support/stack.js";
import { encodeWav } from "../../functions/media/audio/wav.js";
import { publicOwnerId } from "../../functions/capabilities/voices/records.js";
import { EMBEDDING_DIM, EMBEDDING_VERSION } from "../../functions/media/voice-analysis/index.js";
import { embedMissingListings, libraryEmbeddings, markLibraryIndexing } from "../../functions/capabilities/voices/similar.js";
import { updateListing } from "../../functions/capabilities/voices/listings.js";
import type { VoiceRecord } from "../../functions/platform/stores/voices.js";
import { similarVoiceMessages } from "../../functions/platform/contract/voices.js";

/**
 * Similar voices: published voices get a speaker embedding of their preview, stored with the
 * listing; POST /v1/similar-voices (the SDK's voices.findSimilarVoices, unchanged) ranks the
 * library against an uploaded clip, POST /v1/similar-voices-by-id against a voice.
 */
let stack: EmbeddedStack;
type Account = Awaited<ReturnType<typeof createTestAccount>> & { client: ElevenLabsClient };
let owner: Account;
let searcher: Account;
const voices: Record<"bright" | "deep" | "french", VoiceRecord> = {} as never;

async function account(tier: "free" | "creator" | "pro"): Promise<Account> {
  const a = await createTestAccount(stack, tier);
  return { ...a, client: new ElevenLabsClient({ baseUrl: stack.url, apiKey: a.apiKey, maxRetries: 0 }) };
}

const publish = (a: Account, voiceId: string) =>
  apiFetch(stack, a.apiKey, `/v1/voices/${voiceId}/sharing`, { method: "POST", body: JSON.stringify({ use_case: "narrative_story", descriptives: ["warm"], notice_period: 30 }) });

/** Speech in one of the owner's voices, on a text its preview never says. */
async function speech(voiceId: string, text: string): Promise<Blob> {
  const r = await apiFetch(stack, owner.apiKey, `/v1/text-to-speech/${voiceId}?output_format=mp3_44100_128`, { method: "POST", body: JSON.stringify({ text, seed: 3 }) });
  expect(r.status).toBe(200);
  return new Blob([await r.arrayBuffer()], { type: "audio/mpeg" });
}

function silence(seconds: number): Blob {
  return new Blob([Buffer.from(encodeWav(new Int16Array(22_050 * seconds), 22_050))], { type: "audio/wav" });
}

const errorOf = async (p: Promise<unknown>) => {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(ElevenLabsError);
  const err = e as ElevenLabsError;
  return { status: err.statusCode, body: err.body as { detail: unknown } };
};

const byId = (voiceId: string, extra: Record<string, unknown> = {}) =>
  apiFetch(stack, searcher.apiKey, "/v1/similar-voices-by-id", { method: "POST", body: JSON.stringify({ voice_id: voiceId, ...extra }) });

beforeAll(async () => {
  stack = await startTestStack();
  owner = await account("pro");
  searcher = await account("creator");
  const make = (name: string, profile: VoiceRecord["profile"]) =>
    insertOwnVoice(stack, owner.workspace.workspace_id, owner.user.user_id, name, { labels: { language: profile.language, gender: profile.gender, age: profile.age }, profile });
  voices.bright = await make("Bright", { language: "en", gender: "female", age: "young", pitch: 72, pitchRange: 70, rate: 185, timbre: 0.5, seed: 1 });
  voices.deep = await make("Deep", { language: "en", gender: "male", age: "old", pitch: 22, pitchRange: 35, rate: 140, timbre: -0.6, seed: 2 });
  voices.french = await make("Française", { language: "fr", gender: "female", age: "middle_aged", pitch: 55, pitchRange: 50, rate: 165, timbre: 0, seed: 3 });
  for (const v of Object.values(voices)) expect((await publish(owner, v.voice_id)).status).toBe(200);
}, 120_000);
afterAll(async () => stack?.close());

describe("embeddings of published voices", () => {
  it("stores each published voice's embedding with its listing and in the searchable entries", async () => {
    for (const v of Object.values(voices)) {
      const listing = await stack.ctx.stores.library.listing(v.voice_id);
      expect(listing?.embedding?.byteLength).toBe(EMBEDDING_DIM * 4);
      expect(listing?.embedding_version).toBe(EMBEDDING_VERSION);
    }
    const entries = await stack.ctx.stores.library.embeddings();
    expect(entries.map((e) => e.voice_id).sort()).toEqual(Object.values(voices).map((v) => v.voice_id).sort());
  });

  it("embeds listed voices that lack one in the background backfill", async () => {
    const id = voices.deep.voice_id;
    await updateListing(stack.ctx, id, (l) => (l ? { ...l, embedding: null, embedding_version: null } : null));
    expect((await stack.ctx.stores.library.embeddings()).map((e) => e.voice_id)).not.toContain(id);
    expect(await embedMissingListings(stack.ctx)).toBe(1);
    expect((await stack.ctx.stores.library.listing(id))?.embedding?.byteLength).toBe(EMBEDDING_DIM * 4);
    expect(await embedMissingListings(stack.ctx)).toBe(0);
  }, 60_000);
});

describe("POST /v1/similar-voices through the SDK", () => {
  it("ranks the voice that spoke the clip first, with every required field of a library voice", async () => {
    for (const [key, text] of [
      ["bright", "The weather today is bright and the streets are busy with people."],
      ["deep", "The weather today is bright and the streets are busy with people."],
    ] as const) {
      const clip = await speech(voices[key].voice_id, text);
      const found = await searcher.client.voices.findSimilarVoices({ audioFile: clip, topK: 3 });
      expect(found.voices[0]?.voiceId, key).toBe(voices[key].voice_id);
      expect(found.voices[0]).toMatchObject({ publicOwnerId: publicOwnerId(owner.user.user_id), name: voices[key].name });
      expect(found.hasMore).toBe(false);
    }
  }, 60_000);

  it("returns top_k voices, fewer under a tight similarity_threshold, and the defaults without either", async () => {
    const clip = await speech(voices.bright.voice_id, "A different sentence for the threshold test.");
    expect((await searcher.client.voices.findSimilarVoices({ audioFile: clip, topK: 2 })).voices).toHaveLength(2);
    expect((await searcher.client.voices.findSimilarVoices({ audioFile: clip, topK: 3, similarityThreshold: 2 })).voices).toHaveLength(3);
    // Distance 0 is the very same audio: a new clip is never that close.
    expect((await searcher.client.voices.findSimilarVoices({ audioFile: clip, similarityThreshold: 0 })).voices).toEqual([]);
    expect((await searcher.client.voices.findSimilarVoices({ audioFile: clip })).voices.length).toBe(3);
  }, 60_000);

  it("refuses a missing file, audio without speech, a file that is not audio and out-of-range numbers", async () => {
    expect(await errorOf(searcher.client.voices.findSimilarVoices({}))).toMatchObject({ status: 400, body: { detail: { status: "audio_file_required" } } });
    expect(await errorOf(searcher.client.voices.findSimilarVoices({ audioFile: silence(3) }))).toMatchObject({
      status: 400,
      body: { detail: { status: "no_speech_detected", message: "No speech was found in the audio. Please choose a clip of someone speaking." } },
    });
    const text = new File([new TextEncoder().encode("this is not audio at all, only text in a file")], "notes.txt", { type: "audio/mpeg" });
    expect(await errorOf(searcher.client.voices.findSimilarVoices({ audioFile: text }))).toMatchObject({
      status: 400,
      body: { detail: { status: "unsupported_audio", message: 'File "notes.txt" is not supported. Please choose an audio file.' } },
    });
    expect((await errorOf(searcher.client.voices.findSimilarVoices({ audioFile: silence(1), topK: 101 }))).status).toBe(422);
    expect((await errorOf(searcher.client.voices.findSimilarVoices({ audioFile: silence(1), similarityThreshold: 2.5 }))).status).toBe(422);
  });

  it("answers 400 for a WAV whose header claims an impossible sample rate (4,294,967,295 Hz)", async () => {
    const wav = encodeWav(new Int16Array(22_050), 22_050);
    new DataView(wav.buffer, wav.byteOffset).setUint32(24, 0xffffffff, true);
    new DataView(wav.buffer, wav.byteOffset).setUint32(28, 0xffffffff, true);
    expect(await errorOf(searcher.client.voices.findSimilarVoices({ audioFile: new Blob([Buffer.from(wav)], { type: "audio/wav" }) }))).toMatchObject({
      status: 400,
      body: { detail: { status: "audio_unreadable" } },
    });
  });

  it("says the library is still being indexed (503 library_indexing, Retry-After) rather than ranking it before its embeddings exist", async () => {
    const clip = await speech(voices.bright.voice_id, "Is the library ready for a search yet?");
    let finish!: () => void;
    markLibraryIndexing(stack.ctx, new Promise<void>((resolve) => (finish = resolve)));
    try {
      const r = await apiFetch(stack, searcher.apiKey, "/v1/similar-voices", { method: "POST", body: (() => { const f = new FormData(); f.append("audio_file", clip, "clip.mp3"); return f; })() });
      expect(r.status).toBe(503);
      expect(r.headers.get("retry-after")).toBe("30");
      expect(await r.json()).toEqual({ detail: { status: "library_indexing", message: similarVoiceMessages.indexing } });
      expect(await errorOf(searcher.client.voices.findSimilarVoices({ audioFile: clip }))).toMatchObject({ status: 503, body: { detail: { status: "library_indexing" } } });
      expect((await byId(voices.bright.voice_id)).status).toBe(503);
    } finally {
      finish();
    }
    await new Promise((r) => setTimeout(r, 0));
    expect((await searcher.client.voices.findSimilarVoices({ audioFile: clip, topK: 3 })).voices[0]?.voiceId).toBe(voices.bright.voice_id);
  }, 60_000);

  it("refuses a file over 20 MB before analysing it", async () => {
    const big = new Uint8Array(20 * 1024 * 1024 + 10);
    big.set(new TextEncoder().encode("RIFF"), 0);
    expect(await errorOf(searcher.client.voices.findSimilarVoices({ audioFile: new Blob([big], { type: "audio/wav" }) }))).toMatchObject({
      status: 413,
      body: { detail: { status: "audio_too_large", message: "File exceeds the 20mb limit." } },
    });
  });
});

describe("POST /v1/similar-voices-by-id", () => {
  it("ranks the library against a listed voice, leaving that voice out", async () => {
    const r = await byId(voices.bright.voice_id, { top_k: 5 });
    expect(r.status).toBe(200);
    const body = (await r.json()) as { voices: Array<{ voice_id: string; similarity: number }>; has_more: boolean };
    expect(body.voices.map((v) => v.voice_id).sort()).toEqual([voices.deep.voice_id, voices.french.voice_id].sort());
    expect(body.voices[0]!.similarity).toBeGreaterThanOrEqual(body.voices[1]!.similarity);
  });

  it("works from the searcher's own copy of a library voice, leaving out its original", async () => {
    const { voiceId } = await searcher.client.voices.share(publicOwnerId(owner.user.user_id), voices.deep.voice_id, { newName: "My deep" });
    const body = (await (await byId(voiceId)).json()) as { voices: Array<{ voice_id: string; is_added_by_user: boolean }> };
    expect(body.voices.map((v) => v.voice_id)).not.toContain(voices.deep.voice_id);
    expect(body.voices).toHaveLength(2);
  });

  it("answers 404 for a voice the caller neither has nor sees in the library, and 422 for a bad body", async () => {
    expect((await byId("NoSuchVoice123")).status).toBe(404);
    const other = await insertOwnVoice(stack, owner.workspace.workspace_id, owner.user.user_id, "Private");
    expect((await byId(other.voice_id)).status).toBe(404);
    expect((await byId(voices.bright.voice_id, { top_k: 0 })).status).toBe(422);
  });

  it("stops answering a voice once it leaves the library", async () => {
    const del = await apiFetch(stack, owner.apiKey, `/v1/voices/${voices.french.voice_id}/sharing`, { method: "DELETE" });
    expect(del.status).toBe(200);
    const body = (await (await byId(voices.bright.voice_id)).json()) as { voices: Array<{ voice_id: string }> };
    expect(body.voices.map((v) => v.voice_id)).toEqual([voices.deep.voice_id]);
    expect((await stack.ctx.stores.library.embeddings()).map((e) => e.voice_id)).not.toContain(voices.french.voice_id);
    expect(libraryEmbeddings(stack.ctx).get(voices.french.voice_id)).toBeUndefined();
  });
});

describe("GET /v1/shared-voices/{voice_id}", () => {
  it("answers one listed voice, and 404 for one that is not listed", async () => {
    const r = await apiFetch(stack, searcher.apiKey, `/v1/shared-voices/${voices.bright.voice_id}`);
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ voice_id: voices.bright.voice_id, name: "Bright", public_owner_id: publicOwnerId(owner.user.user_id), is_added_by_user: false });
    expect((await apiFetch(stack, searcher.apiKey, `/v1/shared-voices/${voices.french.voice_id}`)).status).toBe(404);
    expect((await apiFetch(stack, searcher.apiKey, "/v1/shared-voices/NoSuchVoice123")).status).toBe(404);
  });
});
