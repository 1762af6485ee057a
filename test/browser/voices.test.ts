import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ElevenLabsClient } from "@elevenlabs/elevenlabs-js";
import type { Browser, Locator, Page } from "playwright-core";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import type { VoiceRecord } from "../../functions/adapters/dynamo/voices.js";
import { COMMUNITY_PUBLIC_OWNER_ID, COMMUNITY_VOICES, communityVoiceId } from "../../functions/voices/community.js";
import { publicOwnerId } from "../../functions/voices/records.js";
import { encodeWav } from "../../functions/audio/wav.js";
import { apiFetch, createTestAccount, insertOwnVoice } from "../support/stack.js";
import { closeBrowserStack, closeContext, newContext, openBrowserStack, signIn, visit, watchErrors } from "./helpers.js";

/**
 * The Voices pages in a real browser: the Voice Library (every filter against what /v1 answers
 * for the same filters, featured, sort, previews one at a time, Add to my voices and its error
 * toast, similar voices, infinite scroll), My Voices (search, category, sort, the detail panel),
 * the Add a new voice dialog, and the voice picker's groups on a desktop and a phone.
 */
let stack: EmbeddedStack;
let browser: Browser;
type Account = Awaited<ReturnType<typeof createTestAccount>> & { client: ElevenLabsClient };
let publisher: Account;
const published: Record<"alto" | "bass" | "bright", VoiceRecord> = {} as never;

const LIBRARY = "/app/voice-library";
const MY_VOICES = "/app/voice-lab";
const TTS = "/app/speech-synthesis/text-to-speech";

async function account(tier: "free" | "starter" | "creator" | "pro"): Promise<Account> {
  const a = await createTestAccount(stack, tier);
  return { ...a, client: new ElevenLabsClient({ baseUrl: stack.url, apiKey: a.apiKey, maxRetries: 0 }) };
}

async function publish(a: Account, v: VoiceRecord, body: Record<string, unknown>) {
  const r = await apiFetch(stack, a.apiKey, `/v1/voices/${v.voice_id}/sharing`, { method: "POST", body: JSON.stringify({ notice_period: 30, ...body }) });
  expect(r.status).toBe(200);
}

beforeAll(async () => {
  ({ stack, browser } = await openBrowserStack());
  publisher = await account("pro");
  const make = (name: string, labels: Record<string, string>, profile: VoiceRecord["profile"]) =>
    insertOwnVoice(stack, publisher.workspace.workspace_id, publisher.user.user_id, name, { labels, profile });
  published.alto = await make("Studio Alto", { language: "en", accent: "british", gender: "female", age: "middle_aged" }, { language: "en", accent: "british", gender: "female", age: "middle_aged", pitch: 52, pitchRange: 48, rate: 160, timbre: -0.1, seed: 11 });
  published.bass = await make("Tiefer Bass", { language: "de", gender: "male", age: "old" }, { language: "de", gender: "male", age: "old", pitch: 20, pitchRange: 35, rate: 140, timbre: -0.6, seed: 12 });
  published.bright = await make("Bright Spark", { language: "en", accent: "american", gender: "female", age: "young" }, { language: "en", accent: "american", gender: "female", age: "young", pitch: 74, pitchRange: 72, rate: 185, timbre: 0.5, seed: 13 });
  await publish(publisher, published.alto, { use_case: "narrative_story", descriptives: ["warm", "calm"], rate: 2, free_users_allowed: false });
  await publish(publisher, published.bass, { use_case: "characters_animation", descriptives: ["deep"], live_moderation_enabled: true, notice_period: 365 });
  await publish(publisher, published.bright, { use_case: "social_media", descriptives: ["bright", "upbeat"], notice_period: 90 });
}, 180_000);
afterAll(() => closeBrowserStack(stack, browser));

async function openAs(a: Account, path: string, size: { width: number; height: number } = { width: 1440, height: 900 }) {
  const context = await newContext(browser, stack, size);
  const page = await context.newPage();
  const errors = watchErrors(page);
  await signIn(page, a.email, a.password);
  await visit(page, path);
  return { page, errors };
}

const cards = (page: Page) => page.getByTestId("library-voice");
const cardIds = (page: Page) => page.locator("[data-testid=library-grid-voices] [data-testid=library-voice]").evaluateAll((els) => els.map((e) => e.getAttribute("data-voice-id")));
const card = (page: Page, name: string) => page.locator("[data-testid=library-voice]", { has: page.getByRole("heading", { name, exact: true }) }).first();

/** Waits until the grid shows what /v1/shared-voices answers for `query` (every page of it), in order. */
async function expectGridLike(page: Page, a: Account, query: Record<string, unknown>) {
  const expected: string[] = [];
  let lastSortId: string | undefined;
  for (;;) {
    const p = new URLSearchParams({ page_size: "100", ...Object.fromEntries(Object.entries(query).filter(([k]) => k !== "use_cases" && k !== "descriptives").map(([k, v]) => [k, String(v)])) });
    for (const u of (query.use_cases as string[] | undefined) ?? []) p.append("use_cases", u);
    for (const d of (query.descriptives as string[] | undefined) ?? []) p.append("descriptives", d);
    if (lastSortId) p.set("last_sort_id", lastSortId);
    const body = (await (await apiFetch(stack, a.apiKey, `/v1/shared-voices?${p}`)).json()) as { voices: Array<{ voice_id: string }>; has_more: boolean; last_sort_id: string | null };
    expected.push(...body.voices.map((v) => v.voice_id));
    if (!body.has_more || !body.last_sort_id) break;
    lastSortId = body.last_sort_id;
  }
  await expect.poll(() => cardIds(page), { message: JSON.stringify(query) }).toEqual(expected);
  return expected;
}

async function openFilters(page: Page) {
  const toggle = page.getByRole("button", { name: /^Filters/ });
  if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
}

describe("the Voice Library", () => {
  it("narrows the grid with every filter as /v1 does, keeps them in the URL, and sorts", async () => {
    const me = await account("creator");
    const { page, errors } = await openAs(me, LIBRARY);
    // The whole seeded library and the three published voices on the first page.
    await expect.poll(() => cards(page).count()).toBe(COMMUNITY_VOICES.length + 3);
    await expectGridLike(page, me, { sort: "trending" });

    await openFilters(page);
    await page.getByLabel("Language", { exact: true }).selectOption("de");
    expect(await expectGridLike(page, me, { language: "de" })).toContain(published.bass.voice_id);
    await page.getByLabel("Gender", { exact: true }).selectOption("male");
    await page.getByLabel("Age", { exact: true }).selectOption("old");
    expect(await expectGridLike(page, me, { language: "de", gender: "male", age: "old" })).toContain(published.bass.voice_id);
    expect(new URL(page.url()).search).toBe("?gender=male&age=old&language=de");
    // The URL is the state: a reload shows the same voices.
    await visit(page, `${LIBRARY}?gender=male&age=old&language=de`);
    await expectGridLike(page, me, { language: "de", gender: "male", age: "old" });
    await openFilters(page);
    await page.getByRole("button", { name: "Reset filters" }).click();
    await expectGridLike(page, me, {});

    await page.getByLabel("Language", { exact: true }).selectOption("en");
    await page.getByLabel("Accent", { exact: true }).selectOption("british");
    expect(await expectGridLike(page, me, { language: "en", accent: "british" })).toContain(published.alto.voice_id);
    await page.getByRole("button", { name: "Reset filters" }).click();

    // Use cases (several: any of them), descriptives, notice period, custom rates, live moderation.
    await page.getByRole("group", { name: "Use cases" }).getByLabel("Characters animation").check();
    await page.getByRole("group", { name: "Use cases" }).getByLabel("Social media").check();
    expect(await expectGridLike(page, me, { use_cases: ["characters_animation", "social_media"] })).toEqual(expect.arrayContaining([published.bass.voice_id, published.bright.voice_id]));
    await page.getByRole("button", { name: "Reset filters" }).click();
    await page.getByRole("group", { name: "Descriptives" }).getByLabel("Upbeat").check();
    expect(await expectGridLike(page, me, { descriptives: ["upbeat"] })).toContain(published.bright.voice_id);
    await page.getByRole("button", { name: "Reset filters" }).click();
    await page.getByLabel("Notice period", { exact: true }).selectOption("365");
    const longNotice = await expectGridLike(page, me, { min_notice_period_days: 365 });
    expect(longNotice).toContain(published.bass.voice_id);
    expect(longNotice).not.toContain(published.bright.voice_id);
    await page.getByRole("button", { name: "Reset filters" }).click();
    await page.getByLabel("Include voices with a custom rate").uncheck();
    expect(await expectGridLike(page, me, { include_custom_rates: false })).not.toContain(published.alto.voice_id);
    await page.getByRole("button", { name: "Reset filters" }).click();
    await page.getByLabel("Include live-moderated voices").uncheck();
    expect(await expectGridLike(page, me, { include_live_moderated: false })).not.toContain(published.bass.voice_id);
    await page.getByRole("button", { name: "Reset filters" }).click();
    await page.getByLabel("Category", { exact: true }).selectOption("generated");
    await expectGridLike(page, me, { category: "generated" });
    // High quality is a category on the wire: nothing here is, so the empty state offers a way back.
    await page.getByLabel("Quality", { exact: true }).selectOption("high_quality");
    expect(await expectGridLike(page, me, { category: "high_quality" })).toEqual([]);
    await expect.poll(() => page.getByRole("heading", { name: "No voices found" }).count()).toBe(1);
    await page.getByRole("button", { name: "Reset filters" }).first().click();

    // Featured, search and sort.
    await page.getByLabel("Featured", { exact: true }).check();
    const featured = await expectGridLike(page, me, { featured: true });
    expect(featured.length).toBe(COMMUNITY_VOICES.filter((c) => c.featured).length);
    await page.getByLabel("Featured", { exact: true }).uncheck();
    await page.getByRole("searchbox", { name: "Search the library" }).fill("spark");
    expect(await expectGridLike(page, me, { search: "spark" })).toEqual([published.bright.voice_id]);
    await page.getByRole("searchbox", { name: "Search the library" }).fill("");
    await page.getByLabel("Sort", { exact: true }).selectOption("created_date");
    const latest = await expectGridLike(page, me, { sort: "created_date" });
    expect(latest.slice(0, 3).sort()).toEqual(Object.values(published).map((v) => v.voice_id).sort());
    expect(new URL(page.url()).searchParams.get("sort")).toBe("created_date");
    expect(errors.pageErrors).toEqual([]);
    await closeContext(page.context());
  }, 120_000);
});
