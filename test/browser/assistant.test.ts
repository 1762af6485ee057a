import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { assistantMessages } from "../../functions/platform/contract/assistant.js";
import { charge } from "../../functions/platform/domain/credits.js";
import { apiFetch, createTestAccount } from "../support/stack.js";
import { closeBrowserStack, closeContext, newContext, openBrowserStack, signIn, visit, watchErrors } from "./helpers.js";

let stack: EmbeddedStack;
let browser: Browser;
beforeAll(async () => ({ stack, browser } = await openBrowserStack()), 180_000);
afterAll(() => closeBrowserStack(stack, browser));

describe("Talk to El: the support call in the page", () => {
  for (const width of [390, 1440]) {
    it(`at ${width} px: goes to the voice library and types the search, says the real credits left, and hides 2 s after End call`, async () => {
      const account = await createTestAccount(stack, "creator");
      await charge(stack.ctx, { workspaceId: account.workspace.workspace_id, key: `browser-assistant-${width}`, amount: 1000 + width });
      const sub = (await (await apiFetch(stack, account.apiKey, "/v1/user/subscription")).json()) as { character_count: number; character_limit: number };
      const left = (sub.character_limit - sub.character_count).toLocaleString("en-US");

      const context = await newContext(browser, stack, { width, height: 800 });
      const page = await context.newPage();
      const errors = watchErrors(page);
      await signIn(page, account.email, account.password);
      await visit(page, "/app");
      // Every value the library's search box takes, in order (the listener survives client-side navigation).
      await page.evaluate(() => {
        const w = window as unknown as { typed: string[] };
        w.typed = [];
        document.addEventListener("input", (e) => {
          const t = e.target as HTMLInputElement;
          if (t.getAttribute("aria-label") === "Search the library") w.typed.push(t.value);
        }, true);
      });

      await page.getByRole("button", { name: "Talk to El" }).click();
      const card = page.getByRole("dialog", { name: assistantMessages.title });
      await expect.poll(() => card.isVisible()).toBe(true);
      expect(await card.getByText(assistantMessages.title, { exact: true }).isVisible()).toBe(true);
      await expect.poll(() => card.getByRole("status").first().textContent(), { timeout: 10_000 }).toBe(assistantMessages.connected);

      const ask = card.getByLabel("Ask the assistant");
      await ask.fill("take me to the voice library and search for a deep voice");
      // §9: the assistant's volume is lowered while the user speaks (types).
      expect(await page.evaluate(() => document.documentElement.dataset.assistantVolume)).toBe("0.1");
      await card.getByRole("button", { name: "Send" }).click();
      await expect.poll(() => new URL(page.url()).pathname, { timeout: 20_000 }).toBe("/app/voice-library");
      await expect.poll(() => page.getByLabel("Search the library").inputValue(), { timeout: 20_000 }).toBe("deep");
      // Typed one character at a time (17 ms each), not pasted.
      expect(await page.evaluate(() => (window as unknown as { typed: string[] }).typed)).toEqual(["", "d", "de", "dee", "deep"]);
      await expect.poll(() => card.getByText("searching it for “deep”").count(), { timeout: 10_000 }).toBe(1);

      await ask.fill("how many credits do I have left");
      await card.getByRole("button", { name: "Send" }).click();
      await expect.poll(() => card.getByText(`You have ${left} credits left`).count(), { timeout: 20_000 }).toBe(1);
      // Back to full volume once the user has stopped typing (the Send click).
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.assistantVolume), { timeout: 5000 }).toBe("1");

      await card.getByRole("button", { name: assistantMessages.endCall }).click();
      await expect.poll(() => card.getByRole("status").first().textContent()).toBe(assistantMessages.disconnected);
      await expect.poll(() => card.count(), { timeout: 10_000 }).toBe(0);
      expect(await page.getByRole("button", { name: "Talk to El" }).isVisible()).toBe(true);
      expect(errors.pageErrors).toEqual([]);
      await closeContext(context);
    }, 180_000);
  }
});
