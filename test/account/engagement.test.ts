import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { apiFetch, createTestAccount, startTestStack } from "../support/stack.js";
import { createAccount, createApiKey } from "../../functions/platform/domain/accounts.js";
import { FLAGGED_NOTES, RELEASE_NOTES } from "../../functions/capabilities/engagement/notifications.js";
import { classifyFeedback, FEEDBACK_PER_HOUR } from "../../functions/capabilities/engagement/feedback.js";
import { adminOf, uniqueEmail } from "../workspace/support.js";

/** The shell's feed, feedback, onboarding checklist and affiliate link (app-shell.md §4, §7). */
let stack: EmbeddedStack;
let operatorKey: string;
beforeAll(async () => {
  stack = await startTestStack();
  const { user, workspace } = await createAccount(stack.ctx, { email: uniqueEmail("op"), password: "operator password", tier: "pro", serverAdmin: true });
  operatorKey = (await createApiKey(stack.ctx, { workspaceId: workspace.workspace_id, userId: user.user_id, name: "op" })).value;
});
afterAll(async () => stack?.close());

const json = (key: string, path: string, method = "GET", body?: unknown) => apiFetch(stack, key, path, { method, body: body === undefined ? undefined : JSON.stringify(body) });

describe("notifications", () => {
  it("serves the seeded release notes newest first, at most 10, and what admins post for the reader's tier, nothing from the future", async () => {
    const free = await createTestAccount(stack, "free");
    const first = (await (await json(free.apiKey, "/v1/notifications")).json()).docs as Array<{ id: string; timestamp: number; isImportant: boolean }>;
    // The free tier also sees the flag-controlled upsell and free-regeneration notes.
    expect(first.map((n) => n.id)).toEqual([...RELEASE_NOTES, ...FLAGGED_NOTES].sort((a, b) => b.timestamp - a.timestamp).map((n) => n.id));
    expect(first.find((n) => n.id === "release-workspaces")).toMatchObject({ isImportant: true });

    const forPro = await json(operatorKey, "/v1/notifications", "POST", { title: "Pro news", description: "Only for Pro.", tiers: ["pro"] });
    expect(forPro.status).toBe(201);
    const later = await json(operatorKey, "/v1/notifications", "POST", { title: "Tomorrow", description: "Not yet.", timestamp: Math.floor(Date.now() / 1000) + 86_400 });
    expect(later.status).toBe(201);
    for (let i = 0; i < 5; i++) await json(operatorKey, "/v1/notifications", "POST", { title: `Note ${i}`, description: "For everyone." });

    const seenByFree = (await (await json(free.apiKey, "/v1/notifications")).json()).docs as Array<{ title: string }>;
    expect(seenByFree).toHaveLength(10);
    expect(seenByFree.map((n) => n.title)).not.toContain("Pro news");
    expect(seenByFree.map((n) => n.title)).not.toContain("Tomorrow");
    const seenByOperator = (await (await json(operatorKey, "/v1/notifications?limit=10")).json()).docs as Array<{ title: string }>;
    expect(seenByOperator.map((n) => n.title)).toContain("Pro news");

    expect((await json(free.apiKey, "/v1/notifications", "POST", { title: "x", description: "y" })).status).toBe(403);
  });

  it("serves a notification for some personas to the users whose onboarding role or subrole is one of them", async () => {
    const posted = await json(operatorKey, "/v1/notifications", "POST", { title: "For developers", description: "The SDK is here.", onboarding_personas: ["developer", "Audiobooks"] });
    expect(posted.status).toBe(201);
    expect(((await posted.json()) as { onboarding_personas: string[] }).onboarding_personas).toEqual(["developer", "audiobooks"]);
    const titles = async (key: string) => ((await (await json(key, "/v1/notifications?limit=5")).json()).docs as Array<{ title: string }>).map((n) => n.title);

    const unsurveyed = await createTestAccount(stack, "creator");
    const developer = await createTestAccount(stack, "creator");
    const narrator = await createTestAccount(stack, "creator");
    const marketer = await createTestAccount(stack, "creator");
    expect((await json(developer.apiKey, "/v1/user/onboarding-survey", "PUT", { role: "developer" })).status).toBe(200);
    expect((await json(narrator.apiKey, "/v1/user/onboarding-survey", "PUT", { role: "creator", subrole: "audiobooks" })).status).toBe(200);
    expect((await json(marketer.apiKey, "/v1/user/onboarding-survey", "PUT", { role: "marketing", subrole: "ads" })).status).toBe(200);
    expect(((await (await json(narrator.apiKey, "/v1/user")).json()) as { onboarding_survey: unknown }).onboarding_survey).toEqual({ role: "creator", subrole: "audiobooks" });

    expect(await titles(developer.apiKey)).toContain("For developers");
    expect(await titles(narrator.apiKey)).toContain("For developers");
    expect(await titles(marketer.apiKey)).not.toContain("For developers");
    expect(await titles(unsurveyed.apiKey)).not.toContain("For developers");
    // Answers are slugs, bounded.
    expect((await json(marketer.apiKey, "/v1/user/onboarding-survey", "PUT", { role: "x".repeat(41) })).status).toBe(422);
    expect((await json(marketer.apiKey, "/v1/user/onboarding-survey", "PUT", { role: "<b>" })).status).toBe(422);
  });
});

describe("flag-controlled notifications", () => {
  type Doc = { id: string; featureFlagControlled: boolean; first_shown: number | null };
  const feed = async (key: string) => (await (await json(key, "/v1/notifications?limit=20")).json()).docs as Doc[];

  it("shows the upsell to the free and starter tiers and the free-regeneration tip to all, while their flags are on", async () => {
    const free = await createTestAccount(stack, "free");
    const pro = await createTestAccount(stack, "pro");
    const freeIds = (await feed(free.apiKey)).filter((d) => d.featureFlagControlled).map((d) => d.id);
    expect(freeIds.sort()).toEqual(["auto-regenerate-free", "upsell-more-credits"]);
    expect((await feed(pro.apiKey)).filter((d) => d.featureFlagControlled).map((d) => d.id)).toEqual(["auto-regenerate-free"]);
    expect((await feed(free.apiKey)).filter((d) => !d.featureFlagControlled).every((d) => d.first_shown === null)).toBe(true);

    // An admin turns the upsell off for the workspace: it leaves the feed and cannot be marked shown.
    expect((await json(free.apiKey, "/v1/workspace", "PATCH", { flags: { "upsell-notifications": false } })).status).toBe(200);
    expect((await feed(free.apiKey)).map((d) => d.id)).not.toContain("upsell-more-credits");
    expect((await json(free.apiKey, "/v1/notifications/upsell-more-credits/shown", "POST")).status).toBe(404);
    // The upsell is not the pro tier's.
    expect((await json(pro.apiKey, "/v1/notifications/upsell-more-credits/shown", "POST")).status).toBe(404);
  });

  it("stores the first time a reader was shown one, keeps it on later showings, per reader, and refuses other ids", async () => {
    const a = await createTestAccount(stack, "starter");
    const b = await createTestAccount(stack, "starter");
    const first = await json(a.apiKey, "/v1/notifications/upsell-more-credits/shown", "POST");
    expect(first.status).toBe(200);
    const at = ((await first.json()) as { first_shown: number }).first_shown;
    expect(Math.abs(at - Date.now() / 1000)).toBeLessThan(120);
    await new Promise((r) => setTimeout(r, 1100));
    expect(((await (await json(a.apiKey, "/v1/notifications/upsell-more-credits/shown", "POST")).json()) as { first_shown: number }).first_shown).toBe(at);
    expect((await feed(a.apiKey)).find((d) => d.id === "upsell-more-credits")?.first_shown).toBe(at);
    expect((await feed(a.apiKey)).find((d) => d.id === "auto-regenerate-free")?.first_shown).toBeNull();
    expect((await feed(b.apiKey)).find((d) => d.id === "upsell-more-credits")?.first_shown).toBeNull();
    // Release notes and unknown ids have no first-shown time to store.
    expect((await json(a.apiKey, "/v1/notifications/release-speech/shown", "POST")).status).toBe(404);
    expect((await json(a.apiKey, "/v1/notifications/nope/shown", "POST")).status).toBe(404);
  });
});

describe("feedback", () => {
  it("classifies with plain rules", () => {
    expect(classifyFeedback("The export crashes every time I download a clip")).toEqual({ relevant: true, category: "bug", positive: false });
    expect(classifyFeedback("I love the new voices, thank you!")).toMatchObject({ relevant: true, category: "voice_quality", positive: true });
    expect(classifyFeedback("Please add a Welsh voice")).toMatchObject({ relevant: true, category: "feature_request" });
    expect(classifyFeedback("asdfghjkl")).toMatchObject({ relevant: false });
    expect(classifyFeedback("!!!!!!!! ??????")).toMatchObject({ relevant: false, category: "other" });
  });

  it("answers {relevant, category, positive}, stores it for the server's admins, refuses empty text, and limits the rate", async () => {
    const user = await createTestAccount(stack);
    const r = await json(user.apiKey, "/v1/feedback", "POST", { feedback: "The dictionary editor is great, thanks" });
    expect(await r.json()).toEqual({ relevant: true, category: "praise", positive: true });
    const empty = await json(user.apiKey, "/v1/feedback", "POST", { feedback: "   " });
    expect(empty.status).toBe(422);
    expect((await empty.json()).detail[0].msg).toBe("Please enter your feedback");
    const stored = (await (await json(operatorKey, "/v1/feedback")).json()).feedback as Array<{ email: string; feedback: string }>;
    expect(stored[0]).toMatchObject({ email: user.email, feedback: "The dictionary editor is great, thanks" });
    expect((await json(user.apiKey, "/v1/feedback")).status).toBe(403);
    let last = 200;
    for (let i = 0; i < FEEDBACK_PER_HOUR; i++) last = (await json(user.apiKey, "/v1/feedback", "POST", { feedback: `More thoughts number ${i}` })).status;
    expect(last).toBe(429);
  });
});

describe("onboarding checklist", () => {
  it("completes steps from real events, counts them, and can be hidden", async () => {
    const admin = await adminOf(stack);
    const list = async () => (await (await apiFetch(stack, admin.apiKey, "/v1/user/onboarding-checklist")).json()) as { completed_count: number; total_count: number; hidden: boolean; items: Array<{ onboarding_checklist_item_id: string; is_completed: boolean; title: string }> };
    // createTestAccount made an API key already.
    let c = await list();
    expect(c.total_count).toBe(5);
    expect(c.items.filter((i) => i.is_completed).map((i) => i.onboarding_checklist_item_id)).toEqual(["create_api_key"]);

    await admin.client.pronunciationDictionaries.createFromRules({ name: "Mine", rules: [] });
    await admin.client.workspace.invites.create({ email: uniqueEmail("teammate") });
    c = await list();
    expect(c.completed_count).toBe(3);
    expect(c.items.find((i) => i.onboarding_checklist_item_id === "first_dictionary")?.is_completed).toBe(true);
    expect(c.items.find((i) => i.onboarding_checklist_item_id === "invite_member")?.is_completed).toBe(true);
    expect(c.items[0].title).toBe("Generate your first speech");

    expect((await apiFetch(stack, admin.apiKey, "/v1/user/onboarding-checklist", { method: "PATCH", body: JSON.stringify({ hidden: true }) })).status).toBe(200);
    expect((await list()).hidden).toBe(true);
  });
});

describe("affiliate link", () => {
  it("generates a referral code and link once and keeps them", async () => {
    const user = await createTestAccount(stack, "creator");
    const a = await (await json(user.apiKey, "/v1/user/affiliate-link", "POST")).json();
    expect(a.referral_link_code).toMatch(/^[A-Za-z0-9]{10}$/);
    expect(a.link).toBe(`${stack.url}/sign-up?via=${a.referral_link_code}`);
    const b = await (await json(user.apiKey, "/v1/user/affiliate-link", "POST")).json();
    expect(b).toEqual(a);
    expect((await (await json(user.apiKey, "/v1/user")).json()).referral_link_code).toBe(a.referral_link_code);
  });
});
