import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { createAccount, createApiKey } from "../../functions/platform/domain/accounts.js";
import { permissionDeniedMessage } from "../../functions/platform/domain/permissions.js";
import { stepOf, totpAt } from "../../functions/capabilities/account/totp.js";
import { revokeText, SHARING_FAILURES, SHARING_SUCCESS } from "../../web/app/components/sharing/sharing.js";
import { AFFILIATE, FEEDBACK_MESSAGES } from "../../web/app/components/engagement/engagement.js";
import { apiFetch, createTestAccount, insertOwnVoice } from "../support/stack.js";
import { workspaceMessages } from "../../functions/platform/contract/workspace.js";
import { joinAsMember, uniqueEmail } from "../workspace/support.js";
import { startReceiver } from "../webhooks/receiver.js";
import { closeBrowserStack, closeContext, hydrated, newContext, openBrowserStack, signIn, visit, watchErrors } from "./helpers.js";
import { TRAINING_OPT_OUT_LABEL } from "../../web/app/routes/app.settings.workspace/TrainingSettings.js";
import { EDITORS_SHARE_LABEL } from "../../web/app/routes/app.settings.workspace/SharingSettings.js";

/** Issue 13 in a real browser: workspace administration, the permission gate, invites, sharing, webhooks, two-factor, feedback, plans. */
let stack: EmbeddedStack;
let browser: Browser;
// The webhooks test receives on loopback, which only WEBHOOK_ALLOW_LOCAL_TARGETS allows.
beforeAll(async () => ({ stack, browser } = await openBrowserStack({ WEBHOOK_ALLOW_LOCAL_TARGETS: "true" })));
afterAll(() => closeBrowserStack(stack, browser));

async function pageFor(width = 1280): Promise<Page> {
  const context = await newContext(browser, stack, { width, height: 900 });
  return context.newPage();
}

const toast = (page: Page, text: string) => page.getByRole("region", { name: "Notifications" }).getByText(text, { exact: true });

describe("permissions in the web", () => {
  it("an admin turns Text to Speech off for Everyone; a member then sees the gate's message; a custom group cannot grant what Everyone grants", async () => {
    const admin = await createTestAccount(stack, "business");
    const member = await joinAsMember(stack, { client: new (await import("@elevenlabs/elevenlabs-js")).ElevenLabsClient({ baseUrl: stack.url, apiKey: admin.apiKey, maxRetries: 0 }) });
    const page = await pageFor();
    const errors = watchErrors(page);
    await signIn(page, admin.email, admin.password);
    await visit(page, "/app/settings/workspace");
    // A new custom group: what Everyone grants is locked with the spec's words.
    await page.getByLabel("New group").fill("Voice team");
    await page.getByRole("button", { name: "Create group" }).click();
    const team = page.getByRole("region", { name: /^Voice team/ });
    await expect.poll(() => team.isVisible()).toBe(true);
    const teamTts = team.getByRole("checkbox", { name: /^Text to Speech/ });
    expect(await teamTts.isDisabled()).toBe(true);
    expect(await team.getByText("Must be disabled in the Everyone group first").first().isVisible()).toBe(true);

    const everyone = page.getByRole("region", { name: /^Everyone/ });
    await everyone.getByRole("checkbox", { name: /^Text to Speech/ }).uncheck();
    await everyone.getByRole("button", { name: "Save permissions" }).click();
    await expect.poll(() => toast(page, "Permissions saved.").isVisible()).toBe(true);
    await expect.poll(() => page.getByRole("region", { name: /^Voice team/ }).getByRole("checkbox", { name: /^Text to Speech/ }).isDisabled()).toBe(false);

    const memberPage = await pageFor(390);
    await signIn(memberPage, member.email, member.password);
    await visit(memberPage, "/app/speech-synthesis/text-to-speech");
    await expect.poll(() => memberPage.getByRole("alert").filter({ hasText: permissionDeniedMessage("text_to_speech") }).isVisible()).toBe(true);
    expect(await memberPage.getByRole("button", { name: "Generate speech" }).count()).toBe(0);
    // The API says the same.
    const denied = await apiFetch(stack, member.apiKey, "/v1/text-to-speech/x", { method: "POST", body: JSON.stringify({ text: "hi" }) });
    expect(denied.status).toBe(403);
    expect(errors.pageErrors).toEqual([]);
    await closeContext(memberPage.context());
    await closeContext(page.context());
  }, 90_000);
});

describe("invites in the web", () => {
  it("an admin invites by email, sees the link, and the invitee signs up through it into the workspace", async () => {
    const admin = await createTestAccount(stack, "business");
    const page = await pageFor();
    await signIn(page, admin.email, admin.password);
    await visit(page, "/app/settings/workspace");
    const email = uniqueEmail("web-invitee");
    await page.getByLabel("Email addresses").fill(email);
    await page.getByRole("button", { name: "Send invites" }).click();
    const link = page.getByTestId("invite-url");
    await link.waitFor();
    const url = (await link.textContent())!.trim();
    expect(url).toContain("/invite/");
    // The outbox keeps the mail (embedded mode).
    await expect.poll(() => page.getByRole("region", { name: "Outbox" }).getByText(`to ${email}`, { exact: false }).count()).toBeGreaterThan(0);

    const invitee = await pageFor(390);
    await visit(invitee, new URL(url).pathname);
    await expect.poll(() => invitee.getByRole("heading", { level: 1 }).textContent()).toBe(`Join ${admin.workspace.name}`);
    expect(await invitee.getByLabel("Email").inputValue()).toBe(email);
    await invitee.getByLabel("Password").fill("joining password");
    await invitee.getByRole("button", { name: "Create account and join" }).click();
    await invitee.waitForURL(/\/app$/);
    await hydrated(invitee);
    const user = (await (await apiFetch(stack, admin.apiKey, "/v1/workspace/members")).json()) as Array<{ email: string }>;
    expect(user.map((m) => m.email)).toContain(email);
    await closeContext(invitee.context());
    await closeContext(page.context());
  }, 60_000);

  it("says where the admin acts that every seat is used, and does not offer Send invites (issue 28)", async () => {
    // One seat on the creator plan: the owner's.
    const owner = await createTestAccount(stack, "creator");
    const page = await pageFor(390);
    await signIn(page, owner.email, owner.password);
    await visit(page, "/app/settings/workspace");
    const invite = page.getByRole("region", { name: "Invite people" });
    await expect.poll(() => invite.getByText(workspaceMessages.seatLimitReached(1)).count()).toBe(1);
    expect(await invite.getByRole("button", { name: "Send invites" }).isDisabled()).toBe(true);
    await closeContext(page.context());
  }, 60_000);
});

describe("training use in the web", () => {
  it("an admin opts the workspace out of training use, at a phone's width; the API then says so (pvc.test.ts shows Voice Data's notice)", async () => {
    const owner = await createTestAccount(stack, "creator");
    const page = await pageFor(390);
    const errors = watchErrors(page);
    await signIn(page, owner.email, owner.password);
    await visit(page, "/app/settings/workspace");
    const section = page.getByRole("region", { name: "Training use" });
    const box = section.getByRole("checkbox", { name: TRAINING_OPT_OUT_LABEL });
    expect(await box.isChecked()).toBe(false);
    await box.check();
    await section.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => toast(page, "This workspace opted out of training use.").count()).toBe(1);
    const read = async () => ((await (await apiFetch(stack, owner.apiKey, "/v1/workspace")).json()) as { training_opt_out: boolean }).training_opt_out;
    expect(await read()).toBe(true);
    expect(await section.getByRole("checkbox", { name: TRAINING_OPT_OUT_LABEL }).isChecked()).toBe(true);
    expect(errors.pageErrors).toEqual([]);
    await closeContext(page.context());
  }, 60_000);
});

describe("the Sharing dialog", () => {
  it("shares a dictionary with a member, changes the role, reverts a failed change, and revokes with the spec's confirmation", async () => {
    const admin = await createTestAccount(stack, "business");
    const { ElevenLabsClient } = await import("@elevenlabs/elevenlabs-js");
    const client = new ElevenLabsClient({ baseUrl: stack.url, apiKey: admin.apiKey, maxRetries: 0 });
    const member = await joinAsMember(stack, { client });
    await client.pronunciationDictionaries.createFromRules({ name: "Team words", rules: [{ type: "alias", stringToReplace: "ACME", alias: "Acme" }] });
    const page = await pageFor();
    await signIn(page, admin.email, admin.password);
    await visit(page, "/app?pronunciation-dictionaries=true");
    const editor = page.getByRole("dialog", { name: "Pronunciation dictionaries" });
    await editor.getByRole("button", { name: "Team words", exact: true }).click();
    await editor.getByRole("button", { name: "Share", exact: true }).click();
    const share = page.getByRole("dialog", { name: "Share Team words" });
    await share.getByLabel("Add people, groups or service accounts").selectOption({ label: `Mia (${member.email})` });
    await share.getByLabel("Role").selectOption("viewer");
    await share.getByRole("button", { name: "Share", exact: true }).click();
    await expect.poll(() => toast(page, SHARING_SUCCESS.shared("Mia")).isVisible()).toBe(true);
    await expect.poll(() => share.getByLabel("Role of Mia").inputValue()).toBe("viewer");
    expect((await (await apiFetch(stack, member.apiKey, "/v1/pronunciation-dictionaries")).json()).pronunciation_dictionaries).toHaveLength(1);

    await share.getByLabel("Role of Mia").selectOption("editor");
    await expect.poll(() => toast(page, SHARING_SUCCESS.role).isVisible()).toBe(true);

    // A change the server refuses goes back to what it was.
    await page.route("**/app/sharing/**", (route) => (route.request().method() === "POST" ? route.fulfill({ status: 500, body: "{}" }) : route.continue()));
    await share.getByLabel("Role of Mia").selectOption("admin");
    await expect.poll(() => toast(page, SHARING_FAILURES.update).isVisible()).toBe(true);
    await expect.poll(() => share.getByLabel("Role of Mia").inputValue()).toBe("editor");
    await page.unroute("**/app/sharing/**");

    // The owner (me) cannot be changed or revoked; Mia can be revoked after the confirmation.
    expect(await share.getByRole("button", { name: /^Revoke access for/ }).count()).toBe(1);
    await share.getByRole("button", { name: "Revoke access for Mia" }).click();
    const confirm = page.getByRole("dialog", { name: "Revoke Access" });
    expect(await confirm.getByText(revokeText("Mia")).isVisible()).toBe(true);
    await confirm.getByRole("button", { name: "Revoke" }).click();
    await expect.poll(() => toast(page, SHARING_SUCCESS.revoked).isVisible()).toBe(true);
    await expect.poll(() => share.getByLabel("Role of Mia").count()).toBe(0);

    await share.getByLabel("Everyone in the workspace").selectOption("viewer");
    await expect.poll(() => toast(page, SHARING_SUCCESS.settings).isVisible()).toBe(true);
    await closeContext(page.context());
  }, 60_000);
});

describe("sharing a voice", () => {
  it("shares one of My Voices with a member as a viewer from the voice's panel; the member then lists it and cannot edit it", async () => {
    const admin = await createTestAccount(stack, "business");
    const { ElevenLabsClient } = await import("@elevenlabs/elevenlabs-js");
    const client = new ElevenLabsClient({ baseUrl: stack.url, apiKey: admin.apiKey, maxRetries: 0 });
    const member = await joinAsMember(stack, { client });
    const voice = await insertOwnVoice(stack, admin.workspace.workspace_id, admin.user.user_id, "Studio narrator");
    const before = (await (await apiFetch(stack, member.apiKey, "/v1/voices")).json()) as { voices: Array<{ voice_id: string }> };
    expect(before.voices.map((v) => v.voice_id)).not.toContain(voice.voice_id);

    const page = await pageFor(390);
    await signIn(page, admin.email, admin.password);
    await visit(page, `/app/voice-lab?voiceId=${voice.voice_id}`);
    await page.getByRole("button", { name: "Share", exact: true }).click();
    const share = page.getByRole("dialog", { name: "Share Studio narrator" });
    await share.getByLabel("Add people, groups or service accounts").selectOption({ label: `Mia (${member.email})` });
    await share.getByLabel("Role").selectOption("viewer");
    await share.getByRole("button", { name: "Share", exact: true }).click();
    await expect.poll(() => toast(page, SHARING_SUCCESS.shared("Mia")).isVisible()).toBe(true);

    const after = (await (await apiFetch(stack, member.apiKey, "/v1/voices")).json()) as { voices: Array<{ voice_id: string; permission_on_resource?: string }> };
    expect(after.voices.find((v) => v.voice_id === voice.voice_id)?.permission_on_resource).toBe("viewer");
    const refused = await member.client.voices.update(voice.voice_id, { name: "Renamed" }).catch((e: unknown) => (e as { statusCode?: number }).statusCode);
    expect(refused).toBe(403);
    await closeContext(page.context());
  }, 60_000);
});

describe("webhooks in the web", () => {
  it("adds a webhook, shows its secret once, sends a test event and shows it delivered in the log", async () => {
    const receiver = await startReceiver();
    try {
      const admin = await createTestAccount(stack, "pro");
      const page = await pageFor(390);
      await signIn(page, admin.email, admin.password);
      await visit(page, "/app/settings/webhooks");
      await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Workspace webhooks");
      await page.getByLabel("Name").fill("Receiver");
      await page.getByLabel("URL").fill(receiver.url);
      await page.getByRole("button", { name: "Add webhook" }).click();
      const secret = (await page.getByTestId("webhook-secret").textContent())!.trim();
      expect(secret).toMatch(/^wsec_/);
      await page.getByRole("button", { name: "Send test event" }).click();
      await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(1);
      await page.getByRole("link", { name: "Delivery log" }).click();
      await expect.poll(async () => {
        await page.getByRole("button", { name: "Refresh" }).click();
        return page.getByRole("region", { name: /^Delivery log/ }).getByText("Delivered").count();
      }).toBe(1);
      await closeContext(page.context());
    } finally {
      await receiver.close();
    }
  }, 60_000);
});

describe("account security in the web", () => {
  it("turns on two-factor with a code, shows backup codes, and asks for a code at the next sign-in", async () => {
    const acct = await createTestAccount(stack);
    const page = await pageFor(390);
    await signIn(page, acct.email, acct.password);
    await visit(page, "/app/settings/two-factor-authentication");
    await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
    const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
    await page.getByLabel("Code from your app").fill("000000");
    await page.getByRole("button", { name: "Turn on" }).click();
    await expect.poll(() => page.getByText("That code is not correct", { exact: false }).isVisible()).toBe(true);
    await page.getByLabel("Code from your app").fill(totpAt(secret, stepOf(Date.now() / 1000)));
    await page.getByRole("button", { name: "Turn on" }).click();
    await expect.poll(() => page.getByTestId("backup-codes").getByRole("listitem").count()).toBe(10);

    const next = await pageFor(390);
    await visit(next, "/sign-in");
    await next.getByLabel("Email").fill(acct.email);
    await next.getByLabel("Password").fill(acct.password);
    await next.getByRole("button", { name: "Sign in" }).click();
    await next.getByLabel("Authentication code").fill(totpAt(secret, stepOf(Date.now() / 1000) + 1));
    await next.getByRole("button", { name: "Verify and sign in" }).click();
    await next.waitForURL(/\/app$/);
    await closeContext(next.context());
    await closeContext(page.context());
  }, 60_000);

  it("sends feedback: an empty text is refused with the spec's message, then thanks", async () => {
    const acct = await createTestAccount(stack);
    const page = await pageFor();
    await signIn(page, acct.email, acct.password);
    await page.getByRole("button", { name: "Feedback" }).click();
    await page.getByRole("button", { name: "Send feedback" }).click();
    await expect.poll(() => page.getByRole("dialog", { name: "Feedback" }).getByText(FEEDBACK_MESSAGES.empty).isVisible()).toBe(true);
    await page.getByLabel("What do you think of Timbre?").fill("The webhooks page is clear, thanks");
    await page.getByRole("button", { name: "Send feedback" }).click();
    await expect.poll(() => page.getByText(FEEDBACK_MESSAGES.thanks).isVisible()).toBe(true);
    await closeContext(page.context());
  }, 60_000);

  it("lets a server admin change the workspace's plan from the subscription page", async () => {
    const email = uniqueEmail("web-operator");
    const { user, workspace } = await createAccount(stack.ctx, { email, password: "operator password", tier: "free", serverAdmin: true });
    const { value } = await createApiKey(stack.ctx, { workspaceId: workspace.workspace_id, userId: user.user_id, name: "op" });
    const page = await pageFor();
    await signIn(page, email, "operator password");
    await visit(page, "/app/settings/subscription");
    await page.getByLabel("Plan of this workspace").selectOption("creator");
    await page.getByRole("button", { name: "Change plan" }).click();
    await expect.poll(() => toast(page, "The workspace is now on the Creator plan.").isVisible()).toBe(true);
    expect((await (await apiFetch(stack, value, "/v1/user/subscription")).json()).tier).toBe("creator");

    // Server administration: a notification posted here reaches other users' feeds.
    await page.getByRole("link", { name: "Server administration" }).click();
    await page.getByLabel("Title").fill("Maintenance on Sunday");
    await page.getByLabel("Description").fill("The server restarts at 02:00 UTC.");
    await page.getByRole("button", { name: "Post" }).click();
    await expect.poll(() => toast(page, "Notification posted.").isVisible()).toBe(true);
    const other = await createTestAccount(stack);
    const feed = (await (await apiFetch(stack, other.apiKey, "/v1/notifications")).json()).docs as Array<{ title: string }>;
    expect(feed[0].title).toBe("Maintenance on Sunday");
    await closeContext(page.context());
  }, 60_000);

  it("generates an affiliate link from the dialog's sign-up view, says so when it fails, and shows the link after", async () => {
    const acct = await createTestAccount(stack, "creator");
    const page = await pageFor(390);
    await signIn(page, acct.email, acct.password);
    await visit(page, "/app?affiliate=true");
    const dialog = page.getByRole("dialog", { name: "Affiliate program" });
    expect(await dialog.getByText(AFFILIATE.commission).isVisible()).toBe(true);
    await page.route("**/app/affiliate-link", (route) => route.fulfill({ status: 500, body: "{}" }));
    await dialog.getByRole("button", { name: "Generate my affiliate link" }).click();
    await expect.poll(() => toast(page, AFFILIATE.failed).isVisible()).toBe(true);
    await page.unroute("**/app/affiliate-link");
    await dialog.getByRole("button", { name: "Generate my affiliate link" }).click();
    await expect.poll(() => dialog.getByTestId("affiliate-link").textContent()).toMatch(/\/sign-up\?via=[A-Za-z0-9]{10}$/);
    expect(await dialog.getByRole("heading", { name: "Your referral link" }).isVisible()).toBe(true);
    await closeContext(page.context());
  }, 60_000);
});

describe("dictionary sharing by editors in the web", () => {
  it("an admin lets editors share pronunciation dictionaries, on a desktop; the API then says so and the switch stays on after a reload", async () => {
    const owner = await createTestAccount(stack, "creator");
    const page = await pageFor(1440);
    const errors = watchErrors(page);
    await signIn(page, owner.email, owner.password);
    await visit(page, "/app/settings/workspace");
    const section = page.getByRole("region", { name: "Sharing" });
    const box = section.getByRole("checkbox", { name: EDITORS_SHARE_LABEL });
    expect(await box.isChecked()).toBe(false);
    await box.check();
    await section.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => toast(page, "Editors can now share pronunciation dictionaries.").count()).toBe(1);
    const read = async () => ((await (await apiFetch(stack, owner.apiKey, "/v1/workspace")).json()) as { storing_shared_files_on_user: boolean }).storing_shared_files_on_user;
    expect(await read()).toBe(true);
    await visit(page, "/app/settings/workspace");
    expect(await page.getByRole("region", { name: "Sharing" }).getByRole("checkbox", { name: EDITORS_SHARE_LABEL }).isChecked()).toBe(true);
    expect(errors.pageErrors).toEqual([]);
    await closeContext(page.context());
  }, 60_000);
});
