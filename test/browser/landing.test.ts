import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { LANDING } from "../../functions/capabilities/speech/landing.js";
import { landingText } from "../../web/app/components/landing/landing.js";
import { createTestAccount } from "../support/stack.js";
import { axeViolations, smallTargets } from "./axe.js";
import { closeBrowserStack, closeContext, newContext, openBrowserStack, photograph, signIn, visit, watchErrors } from "./helpers.js";

/**
 * The landing page (issue 28 §1, speech-generation.md §1, §6, §8): a logged-out visitor reads
 * what Timbre is, tries a few voices without an account until the page's limit, and then meets
 * the sign-up prompt; at 390 px and on a desktop.
 */
let stack: EmbeddedStack;
let browser: Browser;
beforeAll(async () => ({ stack, browser } = await openBrowserStack()), 120_000);
afterAll(() => closeBrowserStack(stack, browser));

for (const width of [390, 1280]) {
  describe(`at ${width} px`, () => {
    it("speaks the visitor's text in the chosen voice, and after the limit asks them to sign up", async () => {
      const context = await newContext(browser, stack, { width, height: 844 });
      const page = await context.newPage();
      const errors = watchErrors(page);
      await visit(page, "/");
      expect(new URL(page.url()).pathname).toBe("/");
      await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toContain("AI voices");
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      expect(await axeViolations(page)).toEqual([]);
      expect(await smallTargets(page)).toEqual([]);
      // Sign in and sign up are one tap away.
      await page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Sign up" }).waitFor();

      const text = page.getByLabel("Text", { exact: true });
      await text.fill("Hello, this is the landing page speaking.");
      await page.getByRole("radio", { name: /Marcus/ }).check();
      const generate = page.getByRole("button", { name: "Generate speech" });
      await generate.click();
      const result = page.getByTestId("landing-result");
      await result.waitFor({ timeout: 30_000 });
      // The app's own player, named for what it plays.
      await result.getByRole("button", { name: /^(Play|Pause) Generated speech$/ }).waitFor();
      await expect.poll(() => page.getByText(landingText.left(LANDING.perVisitor - 1)).isVisible()).toBe(true);

      // Over the page's limit: said under the box, and Generate waits for a shorter text.
      await text.fill("a".repeat(LANDING.maxCharacters + 1));
      await expect.poll(() => page.getByText(landingText.tooLong(LANDING.maxCharacters)).isVisible()).toBe(true);
      expect(await generate.isDisabled()).toBe(true);

      await text.fill("Again.");
      for (let i = 1; i < LANDING.perVisitor; i++) {
        await generate.click();
        await expect.poll(() => page.getByText(landingText.left(LANDING.perVisitor - 1 - i)).isVisible(), { timeout: 30_000 }).toBe(true);
      }
      await generate.click();
      const prompt = page.getByRole("alert").filter({ hasText: landingText.limitReached });
      await prompt.waitFor({ timeout: 30_000 });
      await prompt.getByRole("link", { name: "Sign up for free" }).waitFor();
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      expect(await axeViolations(page)).toEqual([]);
      expect(errors.pageErrors).toEqual([]);
      // For a reviewer (not compared; TIMBRE_TEST_SCREENSHOTS=1), beside the other screens' photographs.
      await photograph(page, `landing-${width}`);
      await closeContext(context);
    }, 120_000);
  });
}

describe("the landing page", () => {
  it("turns a network error into the sign-up prompt about the page's limit", async () => {
    const context = await newContext(browser, stack);
    const page = await context.newPage();
    await visit(page, "/");
    // The network itself cannot fail here on demand: the browser is told the request failed.
    await page.route("**/landing/speech", (route) => route.abort("internetdisconnected"));
    await page.getByRole("button", { name: "Generate speech" }).click();
    await page.getByRole("alert").filter({ hasText: landingText.limitReached }).waitFor();
    await closeContext(context);
  }, 60_000);

  it("sends a signed-in user to the app, and refuses a Generate from another site", async () => {
    const account = await createTestAccount(stack, "free");
    const context = await newContext(browser, stack);
    const page = await context.newPage();
    await signIn(page, account.email, account.password);
    await page.goto("/");
    await page.waitForURL(/\/app(\/|$|\?)/);
    const forged = await page.request.post("/landing/speech", { form: { text: "Hi.", voice_id: "x", csrf: "forged" }, headers: { origin: "https://evil.example" } });
    expect(forged.status()).toBe(403);
    await closeContext(context);
  }, 60_000);
});
