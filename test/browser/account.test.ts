import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { createApiKey, messages } from "../../functions/platform/domain/accounts.js";
import { apiFetch, createTestAccount } from "../support/stack.js";
import { closeContext, hydrated, newContext, signIn, visit, watchErrors, openBrowserStack, closeBrowserStack, runClockUntil } from "./helpers.js";

let stack: EmbeddedStack;
let browser: Browser;
beforeAll(async () => ({ stack, browser } = await openBrowserStack()));
afterAll(() => closeBrowserStack(stack, browser));

const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.test`;

describe("web accounts and API keys", () => {
  it("signs up, shows the shell, creates an API key that calls /v1/user as the same user, and revokes it", async () => {
    const context = await newContext(browser, stack);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: stack.url });
    const page = await context.newPage();
    const errors = watchErrors(page);
    const email = uniqueEmail("signup");

    // A logged-out visitor lands on the landing page, whose Sign in leads on.
    await visit(page, "/");
    expect(new URL(page.url()).pathname).toBe("/");
    await page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Sign in" }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/sign-in");
    await hydrated(page);
    await page.getByRole("link", { name: "Create an account" }).click();
    await page.getByLabel("First name (optional)").fill("Ada");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("a long enough password");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL(/\/app$/);

    // The shell: side navigation, profile with the name, Upgrade on the free tier.
    const main = page.getByRole("navigation", { name: "Main" });
    for (const label of ["Home", "Voices", "Text to Speech", "Voice Changer", "Sound Effects", "Studio", "Dubbing", "Conversational AI", "Soundboard"]) {
      await expect.poll(() => main.getByRole("link", { name: label, exact: true }).count(), { message: label }).toBe(1);
    }
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Welcome, Ada");
    await expect.poll(() => page.getByRole("link", { name: "Upgrade" }).first().isVisible()).toBe(true);

    // To API keys through the profile menu (keyboard: the menu focuses its first item).
    await page.getByRole("button", { name: /Ada/ }).first().click();
    const menu = page.getByRole("menu", { name: "Profile" });
    await expect.poll(() => menu.getByText("Ada's Workspace").first().isVisible()).toBe(true);
    await menu.getByRole("menuitem", { name: "API Keys" }).click();
    await page.waitForURL(/\/app\/settings\/api-keys$/);

    await page.getByLabel("Name").fill("CI key");
    await page.getByRole("button", { name: "Create API key" }).click();
    const secret = page.getByTestId("new-api-key");
    await secret.waitFor();
    const key = (await secret.textContent())!.trim();
    expect(key).toMatch(/^sk_[A-Za-z0-9]{40}$/);
    await expect.poll(() => page.getByText("It will not be shown again.").isVisible()).toBe(true);

    // Listed with its prefix, never the whole value.
    const row = page.getByRole("row", { name: /CI key/ });
    await expect.poll(() => row.textContent()).toContain(`${key.slice(0, 7)}…`);
    expect(await row.textContent()).not.toContain(key);

    // Copy: "Copied!" for 1.5 s, and the clipboard holds the key.
    const copy = page.getByRole("button", { name: "Copy" });
    await copy.click();
    await expect.poll(() => page.getByRole("button", { name: "Copied!" }).isVisible()).toBe(true);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await expect.poll(() => copy.textContent(), { timeout: 3000 }).toBe("Copy");

    // The key authenticates /v1 as the user who signed up.
    const me = await apiFetch(stack, key, "/v1/user");
    expect(me.status).toBe(200);
    const user = (await me.json()) as { user_id: string; email: string; first_name: string };
    expect(user.email).toBe(email);
    await page.getByRole("link", { name: "Profile", exact: true }).click();
    await expect.poll(() => page.getByText(user.user_id).isVisible()).toBe(true);

    // Revoke, after confirming.
    await visit(page, "/app/settings/api-keys");
    await page.getByRole("button", { name: "Revoke CI key" }).click();
    const dialog = page.getByRole("dialog", { name: "Revoke API key" });
    await expect.poll(() => dialog.textContent()).toContain("CI key");
    await dialog.getByRole("button", { name: "Revoke" }).click();
    await expect.poll(() => page.getByText("You have no API keys yet.").isVisible()).toBe(true);
    expect((await apiFetch(stack, key, "/v1/user")).status).toBe(401);

    expect(errors.pageErrors).toEqual([]);
    await closeContext(context);
  });

  it("lists API keys newest first with the time on hover, and puts focus somewhere sensible after create and revoke", async () => {
    const account = await createTestAccount(stack, "free");
    // Keys made earlier: one long ago, three in one second (creation times are whole seconds).
    const now = Math.floor(Date.now() / 1000);
    for (const [name, age] of [["Old key", 3600], ["Bulk 1", 100], ["Bulk 2", 100], ["Bulk 10", 100]] as const) {
      const { record } = await createApiKey(stack.ctx, { workspaceId: account.workspace.workspace_id, userId: account.user.user_id, name });
      await stack.ctx.stores.apiKeys.revoke(account.workspace.workspace_id, account.user.user_id, record.key_id);
      await stack.ctx.stores.apiKeys.create({ ...record, created_at: now - age });
    }
    const context = await newContext(browser, stack);
    const page = await context.newPage();
    await signIn(page, account.email, account.password);
    await visit(page, "/app/settings/api-keys");
    const names = () => page.locator("tbody tr td:first-child").allTextContents();
    // Newest first; keys of the same second by name, highest first.
    await expect.poll(names).toEqual(["test", "Bulk 10", "Bulk 2", "Bulk 1", "Old key"]);
    const created = page.locator("tbody tr").first().locator("time").first();
    expect(await created.getAttribute("title")).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d\d:\d\d:\d\d UTC$/);

    await page.getByLabel("Name").fill("Newest");
    await page.getByRole("button", { name: "Create API key" }).click();
    await page.getByTestId("new-api-key").waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Copy");
    // The new key joins the list once the page revalidates (poll for it, not only for the old rows).
    await expect.poll(async () => (await names()).length).toBe(6);
    expect((await names()).slice(-4)).toEqual(["Bulk 10", "Bulk 2", "Bulk 1", "Old key"]);
    expect((await names()).slice(0, 2).sort()).toEqual(["Newest", "test"]);

    // Timers from here on are the test's: the success toast lasts 5 s.
    await page.clock.install();
    await page.getByRole("button", { name: "Revoke Bulk 2" }).click();
    await page.getByRole("dialog", { name: "Revoke API key" }).getByRole("button", { name: "Revoke" }).click();
    await expect.poll(async () => (await names()).slice(-3)).toEqual(["Bulk 10", "Bulk 1", "Old key"]);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Your API keys");
    const toasts = page.getByRole("region", { name: "Notifications" });
    await expect.poll(() => toasts.textContent()).toContain("API key revoked.");
    await page.clock.runFor(4_500);
    expect(await toasts.textContent()).toContain("API key revoked.");
    await runClockUntil(page, () => toasts.getByRole("listitem").count(), 0);

    // Another revoke: its toast is dismissed by hand.
    await page.getByRole("button", { name: "Revoke Bulk 1", exact: true }).click();
    await page.getByRole("dialog", { name: "Revoke API key" }).getByRole("button", { name: "Revoke" }).click();
    await expect.poll(() => toasts.getByRole("listitem").count()).toBe(1);
    await toasts.getByRole("button", { name: "Dismiss notification" }).click();
    await expect.poll(() => toasts.getByRole("listitem").count()).toBe(0);
    await closeContext(context);
  });

  it("shows field errors on their fields, and the wrong-password and rate-limit messages", async () => {
    const account = await createTestAccount(stack, "free");
    const context = await newContext(browser, stack);
    const page = await context.newPage();

    // Client-side check with the shared schema: the invalid field is marked, described and focused.
    await visit(page, "/sign-up");
    await page.getByLabel("Email").fill("not-an-email");
    await page.getByLabel("Password").fill("short");
    await page.getByRole("button", { name: "Create account" }).click();
    const emailInput = page.getByLabel("Email");
    await expect.poll(() => emailInput.getAttribute("aria-invalid")).toBe("true");
    expect(await emailInput.getAttribute("aria-describedby")).toBe("field-email-error");
    expect(await page.locator("#field-email-error").textContent()).toBe(messages.emailInvalid);
    expect(await page.locator("#field-password-error").textContent()).toBe(messages.passwordTooShort);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("field-email");

    // The server's answer for a taken e-mail lands on the e-mail field.
    await emailInput.fill(account.email);
    await page.getByLabel("Password").fill("long enough password");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect.poll(() => page.locator("#field-email-error").textContent()).toBe(messages.emailTaken);

    await visit(page, "/sign-in");
    for (let attempt = 1; attempt <= 5; attempt++) {
      await page.getByLabel("Email").fill(account.email);
      await page.getByLabel("Password").fill(`wrong password ${attempt}`);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect.poll(() => page.getByRole("alert").textContent()).toBe(messages.badCredentials);
      await expect.poll(() => page.getByRole("button", { name: "Sign in" }).isEnabled()).toBe(true);
    }
    await page.getByLabel("Password").fill(account.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toBe(messages.tooManyAttempts);
    expect(new URL(page.url()).pathname).toBe("/sign-in");
    await closeContext(context);
  });

  it("signs in, returns to the page asked for, and signs out", async () => {
    const account = await createTestAccount(stack, "pro");
    const context = await newContext(browser, stack);
    const page = await context.newPage();
    await visit(page, "/app/settings/usage");
    await expect.poll(() => page.url()).toContain("/sign-in?redirectTo=%2Fapp%2Fsettings%2Fusage");
    await hydrated(page);
    await page.getByLabel("Email").fill(account.email);
    await page.getByLabel("Password").fill(account.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/app\/settings\/usage$/);
    await expect.poll(() => page.getByText("500,000").first().isVisible()).toBe(true);

    await page.getByRole("navigation", { name: "Settings" }).getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/sign-in$/);
    await visit(page, "/app");
    await expect.poll(() => new URL(page.url()).pathname).toBe("/sign-in");
    await closeContext(context);
  });

  it("rejects forged form posts: no token, a wrong token, or another site's origin", async () => {
    const account = await createTestAccount(stack, "free");
    const context = await newContext(browser, stack);
    const page = await context.newPage();
    await signIn(page, account.email, account.password);
    await visit(page, "/app/settings/api-keys");
    const token = await page.locator('input[name="csrf"]').first().inputValue();
    const cookie = (await context.cookies(stack.url)).map((c) => `${c.name}=${c.value}`).join("; ");

    // Bodies are read in full so no response is left half-sent.
    const post = async (fields: Record<string, string>, headers: Record<string, string> = {}) => {
      const res = await fetch(new URL("/app/settings/api-keys", stack.url), {
        method: "POST",
        redirect: "manual",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded", ...headers },
        body: new URLSearchParams(fields),
      });
      await res.arrayBuffer();
      return res;
    };

    expect((await post({ intent: "create", name: "forged" })).status).toBe(403);
    expect((await post({ intent: "create", name: "forged", csrf: `${token.slice(0, -2)}xx` })).status).toBe(403);
    // Another site's origin: refused before any action runs (Remix's own origin guard answers 500, ours 403).
    const crossSite = await post({ intent: "create", name: "forged", csrf: token }, { origin: "http://evil.example" });
    expect([403, 500]).toContain(crossSite.status);
    const keys = await apiFetch(stack, account.apiKey, "/v1/user/api-keys");
    expect(((await keys.json()) as { api_keys: Array<{ name: string }> }).api_keys.map((k) => k.name)).toEqual(["test"]);

    // The same request from this site, with the token, goes through.
    expect((await post({ intent: "create", name: "genuine", csrf: token }, { origin: stack.url })).status).toBe(200);
    const after = await apiFetch(stack, account.apiKey, "/v1/user/api-keys");
    expect(((await after.json()) as { api_keys: Array<{ name: string }> }).api_keys.map((k) => k.name).sort()).toEqual(["genuine", "test"]);

    // A signed-out form (sign-in) is protected the same way.
    const signInPost = await fetch(new URL("/sign-in", stack.url), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: account.email, password: account.password }),
    });
    await signInPost.arrayBuffer();
    expect(signInPost.status).toBe(403);
    expect(signInPost.headers.getSetCookie().some((c) => c.startsWith("timbre_session="))).toBe(false);
    await closeContext(context);
  });
});
