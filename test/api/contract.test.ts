import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ElevenLabsClient, ElevenLabsError, ElevenLabs } from "@elevenlabs/elevenlabs-js";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { startTestStack, createTestAccount, insertOwnVoice, apiFetch } from "../support/stack.js";
import { PREMADE_VOICES, premadeVoiceId } from "../../functions/platform/domain/premadeVoices.js";

/**
 * The official SDK, unchanged, against the embedded stack: if a required response field is
 * missing or mistyped, the SDK itself throws a ParseError and these tests fail.
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

describe("SDK contract: models, user, subscription", () => {
  it("lists models with capability flags and rates", async () => {
    const models = await client.models.list();
    const flash = models.find((m) => m.modelId === "eleven_flash_v2_5")!;
    expect(flash.modelRates?.characterCostMultiplier).toBe(0.5);
    expect(flash.canDoTextToSpeech).toBe(true);
    const sts = models.find((m) => m.modelId === "eleven_multilingual_sts_v2")!;
    expect(sts.canDoVoiceConversion).toBe(true);
    expect(sts.canDoTextToSpeech).toBe(false);
    expect(models.every((m) => (m.languages ?? []).length > 0)).toBe(true);
    // Every model id the app shell knows (app-shell.md §4) is served.
    const known = ["eleven_monolingual_v1", "eleven_multilingual_v1", "eleven_multilingual_v2", "eleven_turbo_v2", "eleven_flash_v2", "eleven_v2", "eleven_english_v2", "eleven_english_sts_v2", "eleven_multilingual_sts_v2", "eleven_flash_v2_5", "eleven_turbo_v2_5"];
    for (const id of known) expect(models.map((m) => m.modelId), id).toContain(id);
  });

  it("speaks with the legacy eleven_english_v2 model", async () => {
    // Its own account: the others' usage stays untouched.
    const own = await createTestAccount(stack, "creator");
    const legacy = new ElevenLabsClient({ baseUrl: stack.url, apiKey: own.apiKey, maxRetries: 0 });
    const audio = await legacy.textToSpeech.convert(premadeVoiceId("Avery"), { text: "Legacy model.", modelId: "eleven_english_v2", outputFormat: "mp3_22050_32" });
    const bytes = await new Response(audio).arrayBuffer();
    expect(bytes.byteLength).toBeGreaterThan(1000);
    expect((await legacy.user.subscription.get()).characterCount).toBe("Legacy model.".length);
  });

  it("gets the user with the subscription the tier defines", async () => {
    const user = await client.user.get();
    expect(user.userId).toBe(acct.user.user_id);
    expect(user.workspaceId).toBe(acct.workspace.workspace_id);
    expect(user.seatType).toBe("workspace_admin");
    expect(user.subscription.tier).toBe("creator");
    expect(user.subscription.characterLimit).toBe(100_000);
    expect(user.subscription.canUseProfessionalVoiceCloning).toBe(true);
    const sub = await client.user.subscription.get();
    expect(sub.characterCount).toBe(0);
    expect(sub.status).toBe("active");
    expect(sub.nextCharacterCountResetUnix).toBeGreaterThan(Date.now() / 1000);
    expect(sub.voiceLimit).toBe(30);
  });
});

describe("SDK contract: voices", () => {
  it("lists premade voices in v1 and finds them by id", async () => {
    const { voices } = await client.voices.getAll();
    expect(voices.length).toBeGreaterThanOrEqual(24);
    expect(new Set(voices.map((v) => v.labels?.language)).size).toBeGreaterThanOrEqual(8);
    const one = await client.voices.get(voices[0].voiceId);
    expect(one.name).toBe(voices[0].name);
    expect(one.category).toBe("premade");
  });

  it("pages through v2 search with next_page_token, without repeats, and counts the total", async () => {
    const seen: string[] = [];
    let token: string | undefined;
    let total = 0;
    do {
      const page = await client.voices.search({ pageSize: 7, sort: "name", sortDirection: "asc", nextPageToken: token, includeTotalCount: true });
      seen.push(...page.voices.map((v) => v.name!));
      total = page.totalCount;
      token = page.hasMore ? (page.nextPageToken ?? undefined) : undefined;
    } while (token);
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    expect(seen).toEqual([...seen].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(total).toBe(PREMADE_VOICES.length);
  });

  it("filters v2 search by text, type, category and labels", async () => {
    const mine = await insertOwnVoice(stack, acct.workspace.workspace_id, acct.user.user_id, "Studio Narrator");
    const personal = await client.voices.search({ voiceType: "personal" });
    expect(personal.voices.map((v) => v.voiceId)).toEqual([mine.voice_id]);
    expect(personal.voices[0].isOwner).toBe(true);
    const defaults = await client.voices.search({ voiceType: "default", pageSize: 100 });
    expect(defaults.voices.every((v) => v.category === "premade")).toBe(true);
    const german = await client.voices.search({ language: "de", pageSize: 100 });
    expect(german.voices.length).toBeGreaterThan(0);
    expect(german.voices.every((v) => v.labels?.language === "de")).toBe(true);
    const found = await client.voices.search({ search: "narrator studio" });
    expect(found.voices.map((v) => v.name)).toEqual(["Studio Narrator"]);
    const cloned = await client.voices.search({ category: "cloned" });
    expect(cloned.totalCount).toBe(1);
  });

  it("reads default settings, and edits a voice's settings", async () => {
    const defaults = await client.voices.settings.getDefault();
    expect(defaults).toEqual({ stability: 0.5, similarityBoost: 0.75, style: 0, useSpeakerBoost: true, speed: 1 });
    const premadeId = (await client.voices.getAll()).voices[0].voiceId;
    await client.voices.settings.update(premadeId, { stability: 0.3, speed: 1.1 });
    const after = await client.voices.settings.get(premadeId);
    expect(after).toMatchObject({ stability: 0.3, speed: 1.1, similarityBoost: 0.75 });
  });

  it("rejects out-of-range settings with 422 and the field location", async () => {
    const premadeId = (await client.voices.getAll()).voices[0].voiceId;
    const err = await client.voices.settings.update(premadeId, { speed: 2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ElevenLabs.UnprocessableEntityError);
    const body = (err as ElevenLabsError).body as { detail: Array<{ loc: unknown[] }> };
    expect(body.detail[0].loc).toEqual(["body", "speed"]);
  });

  it("deletes own voices only", async () => {
    const mine = await insertOwnVoice(stack, acct.workspace.workspace_id, acct.user.user_id, "Disposable");
    const premadeId = (await client.voices.getAll()).voices[0].voiceId;
    const refused = await client.voices.delete(premadeId).catch((e: unknown) => e);
    expect((refused as ElevenLabsError).statusCode).toBe(403);
    expect((await client.voices.delete(mine.voice_id)).status).toBe("ok");
    const gone = await client.voices.get(mine.voice_id).catch((e: unknown) => e);
    expect((gone as ElevenLabsError).statusCode).toBe(404);
    expect(((gone as ElevenLabsError).body as { detail: { status: string } }).detail.status).toBe("voice_not_found");
  });
});

describe("wire conventions", () => {
  it("puts a request id on every response, errors included", async () => {
    for (const [key, path] of [[acct.apiKey, "/v1/models"], [undefined, "/v1/models"], [acct.apiKey, "/v1/nope"]] as const) {
      const r = await apiFetch(stack, key, path);
      expect(r.headers.get("request-id")).toMatch(/^[\w-]{8,}$/);
      expect(r.headers.get("x-request-id")).toBe(r.headers.get("request-id"));
    }
  });

  it("answers malformed JSON with a 4xx, never a 500", async () => {
    const premadeId = (await client.voices.getAll()).voices[0].voiceId;
    const r = await apiFetch(stack, acct.apiKey, `/v1/voices/${premadeId}/settings/edit`, { method: "POST", body: "{not json", headers: { "content-type": "application/json" } });
    expect(r.status).toBe(422);
    const body = (await r.json()) as { detail: Array<{ type: string }> };
    expect(body.detail[0].type).toBe("json_invalid");
  });

  it("uses 404 for unknown paths and 405 for wrong methods, in the detail shape", async () => {
    const a = await apiFetch(stack, acct.apiKey, "/v1/does-not-exist");
    expect(a.status).toBe(404);
    expect(await a.json()).toEqual({ detail: { status: "not_found", message: "Not Found" } });
    const b = await apiFetch(stack, acct.apiKey, "/v1/models", { method: "DELETE" });
    expect(b.status).toBe(405);
  });

  it("rejects an invalid page token and an oversized page", async () => {
    expect((await apiFetch(stack, acct.apiKey, "/v2/voices?next_page_token=garbage")).status).toBe(400);
    const r = await apiFetch(stack, acct.apiKey, "/v2/voices?page_size=101");
    expect(r.status).toBe(422);
  });
});
