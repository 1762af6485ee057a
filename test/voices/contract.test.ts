import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ElevenLabsClient, ElevenLabsError } from "@elevenlabs/elevenlabs-js";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { startTestStack, createTestAccount, insertOwnVoice, apiFetch } from "../support/stack.js";
import { decodeWav, encodeWav } from "../../functions/media/audio/wav.js";
import { analyzeVoice } from "../../functions/media/voice-analysis/analyze.js";
import { recording, SPEAKER_A } from "../support/speakers.js";
import { PASSAGES } from "../../functions/media/voice-analysis/fixtures/texts.js";
import { COMMUNITY_VOICES, COMMUNITY_PUBLIC_OWNER_ID, communityVoiceId } from "../../functions/capabilities/voices/community.js";
import { ENGINE_LANGUAGES } from "../../functions/platform/domain/models.js";
import { premadeVoiceId } from "../../functions/platform/domain/premadeVoices.js";

/**
 * The SDK's voices, samples, collections and library methods, unchanged, against the embedded
 * stack: a missing or mistyped required field makes the SDK itself throw.
 */
let stack: EmbeddedStack;
let client: ElevenLabsClient;
let acct: Awaited<ReturnType<typeof createTestAccount>>;

beforeAll(async () => {
  stack = await startTestStack();
  acct = await createTestAccount(stack, "creator");
  client = new ElevenLabsClient({ baseUrl: stack.url, apiKey: acct.apiKey, maxRetries: 0 });
});
afterAll(async () => stack?.close());

/** A sine tone as a WAV file. */
function tone(seconds: number, hz = 220): Blob {
  const rate = 22_050;
  const pcm = new Int16Array(Math.round(seconds * rate));
  for (let i = 0; i < pcm.length; i++) pcm[i] = Math.round(8000 * Math.sin((2 * Math.PI * hz * i) / rate));
  return new Blob([Buffer.from(encodeWav(pcm, rate))], { type: "audio/wav" });
}

const errorOf = async (p: Promise<unknown>) => {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(ElevenLabsError);
  const err = e as ElevenLabsError;
  return { status: err.statusCode, detail: (err.body as { detail: { status: string; message: string } }).detail };
};

describe("routing of the static voices paths", () => {
  // Before this issue both fell into /v1/voices/:voice_id and answered voice_not_found.
  it("answers GET /v1/voices/accents and GET /v1/voices/collections themselves", async () => {
    const { accents } = await client.voices.accents.get();
    expect(accents.length).toBeGreaterThan(10);
    const { collections } = await client.voices.collections.list();
    expect(collections).toEqual([]);
  });
});

describe("SDK contract: accents", () => {
  it("lists the engine's accents with their codes, by language and by model", async () => {
    const { accents } = await client.voices.accents.get({ language: "en" });
    expect(accents.every((a) => a.language === "en")).toBe(true);
    expect(accents).toContainEqual({ accent: "british", language: "en", code: "en-british", name: "British" });
    const all = await client.voices.accents.get();
    expect(new Set(all.accents.map((a) => a.language))).toEqual(new Set(ENGINE_LANGUAGES.map((l) => l.language_id)));
    // An English-only model offers English accents only.
    const turbo = await client.voices.accents.get({ modelId: "eleven_turbo_v2" });
    expect(new Set(turbo.accents.map((a) => a.language))).toEqual(new Set(["en"]));
  });
});

describe("SDK contract: edit, samples, delete", () => {
  it("edits name, description and labels and adds samples checked by content and duration", async () => {
    const v = await insertOwnVoice(stack, acct.workspace.workspace_id, acct.user.user_id, "Editable");
    const r = await client.voices.update(v.voice_id, {
      name: "Edited voice",
      description: "Now with samples",
      labels: { accent: "british", gender: "male" },
      files: [tone(6), tone(7.5, 330)],
      removeBackgroundNoise: true,
    });
    expect(r.status).toBe("ok");
    const got = await client.voices.get(v.voice_id);
    expect(got.name).toBe("Edited voice");
    expect(got.description).toBe("Now with samples");
    expect(got.labels).toEqual({ accent: "british", gender: "male" });
    expect(got.samples).toHaveLength(2);
    const [a, b] = got.samples!;
    expect(a.mimeType).toBe("audio/wav");
    expect(a.durationSecs).toBeCloseTo(6, 2);
    expect(b.durationSecs).toBeCloseTo(7.5, 2);
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(a.removeBackgroundNoise).toBe(true);
    expect(a.sizeBytes).toBe(tone(6).size);

    // The stored audio is exactly what was uploaded.
    const audio = await client.voices.samples.audio.get(v.voice_id, a.sampleId!);
    const bytes = new Uint8Array(await new Response(audio).arrayBuffer());
    expect(Buffer.from(bytes).equals(Buffer.from(await tone(6).arrayBuffer()))).toBe(true);

    expect((await client.samples.delete(v.voice_id, a.sampleId!)).status).toBe("ok");
    const after = await client.voices.get(v.voice_id);
    expect(after.samples!.map((s) => s.sampleId)).toEqual([b.sampleId]);
    expect((await errorOf(client.voices.samples.audio.get(v.voice_id, a.sampleId!))).detail.status).toBe("sample_not_found");
  });

  it("removes the background noise of new samples when asked (denoised on the workers, kept beside the upload)", async () => {
    const v = await insertOwnVoice(stack, acct.workspace.workspace_id, acct.user.user_id, "Noisy");
    const noisy = await recording(stack, SPEAKER_A, PASSAGES.en.tuning[0], { seed: 12, snrDb: 10 });
    const file = () => new File([new Uint8Array(noisy)], "noisy.wav", { type: "audio/wav" });
    await client.voices.update(v.voice_id, { name: "Noisy", files: [file()], removeBackgroundNoise: true });
    await client.voices.update(v.voice_id, { name: "Noisy", files: [file()], removeBackgroundNoise: false });
    const got = await client.voices.get(v.voice_id);
    expect(got.samples!.map((s) => [s.removeBackgroundNoise, s.hasIsolatedAudio])).toEqual([
      [true, true],
      [false, false],
    ]);
    const stored = (await stack.ctx.stores.voices.get(acct.workspace.workspace_id, v.voice_id))!;
    const [denoised, kept] = stored.samples;
    expect(kept.isolated_object_key).toBeNull();
    // The upload is kept as it came; the isolated audio is the same speech with far less noise.
    expect(Buffer.from((await stack.ctx.blobs.getBytes(denoised.object_key))!.bytes).equals(noisy)).toBe(true);
    const clean = decodeWav((await stack.ctx.blobs.getBytes(denoised.isolated_object_key!))!.bytes);
    const before = decodeWav(new Uint8Array(noisy));
    const snr = (d: ReturnType<typeof decodeWav>) => analyzeVoice(Float32Array.from(d.pcm), d.sampleRate).snrDb;
    expect(clean.pcm.length / clean.sampleRate).toBeCloseTo(before.pcm.length / before.sampleRate, 1);
    expect(snr(clean)).toBeGreaterThan(snr(before) + 6);
    // Deleting the sample deletes both.
    await client.samples.delete(v.voice_id, denoised.sample_id);
    expect(await stack.ctx.blobs.getBytes(denoised.isolated_object_key!)).toBeUndefined();
  });

  it("refuses a sample under 5 s and a file that is not audio, with the spec's messages, storing nothing", async () => {
    const v = await insertOwnVoice(stack, acct.workspace.workspace_id, acct.user.user_id, "Strict");
    const short = new File([await tone(2).arrayBuffer()], "short.wav", { type: "audio/wav" });
    const e1 = await errorOf(client.voices.update(v.voice_id, { name: "Strict", files: [tone(6), short] }));
    expect(e1).toEqual({ status: 400, detail: { status: "sample_too_short", message: 'File "short.wav" is too short. Please choose a file with at least 5s of audio.' } });
    const fake = new File([new TextEncoder().encode("<html>not audio</html>".repeat(100))], "song.mp3", { type: "audio/mpeg" });
    const e2 = await errorOf(client.voices.update(v.voice_id, { name: "Strict", files: [fake] }));
    expect(e2.detail).toEqual({ status: "unsupported_audio", message: 'File "song.mp3" is not supported. Please choose an audio file.' });
    expect((await client.voices.get(v.voice_id)).samples).toEqual([]);
  });

  it("refuses a blank name with a 422 on the field, and premade voices", async () => {
    const v = await insertOwnVoice(stack, acct.workspace.workspace_id, acct.user.user_id, "Named");
    const e = (await client.voices.update(v.voice_id, { name: "   " }).then(() => undefined, (x: unknown) => x)) as ElevenLabsError;
    expect(e.statusCode).toBe(422);
    expect((e.body as { detail: Array<{ loc: string[]; msg: string }> }).detail[0]).toMatchObject({ loc: ["body", "name"], msg: "Please give your voice a name" });
    expect((await errorOf(client.voices.update(premadeVoiceId("Avery"), { name: "Mine now" }))).status).toBe(403);
  });

  it("keeps a workspace's samples and voices out of another workspace's reach", async () => {
    const v = await insertOwnVoice(stack, acct.workspace.workspace_id, acct.user.user_id, "Private");
    await client.voices.update(v.voice_id, { name: "Private", files: [tone(5.5)] });
    const sampleId = (await client.voices.get(v.voice_id)).samples![0].sampleId!;
    const other = await createTestAccount(stack, "creator");
    const theirs = new ElevenLabsClient({ baseUrl: stack.url, apiKey: other.apiKey, maxRetries: 0 });
    expect((await errorOf(theirs.voices.samples.audio.get(v.voice_id, sampleId))).detail.status).toBe("voice_not_found");
    expect((await errorOf(theirs.samples.delete(v.voice_id, sampleId))).detail.status).toBe("voice_not_found");
    expect((await errorOf(theirs.voices.update(v.voice_id, { name: "Stolen" }))).detail.status).toBe("voice_not_found");
    const publish = await apiFetch(stack, other.apiKey, `/v1/voices/${v.voice_id}/sharing`, {
      method: "POST",
      body: JSON.stringify({ use_case: "conversational", descriptives: ["calm"], notice_period: 30 }),
    });
    expect(publish.status).toBe(404);
    expect((await client.voices.get(v.voice_id)).samples).toHaveLength(1);
  });

  it("frees the voice slot when a voice is deleted", async () => {
    const before = (await client.user.subscription.get()).voiceSlotsUsed;
    const v = await insertOwnVoice(stack, acct.workspace.workspace_id, acct.user.user_id, "Temporary");
    expect((await client.user.subscription.get()).voiceSlotsUsed).toBe(before + 1);
    await client.voices.delete(v.voice_id);
    expect((await client.user.subscription.get()).voiceSlotsUsed).toBe(before);
  });
});

describe("SDK contract: v2 search", () => {
  it("lists name matches before description and label matches, across pages (issue 28: \"har\" found three 'characters' voices before Harriet)", async () => {
    await insertOwnVoice(stack, acct.workspace.workspace_id, acct.user.user_id, "Sharon");
    const first = await client.voices.search({ search: "har", pageSize: 2 });
    expect(first.voices.map((v) => v.name)).toEqual(["Harriet", "Sharon"]);
    // The rest (labels "characters_animation", descriptions "characterful") follow on the next pages, none twice.
    const rest = await client.voices.search({ search: "har", pageSize: 100, nextPageToken: first.nextPageToken! });
    expect(rest.voices.length).toBeGreaterThanOrEqual(3);
    for (const v of rest.voices) expect((v.name ?? "").toLowerCase()).not.toContain("har");
    expect(new Set([...first.voices, ...rest.voices].map((v) => v.voiceId)).size).toBe(first.voices.length + rest.voices.length);
    expect(first.voices.length + rest.voices.length).toBe(first.totalCount);
  });
});

describe("SDK contract: collections", () => {
  it("creates, lists by title, renames, fills, filters v2 search by, empties and deletes a collection", async () => {
    const own = await insertOwnVoice(stack, acct.workspace.workspace_id, acct.user.user_id, "Collected");
    const zeta = await client.voices.collections.create({ title: "Zeta narrators", icon: "📚" });
    const alpha = await client.voices.collections.create({ title: "alpha ads", icon: "megaphone" });
    expect(zeta.permissionOnResource).toBe("admin");
    expect((await client.voices.collections.list()).collections.map((c) => c.title)).toEqual(["alpha ads", "Zeta narrators"]);

    const renamed = await client.voices.collections.update(zeta.collectionId, { title: "Narrators" });
    expect(renamed).toMatchObject({ collectionId: zeta.collectionId, title: "Narrators", icon: "📚" });

    const premade = premadeVoiceId("Marcus");
    expect(await client.voices.collections.addVoice(zeta.collectionId, premade)).toEqual({ collectionId: zeta.collectionId, voiceId: premade });
    await client.voices.collections.addVoice(zeta.collectionId, own.voice_id);
    await client.voices.collections.addVoice(zeta.collectionId, own.voice_id); // again: no change
    const found = await client.voices.search({ collectionId: zeta.collectionId, pageSize: 100 });
    expect(found.voices.map((v) => v.voiceId).sort()).toEqual([premade, own.voice_id].sort());
    expect((await client.voices.get(own.voice_id)).collectionIds).toEqual([zeta.collectionId]);

    await client.voices.collections.removeVoice(zeta.collectionId, premade);
    expect((await client.voices.search({ collectionId: zeta.collectionId })).voices.map((v) => v.voiceId)).toEqual([own.voice_id]);

    expect(await client.voices.collections.delete(alpha.collectionId)).toEqual({ collectionId: alpha.collectionId });
    expect((await errorOf(client.voices.collections.get(alpha.collectionId))).detail.status).toBe("collection_not_found");
    expect((await client.voices.collections.get(zeta.collectionId)).title).toBe("Narrators");
  });

  it("refuses a voice the workspace cannot see, and another workspace's collection", async () => {
    const c = await client.voices.collections.create({ title: "Mine", icon: "x" });
    expect((await errorOf(client.voices.collections.addVoice(c.collectionId, "no-such-voice"))).detail.status).toBe("voice_not_found");
    const other = await createTestAccount(stack, "creator");
    const theirs = new ElevenLabsClient({ baseUrl: stack.url, apiKey: other.apiKey, maxRetries: 0 });
    expect((await errorOf(theirs.voices.collections.get(c.collectionId))).status).toBe(404);
    expect((await errorOf(theirs.voices.collections.delete(c.collectionId))).status).toBe(404);
    expect((await theirs.voices.collections.list()).collections).toEqual([]);
  });
});

describe("SDK contract: the voice library", () => {
  it("starts with the community voices: 40+, made by the project, in every engine language", async () => {
    expect(COMMUNITY_VOICES.length).toBeGreaterThanOrEqual(40);
    const seen: Array<Awaited<ReturnType<typeof client.voices.getShared>>["voices"][number]> = [];
    for (let page = 0; ; page++) {
      const r = await client.voices.getShared({ pageSize: 20, page, sort: "created_date" });
      seen.push(...r.voices);
      if (!r.hasMore) break;
    }
    expect(seen).toHaveLength(COMMUNITY_VOICES.length);
    expect(new Set(seen.map((v) => v.voiceId)).size).toBe(COMMUNITY_VOICES.length);
    expect(new Set(seen.map((v) => v.language))).toEqual(new Set(ENGINE_LANGUAGES.map((l) => l.language_id)));
    expect(new Set(seen.map((v) => v.gender))).toEqual(new Set(["male", "female", "neutral"]));
    expect(new Set(seen.map((v) => v.age))).toEqual(new Set(["young", "middle_aged", "old"]));
    expect(new Set(seen.map((v) => v.useCase)).size).toBe(7);
    expect(new Set(seen.map((v) => v.descriptive)).size).toBeGreaterThanOrEqual(15);
    expect(seen.every((v) => v.publicOwnerId === COMMUNITY_PUBLIC_OWNER_ID)).toBe(true);
    // Extra fields reach SDK users under their wire names (contract §A5).
    expect(seen.every((v) => (v as unknown as { made_by_timbre: boolean; owner_name: string }).made_by_timbre)).toBe(true);
    expect(new Set(seen.map((v) => (v as unknown as { owner_name: string }).owner_name))).toEqual(new Set(["Timbre Community"]));
    // Newest first, and real counters: nobody has used them yet.
    expect(seen.map((v) => v.dateUnix)).toEqual([...seen.map((v) => v.dateUnix)].sort((a, b) => b - a));
    expect(seen.every((v) => v.clonedByCount === 0 && v.usageCharacterCount1Y === 0)).toBe(true);
  });

  it("filters by language, gender and age, use cases, descriptives, search, featured and owner", async () => {
    const three = await client.voices.getShared({ language: "en", gender: "female", age: "young", pageSize: 100 });
    const expected = COMMUNITY_VOICES.filter((v) => v.language === "en" && v.gender === "female" && v.age === "young").map((v) => v.name);
    expect(three.voices.map((v) => v.name).sort()).toEqual(expected.sort());

    const uc = await client.voices.getShared({ useCases: ["advertisement", "narrative_story"], pageSize: 100 });
    expect(uc.voices.length).toBe(COMMUNITY_VOICES.filter((v) => ["advertisement", "narrative_story"].includes(v.use_case)).length);
    expect(uc.voices.every((v) => ["advertisement", "narrative_story"].includes(v.useCase))).toBe(true);

    const calm = await client.voices.getShared({ descriptives: ["whispery"], pageSize: 100 });
    expect(calm.voices.map((v) => v.name).sort()).toEqual(COMMUNITY_VOICES.filter((v) => v.descriptives.includes("whispery")).map((v) => v.name).sort());

    const search = await client.voices.getShared({ search: "bedtime" });
    expect(search.voices.map((v) => v.name)).toEqual(["Margaret"]);

    const featured = await client.voices.getShared({ featured: true, pageSize: 100 });
    expect(featured.voices.map((v) => v.name).sort()).toEqual(COMMUNITY_VOICES.filter((v) => v.featured).map((v) => v.name).sort());

    const byOwner = await client.voices.getShared({ ownerId: COMMUNITY_PUBLIC_OWNER_ID, accent: "scottish" });
    expect(byOwner.voices.map((v) => v.name)).toEqual(["Rowan"]);
    expect((await client.voices.getShared({ ownerId: "nobody" })).voices).toEqual([]);
  });

  it("pages with page numbers and with last_sort_id, the same voices either way", async () => {
    const first = await client.voices.getShared({ pageSize: 7, sort: "trending" });
    const second = await client.voices.getShared({ pageSize: 7, page: 1, sort: "trending" });
    expect(first.hasMore).toBe(true);
    expect(first.lastSortId).toBeTruthy();
    const cursor = await client.voices.getShared({ pageSize: 7, sort: "trending" }, { queryParams: { last_sort_id: first.lastSortId! } });
    expect(cursor.voices.map((v) => v.voiceId)).toEqual(second.voices.map((v) => v.voiceId));
    expect(new Set([...first.voices, ...second.voices].map((v) => v.voiceId)).size).toBe(14);
    const r = await apiFetch(stack, acct.apiKey, "/v1/shared-voices?page_size=101");
    expect(r.status).toBe(422);
  });

  it("adds a community voice to My Voices, keeping its category and pointing at the original", async () => {
    const original = communityVoiceId("Theodore");
    const before = (await client.voices.getShared({ ownerId: COMMUNITY_PUBLIC_OWNER_ID, search: "grandfather" })).voices[0];
    expect(before.isAddedByUser).toBe(false);
    const { voiceId } = await client.voices.share(COMMUNITY_PUBLIC_OWNER_ID, original, { newName: "Grandpa Theo" });
    const mine = await client.voices.get(voiceId);
    expect(mine).toMatchObject({ name: "Grandpa Theo", category: "generated", isOwner: false });
    expect(mine.sharing).toMatchObject({ status: "copied", originalVoiceId: original, publicOwnerId: COMMUNITY_PUBLIC_OWNER_ID, noticePeriod: 730 });
    const community = await client.voices.search({ voiceType: "community" });
    expect(community.voices.map((v) => v.voiceId)).toEqual([voiceId]);
    const after = (await client.voices.getShared({ ownerId: COMMUNITY_PUBLIC_OWNER_ID, search: "grandfather" })).voices[0];
    expect(after.isAddedByUser).toBe(true);
    expect(after.clonedByCount).toBe(1);
    // Adding again (a retried request) answers the same voice and counts nothing.
    expect((await client.voices.share(COMMUNITY_PUBLIC_OWNER_ID, original, { newName: "Grandpa Theo" })).voiceId).toBe(voiceId);
    expect((await client.voices.getShared({ search: "grandfather" })).voices[0].clonedByCount).toBe(1);
    // The wrong owner id is not found.
    expect((await errorOf(client.voices.share("someone-else", original, { newName: "x" }))).detail.status).toBe("voice_not_found");
  });
});
