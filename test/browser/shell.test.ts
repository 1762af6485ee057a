import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { EVERYONE_GROUP_ID, EVERYONE_GROUP_NAME, PERMISSION_IDS, permissionDeniedMessage } from "../../functions/platform/domain/permissions.js";
import { TIERS } from "../../functions/platform/domain/tiers.js";
import { premadeVoiceId } from "../../functions/platform/domain/premadeVoices.js";
import { apiFetch, createTestAccount } from "../support/stack.js";
import { createAccount } from "../../functions/platform/domain/accounts.js";
import { closeContext, hydrated, newContext, reload, signIn, visit, watchErrors, openBrowserStack, closeBrowserStack } from "./helpers.js";

let stack: EmbeddedStack;
let browser: Browser;
beforeAll(async () => ({ stack, browser } = await openBrowserStack()));
afterAll(() => closeBrowserStack(stack, browser));

async function signedInPage(tier: "free" | "pro", opts: { width?: number } = {}): Promise<{ page: Page; account: Awaited<ReturnType<typeof createTestAccount>> }> {
  const account = await createTestAccount(stack, tier);
  const context = await newContext(browser, stack, opts);
  const page = await context.newPage();
  await signIn(page, account.email, account.password);
  return { page, account };
}

const sidebar = (page: Page) => page.getByRole("complementary", { name: "Sidebar" });

describe("app shell", () => {
  for (const width of [390, 1440]) {
    it(`at ${width} px: the free tier's feed holds the flag-controlled upsell, and opening it stores when it was first shown (app-shell.md §4)`, async () => {
      const { page, account } = await signedInPage("free", { width });
      const errors = watchErrors(page);
      const shownOf = async () => {
        const docs = (await (await apiFetch(stack, account.apiKey, "/v1/notifications")).json()).docs as Array<{ id: string; first_shown: number | null }>;
        return docs.find((d) => d.id === "upsell-more-credits")?.first_shown;
      };
      expect(await shownOf()).toBeNull();
      await page.getByRole("button", { name: /^Notifications/ }).click();
      const note = page.getByRole("dialog", { name: "Notifications" }).getByRole("listitem").filter({ hasText: "More credits and professional clones" });
      await note.waitFor();
      expect(await note.getByRole("link", { name: "Open" }).getAttribute("href")).toBe("/app/settings/subscription");
      await expect.poll(() => shownOf()).toBeGreaterThan(0);
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      expect(errors.pageErrors).toEqual([]);
      await closeContext(page.context());
    }, 60_000);
  }

  it("shows Upgrade on the free tier only", async () => {
    const [free, pro] = await Promise.all([signedInPage("free"), signedInPage("pro")]);
    await expect.poll(() => sidebar(free.page).getByRole("link", { name: "Upgrade" }).count()).toBe(1);
    expect(await sidebar(free.page).getByRole("link", { name: "Upgrade" }).getAttribute("href")).toBe("/app/settings/subscription");
    await expect.poll(() => sidebar(pro.page).getByRole("navigation", { name: "Main" }).isVisible()).toBe(true);
    expect(await pro.page.getByRole("link", { name: "Upgrade" }).count()).toBe(0);

    // Footer links open in a new tab.
    const terms = sidebar(free.page).getByRole("link", { name: "Terms" });
    expect(await terms.getAttribute("target")).toBe("_blank");
    expect(await terms.getAttribute("rel")).toContain("noopener");
    await Promise.all([closeContext(free.page.context()), closeContext(pro.page.context())]);
  });

  for (const width of [390, 1440]) {
    it(`at ${width} px: says a failed payment and a disabled free tier on every page, with the way to the subscription (app-shell.md §8)`, async () => {
      const email = `billing-${width}-${Date.now()}@example.test`;
      await createAccount(stack.ctx, { email, password: "operator password", tier: "free", serverAdmin: true });
      const context = await newContext(browser, stack, { width, height: 844 });
      const page = await context.newPage();
      const errors = watchErrors(page);
      await signIn(page, email, "operator password");
      expect(await page.getByTestId("billing-banner").count()).toBe(0);
      await visit(page, "/app/settings/subscription");
      await page.getByLabel("Billing status").selectOption("free_disabled");
      await page.getByRole("button", { name: "Set status" }).click();
      const banner = page.getByTestId("billing-banner");
      await banner.getByText("Your free tier access has been disabled. Please upgrade to a paid plan.").waitFor();
      await visit(page, "/app/speech-synthesis/text-to-speech");
      await banner.waitFor();
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      // Generating says it where the user acts, in the spec's words.
      await page.getByRole("textbox", { name: /text/i }).first().fill("Is this plan usable?");
      await page.getByRole("button", { name: "Generate speech" }).click();
      const refused = page.getByRole("dialog", { name: "Unable to generate" });
      await refused.getByText("Your free tier access has been disabled. Please upgrade to a paid plan.").waitFor();
      await refused.getByRole("button", { name: "Close", exact: true }).last().click();
      await banner.getByRole("link", { name: "Update subscription?" }).click();
      await page.waitForURL(/\/app\/settings\/subscription$/);
      await page.getByLabel("Plan of this workspace").selectOption("creator");
      await page.getByRole("button", { name: "Change plan" }).click();
      await page.getByText("The workspace is now on the Creator plan.").waitFor();
      await page.getByLabel("Billing status").selectOption("past_due");
      await page.getByRole("button", { name: "Set status" }).click();
      await banner.getByText("You have an incomplete or failed payment.").waitFor();
      await page.getByLabel("Billing status").selectOption("active");
      await page.getByRole("button", { name: "Set status" }).click();
      await expect.poll(() => banner.count()).toBe(0);
      expect(errors.pageErrors).toEqual([]);
      await closeContext(context);
    });
  }

  it("shows the low-quota banner from 80% usage on a paid tier, and a dismissal lasts across reloads", async () => {
    const account = await createTestAccount(stack, "pro");
    const limit = TIERS.pro.characterLimit;
    await stack.ctx.stores.ledger.deduct(account.workspace.workspace_id, Math.round(limit * 0.85));
    const context = await newContext(browser, stack);
    const page = await context.newPage();
    await signIn(page, account.email, account.password);

    const banner = page.getByTestId("low-quota-banner");
    await expect.poll(() => banner.textContent()).toContain("You have used 85% of your credits");
    // The credit figures carry thousands separators.
    await page.getByRole("button", { name: /My Account|user/ }).first().click();
    await expect.poll(() => page.getByRole("menu", { name: "Profile" }).textContent()).toContain("425,000 / 500,000");
    await page.keyboard.press("Escape");

    await page.getByRole("button", { name: "Dismiss low credit warning" }).click();
    await expect.poll(() => banner.count()).toBe(0);
    await reload(page);
    await expect.poll(() => page.getByRole("navigation", { name: "Main" }).isVisible()).toBe(true);
    expect(await banner.count()).toBe(0);

    // A day later it is back.
    await page.evaluate(() => localStorage.setItem("timbre.lowQuotaBanner.dismissedAt", String(Date.now() - 24 * 3600 * 1000 - 1)));
    await reload(page);
    await expect.poll(() => banner.count()).toBe(1);
    await closeContext(context);
  });

  it("slides to a submenu, navigates after the delay; later the route decides which menu shows, the remembered one only elsewhere", async () => {
    const { page } = await signedInPage("free");
    await sidebar(page).hover();
    await sidebar(page).getByRole("link", { name: "Conversational AI" }).click();
    const submenu = page.getByRole("navigation", { name: "Conversational AI" });
    await expect.poll(() => submenu.getByRole("button", { name: "Back" }).isVisible()).toBe(true);
    await page.waitForURL(/\/app\/conversational-ai$/);
    expect(await submenu.getByRole("link", { name: "Knowledge Base" }).count()).toBe(1);
    expect(await submenu.getByRole("link", { name: "Outbound" }).count()).toBe(0);

    // Text to Speech and Settings are main-menu pages: the main menu shows, with the active entry in view.
    const main = page.getByRole("navigation", { name: "Main" });
    await visit(page, "/app/speech-synthesis/text-to-speech");
    await sidebar(page).hover();
    const tts = main.getByRole("link", { name: "Text to Speech" });
    await expect.poll(() => tts.getAttribute("aria-current")).toBe("page");
    await expect.poll(() => tts.isVisible()).toBe(true);
    expect(await submenu.count()).toBe(0);
    await visit(page, "/app/settings/profile");
    await expect.poll(() => main.getByRole("link", { name: "Studio", exact: true }).isVisible()).toBe(true);
    expect(await submenu.count()).toBe(0);
    // A client-side navigation into the submenu's pages opens it again.
    await visit(page, "/app/conversational-ai/history");
    await expect.poll(() => submenu.getByRole("link", { name: "Call History" }).getAttribute("aria-current")).toBe("page");

    // 'Page not found' and onboarding belong to no submenu: the main menu, whatever was open before.
    await visit(page, "/app/no-such-page");
    await expect.poll(() => page.getByRole("heading", { name: "Page not found" }).isVisible()).toBe(true);
    await expect.poll(() => main.getByRole("link", { name: "Studio", exact: true }).isVisible()).toBe(true);
    expect(await submenu.count()).toBe(0);
    await visit(page, "/app/conversational-ai/history");
    await visit(page, "/app/onboarding-checklist");
    await expect.poll(() => main.getByRole("link", { name: "Studio", exact: true }).isVisible()).toBe(true);
    expect(await submenu.count()).toBe(0);
    // Where the route decides nothing (the developer pages), the remembered submenu comes back, across sessions.
    await visit(page, "/app/dev/crash");
    await expect.poll(() => submenu.getByRole("button", { name: "Back" }).isVisible()).toBe(true);
    await sidebar(page).hover();
    await submenu.getByRole("button", { name: "Back" }).click();
    await expect.poll(() => main.getByRole("link", { name: "Studio", exact: true }).isVisible()).toBe(true);
    await visit(page, "/app/dev/crash");
    await expect.poll(() => main.getByRole("link", { name: "Studio", exact: true }).isVisible()).toBe(true);
    expect(await submenu.count()).toBe(0);
    await closeContext(page.context());
  }, 90_000);

  it("shows the usage ring whole in the collapsed sidebar, names every icon, and scrolls a pinned sidebar on a short screen", async () => {
    const account = await createTestAccount(stack, "free");
    await stack.ctx.stores.ledger.deduct(account.workspace.workspace_id, 5_000);
    const context = await newContext(browser, stack, { width: 1440, height: 900 });
    const page = await context.newPage();
    await signIn(page, account.email, account.password);
    await page.mouse.move(1200, 400);
    await expect.poll(() => sidebar(page).evaluate((el) => el.getBoundingClientRect().width)).toBe(64);
    const ring = sidebar(page).getByRole("img", { name: "50% of credits used" });
    const box = (await ring.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(28);
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(64);
    // Every entry of the rail has a name shown on hover (its tooltip) and for assistive technology.
    const links = sidebar(page).getByRole("navigation", { name: "Main" }).getByRole("link");
    for (const link of await links.all()) expect(await link.getAttribute("title"), await link.textContent() ?? "").toBe((await link.textContent())?.trim().replace(/(Alpha|New)$/, ""));

    await sidebar(page).hover();
    await page.getByRole("button", { name: "Pin sidebar" }).click();
    await page.mouse.move(1200, 400);
    const scroller = sidebar(page).locator(".sidebar-scroll");
    const more = sidebar(page).getByText("More", { exact: true });
    await more.scrollIntoViewIfNeeded();
    const moreBox = (await more.boundingBox())!;
    expect(moreBox.y + moreBox.height).toBeLessThanOrEqual(900);
    await more.click();
    await expect.poll(() => sidebar(page).getByRole("link", { name: "Help Center" }).isVisible()).toBe(true);
    expect(await scroller.evaluate((el) => el.scrollHeight >= el.clientHeight)).toBe(true);
    await closeContext(context);
  });

  it("shows a skeleton of the next page while its loaders run", async () => {
    const { page } = await signedInPage("free");
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    await page.route(/\/app\/settings\/api-keys\.data/, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole("button", { name: /user/ }).first().click();
    await page.getByRole("menuitem", { name: "API Keys" }).click();
    await expect.poll(() => page.getByRole("status", { name: "Loading page" }).isVisible()).toBe(true);
    release();
    await expect.poll(() => page.getByRole("heading", { name: "API Keys", level: 1 }).isVisible()).toBe(true);
    expect(await page.getByRole("status", { name: "Loading page" }).count()).toBe(0);
    await page.unroute(/\/app\/settings\/api-keys\.data/);
    await closeContext(page.context());
  });

  it("shows the error screen when a page crashes in the browser, and Try again resets it", async () => {
    const { page } = await signedInPage("free");
    const errors = watchErrors(page);
    await visit(page, "/app/dev/crash");
    await page.getByRole("button", { name: "Crash this page" }).click();
    await expect.poll(() => page.getByRole("heading", { name: "Oops, something went wrong!" }).isVisible()).toBe(true);
    expect(await page.getByText("A client-side error occurred").isVisible()).toBe(true);
    // The shell stays, and the crash was reported as fatal.
    expect(await sidebar(page).isVisible()).toBe(true);
    await expect.poll(() => errors.consoleErrors.some((e) => e.includes("fatal error in app"))).toBe(true);

    await page.getByRole("button", { name: "Try again" }).click();
    await expect.poll(() => page.getByRole("button", { name: "Crash this page" }).isVisible()).toBe(true);
    expect(await page.getByRole("heading", { name: "Oops, something went wrong!" }).count()).toBe(0);
    await closeContext(page.context());
  });

  it("gates pages by permission with the spec's message for a member who lacks it", async () => {
    const admin = await createTestAccount(stack, "pro");
    const member = await createTestAccount(stack, "free");
    const ws = admin.workspace.workspace_id;
    const { workspaces, users } = stack.ctx.stores;
    await workspaces.putGroup({
      workspace_id: ws,
      group_id: EVERYONE_GROUP_ID,
      name: EVERYONE_GROUP_NAME,
      permissions: PERMISSION_IDS.filter((p) => p !== "text_to_speech" && p !== "create_user_api_key"),
      member_user_ids: [],
      created_at: Math.floor(Date.now() / 1000),
    });
    await workspaces.addMember({ workspace_id: ws, user_id: member.user.user_id, email: member.email, seat_type: "workspace_member", joined_at: Math.floor(Date.now() / 1000) });
    await users.update(member.user.user_id, { default_workspace_id: ws });

    const context = await newContext(browser, stack);
    const page = await context.newPage();
    await signIn(page, member.email, member.password);
    await visit(page, "/app/speech-synthesis/text-to-speech");
    await expect.poll(() => page.getByRole("alert").textContent()).toBe(permissionDeniedMessage("text_to_speech"));
    expect(await page.getByRole("heading", { name: "Text to Speech", level: 1 }).isVisible()).toBe(true);
    expect(await page.getByText("Not available yet").count()).toBe(0);

    // Allowed pages render; on API Keys only the create form is gated.
    await visit(page, "/app/speech-synthesis/speech-to-speech");
    await expect.poll(() => page.getByRole("button", { name: "Upload audio" }).isVisible()).toBe(true);
    await visit(page, "/app/settings/api-keys");
    await expect.poll(() => page.getByRole("alert").textContent()).toBe(permissionDeniedMessage("create_user_api_key"));
    expect(await page.getByRole("button", { name: "Create API key" }).count()).toBe(0);
    // Members get neither workspace settings nor the subscription link.
    const settingsNav = page.getByRole("navigation", { name: "Settings" });
    expect(await settingsNav.getByRole("link", { name: "Workspace settings" }).count()).toBe(0);
    expect(await settingsNav.getByRole("link", { name: "Webhooks" }).count()).toBe(1);

    // The workspace admin is not gated.
    const adminContext = await newContext(browser, stack);
    const adminPage = await adminContext.newPage();
    await signIn(adminPage, admin.email, admin.password);
    await visit(adminPage, "/app/speech-synthesis/text-to-speech");
    await expect.poll(() => adminPage.getByRole("button", { name: "Generate speech" }).isVisible()).toBe(true);
    await Promise.all([closeContext(context), closeContext(adminContext)]);
  });

  it("keeps the query string across the TTS / Voice Changer tabs and opens query dialogs", async () => {
    const { page } = await signedInPage("free");
    // A voice of the user's (an unknown one is sent to the voice library).
    const voiceId = premadeVoiceId("Avery");
    await visit(page, `/app/speech-synthesis/text-to-speech?voice_id=${voiceId}`);
    const tabs = page.getByRole("navigation", { name: "Text to Speech sections" });
    expect(await tabs.getByRole("link", { name: "Text to Speech" }).getAttribute("aria-current")).toBe("page");
    await tabs.getByRole("link", { name: "Voice Changer" }).click();
    await page.waitForURL((url) => url.pathname === "/app/speech-synthesis/speech-to-speech" && url.search === `?voice_id=${voiceId}`);

    await visit(page, "/app/settings/profile?pronunciation-dictionaries=true");
    const dialog = page.getByRole("dialog", { name: "Pronunciation dictionaries" });
    await expect.poll(() => dialog.getByRole("button", { name: "Create dictionary" }).isVisible()).toBe(true);
    await hydrated(page);
    await page.keyboard.press("Escape");
    await expect.poll(() => new URL(page.url()).search).toBe("");
    await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Become an affiliate" }).click();
    await expect.poll(() => page.getByRole("dialog", { name: "Affiliate program" }).isVisible()).toBe(true);
    expect(new URL(page.url()).searchParams.get("affiliate")).toBe("true");
    await closeContext(page.context());
  });

  it("switches to dark theme from the profile menu and keeps it", async () => {
    const { page } = await signedInPage("free");
    const html = page.locator("html");
    expect(await html.getAttribute("data-theme")).toBe("light");
    await page.getByRole("button", { name: /user/ }).first().click();
    await page.getByRole("menuitem", { name: /^Theme/ }).click();
    await expect.poll(() => html.getAttribute("data-theme")).toBe("dark");
    await reload(page);
    expect(await html.getAttribute("data-theme")).toBe("dark");
    await closeContext(page.context());
  });

  it("pins the sidebar open on extra-wide screens (16rem), remembered; collapsed it is 4rem and expands on hover", async () => {
    const { page } = await signedInPage("free", { width: 1440 });
    const width = () => sidebar(page).evaluate((el) => el.getBoundingClientRect().width);
    await page.mouse.move(1200, 400);
    await expect.poll(width).toBe(64);
    await sidebar(page).hover();
    await expect.poll(width).toBe(256);
    await page.getByRole("button", { name: "Pin sidebar" }).click();
    await page.mouse.move(1200, 400);
    await reload(page);
    await page.mouse.move(1200, 400);
    await expect.poll(width).toBe(256);
    expect(await page.getByRole("button", { name: "Unpin sidebar" }).getAttribute("aria-pressed")).toBe("true");
    await closeContext(page.context());
  });

  it("on small screens uses a header with a drawer: a modal that keeps focus, closes on Escape and on navigation", async () => {
    const { page } = await signedInPage("free", { width: 800 });
    expect(await sidebar(page).isVisible()).toBe(false);
    const open = page.getByRole("button", { name: "Open sidebar" });
    await open.click();
    const drawer = page.getByRole("dialog", { name: "Navigation" });
    for (const group of ["Audio Tools", "Contact", "Documentation"]) await expect.poll(() => drawer.getByText(group, { exact: true }).isVisible(), { message: group }).toBe(true);
    // Guides, API Reference and Changelog appear once (in Documentation).
    for (const label of ["Guides", "API Reference", "Changelog", "Voice Isolator", "Voice Changer", "Sound Effects"]) expect(await drawer.getByRole("link", { name: label, exact: true }).count(), label).toBe(1);

    // Tab and Shift+Tab never leave the drawer.
    const insideDrawer = () => page.evaluate(() => Boolean(document.activeElement?.closest("#mobile-drawer")));
    expect(await insideDrawer()).toBe(true);
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press("Tab");
      expect(await insideDrawer(), `Tab ${i + 1}`).toBe(true);
    }
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press("Shift+Tab");
      expect(await insideDrawer(), `Shift+Tab ${i + 1}`).toBe(true);
    }
    // Escape closes it and focus returns to the menu button.
    await page.keyboard.press("Escape");
    await expect.poll(() => drawer.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Open sidebar");

    await open.click();
    await drawer.getByRole("link", { name: "Studio", exact: true }).click();
    await page.waitForURL(/\/app\/studio$/);
    await expect.poll(() => drawer.count()).toBe(0);
    expect(await page.getByRole("heading", { name: "Studio", level: 1 }).isVisible()).toBe(true);

    // Turned to a large screen (a tablet to landscape), the header goes and the drawer closes: the sidebar is the navigation.
    await open.click();
    await expect.poll(() => drawer.isVisible()).toBe(true);
    await page.setViewportSize({ width: 1440, height: 800 });
    await expect.poll(() => drawer.count()).toBe(0);
    await expect.poll(() => sidebar(page).isVisible()).toBe(true);
    expect(await open.isVisible()).toBe(false);
    await closeContext(page.context());
  }, 60_000);
});
