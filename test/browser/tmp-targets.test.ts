import { afterAll, beforeAll, it } from "vitest";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Browser, Page } from "playwright-core";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { createTestAccount, apiFetch, insertOwnVoice } from "../support/stack.js";
import { premadeVoiceId } from "../../functions/platform/domain/premadeVoices.js";
import { closeBrowserStack, newContext, openBrowserStack, signIn, visit } from "./helpers.js";
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
let stack: EmbeddedStack; let browser: Browser;
beforeAll(async () => ({ stack, browser } = await openBrowserStack()), 120_000);
afterAll(() => closeBrowserStack(stack, browser));
async function targets(page: Page) {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll<HTMLElement>("a[href], button, input:not([type=hidden]), select, textarea, summary, [role=slider], [role=switch], [role=checkbox], [role=tab], [role=option], [tabindex='0']"))) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const st = getComputedStyle(el);
      if (st.visibility === "hidden") continue;
      // Inline links in running text are exempt (WCAG 2.5.8).
      if (el.tagName === "A" && st.display === "inline" && el.parentElement && ["P", "LI", "SPAN", "SMALL", "TD"].includes(el.parentElement.tagName) && (el.parentElement.textContent ?? "").trim().length > (el.textContent ?? "").trim().length + 5) continue;
      if (el.classList.contains("visually-hidden")) continue;
      let target: HTMLElement = el;
      if (el.tagName === "INPUT" && el.closest("label")) target = el.closest("label")!;
      const t = target.getBoundingClientRect();
      if (t.height < 24 || t.width < 24) out.push(`${el.tagName.toLowerCase()}${el.className ? "." + String(el.className).split(" ").join(".") : ""} "${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 30)}" ${Math.round(t.width)}x${Math.round(t.height)}`);
    }
    return out;
  });
}
it("targets", async () => {
  const account = await createTestAccount(stack, "pro");
  await (await apiFetch(stack, account.apiKey, `/v1/text-to-speech/${premadeVoiceId("Avery")}`, { method: "POST", body: JSON.stringify({ text: "A clip." }) })).arrayBuffer();
  await insertOwnVoice(stack, account.workspace.workspace_id, account.user.user_id, "Screen Voice");
  for (const width of [390, 1280]) {
    const ctx = await newContext(browser, stack, { width, height: 844 });
    const page = await ctx.newPage();
    for (const p of ["/", "/sign-in", "/sign-up"]) { await visit(page, p); console.log(width, p, await targets(page)); }
    await signIn(page, account.email, account.password);
    for (const p of ["/app", "/app/speech-synthesis/text-to-speech", "/app/speech-synthesis/speech-to-speech", "/app/voice-lab", "/app/voice-library", "/app/voice-isolator", "/app/speech-synthesis/text-to-speech?dialog=pronunciation-dictionaries", "/app/settings/profile", "/app/settings/api-keys", "/app/settings/workspace", "/app/settings/webhooks", "/app/settings/usage", "/app/settings/subscription", "/app/onboarding-checklist", "/app/nope"]) {
      await visit(page, p); console.log(width, p, JSON.stringify(await targets(page), null, 1));
    }
    await ctx.close();
  }
}, 300_000);
