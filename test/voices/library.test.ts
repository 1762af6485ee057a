import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ElevenLabsClient, ElevenLabsError } from "@elevenlabs/elevenlabs-js";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { startTestStack, createTestAccount, insertOwnVoice, apiFetch } from "../support/stack.js";
import { COMMUNITY_PUBLIC_OWNER_ID, COMMUNITY_VOICES, communityVoiceId } from "../../functions/capabilities/voices/community.js";
import { publicOwnerId } from "../../functions/capabilities/voices/records.js";
import { premadeVoiceId } from "../../functions/platform/domain/premadeVoices.js";

/**
 * The voice library end to end: one workspace publishes, others add and speak with the voice
 * (charged at its rate), the owner removes it and the notice period runs out. The clock is the
 * stack's own, moved by the test.
 */
let stack: EmbeddedStack;
let clock = Date.now();
type Account = Awaited<ReturnType<typeof createTestAccount>> & { client: ElevenLabsClient };
let owner: Account;
let adder: Account;

async function account(tier: "free" | "creator" | "pro"): Promise<Account> {
  const a = await createTestAccount(stack, tier);
  return { ...a, client: new ElevenLabsClient({ baseUrl: stack.url, apiKey: a.apiKey, maxRetries: 0 }) };
}

beforeAll(async () => {
  stack = await startTestStack({ now: () => clock });
  owner = await account("pro");
  adder = await account("creator");
});
afterAll(async () => stack?.close());

const DAY = 86_400_000;
const publish = (a: Account, voiceId: string, body: Record<string, unknown>) =>
  apiFetch(stack, a.apiKey, `/v1/voices/${voiceId}/sharing`, {
    method: "POST",
    body: JSON.stringify({ use_case: "narrative_story", descriptives: ["warm", "calm"], notice_period: 30, ...body }),
  });
const speak = (a: Account, voiceId: string, text: string) =>
  apiFetch(stack, a.apiKey, `/v1/text-to-speech/${voiceId}?output_format=mp3_22050_32`, { method: "POST", body: JSON.stringify({ text, seed: 1 }) });
const detail = async (r: Response) => ((await r.json()) as { detail: { status: string; message: string } }).detail;
const sdkError = async (p: Promise<unknown>) => {
  const e = (await p.then(() => undefined, (x: unknown) => x)) as ElevenLabsError;
  expect(e).toBeInstanceOf(ElevenLabsError);
  return { status: e.statusCode, detail: (e.body as { detail: { status: string; message: string } }).detail };
};

describe("publishing and adding a library voice", () => {
  let published: string;
  let copy: string;

  it("publishes one's own voice with a preview anyone can play, and lists it under its owner", async () => {
    const v = await insertOwnVoice(stack, owner.workspace.workspace_id, owner.user.user_id, "Studio Alto", {
      labels: { language: "en", accent: "british", gender: "female", age: "middle_aged" },
      profile: { language: "en", accent: "british", gender: "female", age: "middle_aged", pitch: 52, pitchRange: 48, rate: 160, timbre: -0.1, seed: 11 },
    });
    published = v.voice_id;
    const r = await publish(owner, published, { rate: 2, free_users_allowed: false, description: "A studio alto for audiobooks." });
    expect(r.status).toBe(200);
    const wire = (await r.json()) as { sharing: Record<string, unknown>; preview_url: string };
    expect(wire.sharing).toMatchObject({ status: "enabled", rate: 2, notice_period: 30, free_users_allowed: false, enabled_in_library: true });

    const found = await adder.client.voices.getShared({ ownerId: publicOwnerId(owner.user.user_id) });
    expect(found.voices).toHaveLength(1);
    expect(found.voices[0]).toMatchObject({ voiceId: published, name: "Studio Alto", accent: "british", gender: "female", age: "middle_aged", useCase: "narrative_story", descriptive: "warm", rate: 2, freeUsersAllowed: false, noticePeriod: 30, locale: "en-GB" });
    const preview = await fetch(found.voices[0].previewUrl!);
    expect(preview.status).toBe(200);
    expect(preview.headers.get("content-type")).toBe("audio/mpeg");
    expect((await preview.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    // The three-filter page finds it too.
    const three = await adder.client.voices.getShared({ language: "en", gender: "female", age: "middle_aged", pageSize: 100 });
    expect(three.voices.map((x) => x.voiceId)).toContain(published);
  });

  it("lets a second workspace add it and speak with it, charged at the voice's rate, and counts the use", async () => {
    const { voiceId } = await adder.client.voices.share(publicOwnerId(owner.user.user_id), published, { newName: "Alto" });
    copy = voiceId;
    const text = "This sentence has exactly forty letters."; // 40 characters
    const r = await speak(adder, copy, text);
    expect(r.status).toBe(200);
    expect(r.headers.get("character-cost")).toBe("80");
    await r.arrayBuffer();
    expect((await adder.client.user.subscription.get()).characterCount).toBe(80);

    const listed = (await adder.client.voices.getShared({ ownerId: publicOwnerId(owner.user.user_id) })).voices[0];
    expect(listed).toMatchObject({ clonedByCount: 1, usageCharacterCount1Y: 40, usageCharacterCount7D: 40, isAddedByUser: true });

    // Dialogue charges each line at its own voice's rate: 10 at 2 plus 10 at 1.
    const d = await apiFetch(stack, adder.apiKey, "/v1/text-to-dialogue?output_format=mp3_22050_32", {
      method: "POST",
      body: JSON.stringify({ inputs: [{ text: "Ten chars.", voice_id: copy }, { text: "Ten chars!", voice_id: premadeVoiceId("Avery") }], seed: 2 }),
    });
    expect(d.status).toBe(200);
    expect(d.headers.get("character-cost")).toBe("30");
    await d.arrayBuffer();
  });

  it("shows the copy in My Voices as a community voice with the library's terms", async () => {
    const mine = await adder.client.voices.get(copy);
    expect(mine.sharing).toMatchObject({ status: "copied", originalVoiceId: published, rate: 2, noticePeriod: 30 });
    expect((await adder.client.voices.search({ voiceType: "community" })).voices.map((v) => v.voiceId)).toEqual([copy]);
    expect((await adder.client.voices.search({ voiceType: "community", includeCustomRates: false })).voices).toEqual([]);
    expect((await adder.client.voices.search({ voiceType: "community", minNoticePeriodDays: 90 })).voices).toEqual([]);
    expect((await adder.client.user.subscription.get()).voiceSlotsUsed).toBe(1);
  });

  it("refuses a paid-only voice to a free workspace with the spec's message, and lets it add a free one", async () => {
    const free = await account("free");
    const e = await sdkError(free.client.voices.share(publicOwnerId(owner.user.user_id), published, { newName: "Nope" }));
    expect(e).toEqual({ status: 403, detail: { status: "paid_subscription_required", message: "You must be a paid subscriber to use this voice. Please upgrade your subscription to start using it." } });
    expect((await free.client.voices.search({ voiceType: "non-default" })).voices).toEqual([]);
    await free.client.voices.share(COMMUNITY_PUBLIC_OWNER_ID, communityVoiceId("Nora"), { newName: "Nora" });
  });

  it("stops at the free plan's voice limit with 'Voice limit of 3 reached', creating nothing", async () => {
    const free = await account("free");
    for (const spec of COMMUNITY_VOICES.slice(0, 3)) await free.client.voices.share(COMMUNITY_PUBLIC_OWNER_ID, communityVoiceId(spec.name), { newName: spec.name });
    const fourth = COMMUNITY_VOICES[3];
    const e = await sdkError(free.client.voices.share(COMMUNITY_PUBLIC_OWNER_ID, communityVoiceId(fourth.name), { newName: fourth.name }));
    expect(e).toEqual({ status: 400, detail: { status: "voice_limit_reached", message: "Voice limit of 3 reached" } });
    expect((await free.client.voices.search({ voiceType: "non-default" })).voices).toHaveLength(3);
    expect((await free.client.user.subscription.get()).voiceSlotsUsed).toBe(3);
    const refused = (await free.client.voices.getShared({ search: fourth.name })).voices;
    expect(refused.map((v) => [v.name, v.clonedByCount, v.isAddedByUser])).toEqual([[fourth.name, 0, false]]);
  });

  it("refuses to publish a voice that came from the library, or another workspace's voice", async () => {
    const again = await publish(adder, copy, {});
    expect(again.status).toBe(400);
    expect((await detail(again)).status).toBe("voice_not_publishable");
    const theirs = await publish(adder, published, {});
    expect(theirs.status).toBe(404);
    const unpublish = await apiFetch(stack, adder.apiKey, `/v1/voices/${published}/sharing`, { method: "DELETE" });
    expect(unpublish.status).toBe(404);
  });

  it("keeps an unpublished voice working for its adders through the notice period, tells them, then stops it", async () => {
    const removedAt = Math.floor(clock / 1000);
    const r = await apiFetch(stack, owner.apiKey, `/v1/voices/${published}/sharing`, { method: "DELETE" });
    expect(r.status).toBe(200);
    const disableAt = removedAt + 30 * 86_400;
    expect(await r.json()).toEqual({ status: "ok", disable_at_unix: disableAt });

    // Gone from the library and from adding; the owner sees it disabled.
    expect((await adder.client.voices.getShared({ ownerId: publicOwnerId(owner.user.user_id) })).voices).toEqual([]);
    const late = await account("creator");
    expect((await sdkError(late.client.voices.share(publicOwnerId(owner.user.user_id), published, { newName: "Late" }))).detail.status).toBe("voice_not_found");
    expect((await owner.client.voices.get(published)).sharing).toMatchObject({ status: "disabled", disableAtUnix: disableAt });

    // The adder's workspace got one event for its webhooks.
    const events = await stack.ctx.stores.events.list(adder.workspace.workspace_id);
    expect(events.map((e) => e.type)).toEqual(["voice_library_removal_notice"]);
    expect(events[0].data).toEqual({
      voice_id: copy,
      original_voice_id: published,
      public_owner_id: publicOwnerId(owner.user.user_id),
      name: "Alto",
      library_name: "Studio Alto",
      notice_period_days: 30,
      removed_at_unix: removedAt,
      disable_at_unix: disableAt,
    });
    expect(await stack.ctx.stores.events.list(owner.workspace.workspace_id)).toEqual([]);

    // A day before the end it still speaks.
    clock += 29 * DAY;
    const before = await speak(adder, copy, "Still here.");
    expect(before.status).toBe(200);
    await before.arrayBuffer();
    expect((await adder.client.voices.get(copy)).sharing).toMatchObject({ status: "copied", disableAtUnix: disableAt });

    // After disable_at_unix it stops, with a clear error, and shows as disabled.
    clock += 1 * DAY + 1000;
    const after = await speak(adder, copy, "Gone now.");
    expect(after.status).toBe(403);
    const d = await detail(after);
    expect(d.status).toBe("voice_removed_from_library");
    expect(d.message).toBe(`The voice Alto was removed from the Voice Library by its owner and stopped working on ${new Date(disableAt * 1000).toISOString().slice(0, 10)}. Please choose another voice.`);
    expect((await adder.client.voices.get(copy)).sharing?.status).toBe("copied_disabled");
  });

  it("gives the same notice when the owner deletes a published voice, and cancels it when the owner publishes again", async () => {
    const a = await insertOwnVoice(stack, owner.workspace.workspace_id, owner.user.user_id, "Deleted Tenor");
    const b = await insertOwnVoice(stack, owner.workspace.workspace_id, owner.user.user_id, "Returning Bass");
    for (const v of [a, b]) expect((await publish(owner, v.voice_id, { notice_period: 90 })).status).toBe(200);
    const pub = publicOwnerId(owner.user.user_id);
    const copyA = (await adder.client.voices.share(pub, a.voice_id, { newName: "Tenor" })).voiceId;
    const copyB = (await adder.client.voices.share(pub, b.voice_id, { newName: "Bass" })).voiceId;

    await owner.client.voices.delete(a.voice_id);
    const notices = (await stack.ctx.stores.events.list(adder.workspace.workspace_id)).filter((e) => e.data.voice_id === copyA);
    expect(notices).toHaveLength(1);
    expect(notices[0].data.disable_at_unix).toBe(Math.floor(clock / 1000) + 90 * 86_400);
    const stillA = await speak(adder, copyA, "Deleted but in notice.");
    expect(stillA.status).toBe(200);
    await stillA.arrayBuffer();

    await apiFetch(stack, owner.apiKey, `/v1/voices/${b.voice_id}/sharing`, { method: "DELETE" });
    expect((await publish(owner, b.voice_id, { notice_period: 90 })).status).toBe(200);
    clock += 91 * DAY;
    const stillB = await speak(adder, copyB, "Published again.");
    expect(stillB.status).toBe(200);
    await stillB.arrayBuffer();
    const goneA = await speak(adder, copyA, "Notice over.");
    expect(goneA.status).toBe(403);
  });
});
