import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { SUPPORT_CALL, assistantMessages } from "../../functions/platform/contract/assistant.js";
import { charge } from "../../functions/platform/domain/credits.js";
import { apiFetch, createTestAccount, startTestStack } from "../support/stack.js";
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

/**
 * A scripted model (the fake for what cannot run here): the user's text is `run <JSON list of
 * tool calls>`; it returns those calls, and after their results it answers with the results, so
 * the card shows what each client tool returned in the page.
 */
async function scriptedModel(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const r = JSON.parse(body) as { messages: Array<{ role: string; content: string | null }> };
      const last = r.messages.at(-1)!;
      res.setHeader("content-type", "application/json");
      if (last.role === "tool") {
        const results = r.messages.filter((m) => m.role === "tool").map((m) => m.content);
        return res.end(JSON.stringify({ choices: [{ message: { role: "assistant", content: `Results: ${results.join(" ")}` } }] }));
      }
      const calls = JSON.parse((last.content ?? "").replace(/^run /, "")) as Array<{ name: string; arguments: unknown }>;
      res.end(JSON.stringify({ choices: [{ message: { role: "assistant", content: null, tool_calls: calls.map((c, i) => ({ id: `t${i}`, type: "function", function: { name: c.name, arguments: JSON.stringify(c.arguments) } })) } }] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe("Talk to El: every client tool and its errors in the page (through the model path)", () => {
  let llmStack: EmbeddedStack | undefined;
  let model: { url: string; server: Server } | undefined;
  afterAll(async () => {
    await llmStack?.close();
    model?.server.close();
  });

  it("highlights, clicks (a paid one only after the user agrees), clears, reads, sets, opens routes and links, and says 'element not found on page' and 'route not found'", async () => {
    model = await scriptedModel();
    llmStack = await startTestStack({ web: true, env: { ASSISTANT_LLM_URL: model.url, ASSISTANT_LLM_MAX_TOOL_ROUNDS: "1" } });
    const account = await createTestAccount(llmStack, "creator");
    const context = await newContext(browser, llmStack, { width: 1440, height: 900 });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, account.email, account.password);
    await visit(page, "/app/voice-library");
    await page.getByRole("button", { name: "Talk to El" }).click();
    const card = page.getByRole("dialog", { name: assistantMessages.title });
    await expect.poll(() => card.getByRole("status").first().textContent(), { timeout: 10_000 }).toBe(assistantMessages.connected);
    const run = async (calls: Array<{ name: string; arguments: unknown }>) => {
      const results = card.locator("li[data-who=el]", { hasText: "Results:" });
      const before = await results.count();
      await card.getByLabel("Ask the assistant").fill(`run ${JSON.stringify(calls)}`);
      await card.getByRole("button", { name: "Send" }).click();
      await expect.poll(() => results.count(), { timeout: 20_000 }).toBe(before + 1);
      return (await results.last().textContent())!.replace(/^El: /, "");
    };

    const search = page.getByLabel("Search the library");
    expect(await run([{ name: "set_value", arguments: { element: "Search the library", value: "calm" } }, { name: "get_value", arguments: { element: "Search the library" } }])).toBe(
      'Results: {"ok":true} {"ok":true,"value":"calm"}',
    );
    expect(await search.inputValue()).toBe("calm");
    // The highlight lasts a few seconds and the reply comes after a round trip to the model, which on a loaded
    // machine can take longer: record how the field is marked as it happens, and when.
    await search.evaluate((el) => {
      const seen: Array<[string, number]> = [];
      (window as unknown as { highlightsSeen: typeof seen }).highlightsSeen = seen;
      new MutationObserver(() => seen.push([el.getAttribute("data-assistant-highlight") ?? "none", performance.now()])).observe(el, { attributeFilter: ["data-assistant-highlight"] });
    });
    // set_value highlights the field quickly; a full highlight right after it must last its whole time (the quick
    // one's end must not cut it short): full, then none after highlightMs.
    expect(await run([{ name: "set_value", arguments: { element: "Search the library", value: "calm" } }, { name: "highlight", arguments: { element: "Search the library" } }])).toBe(
      'Results: {"ok":true} {"ok":true}',
    );
    const fromFull = () => page.evaluate(() => {
      const seen = (window as unknown as { highlightsSeen: Array<[string, number]> }).highlightsSeen;
      return seen.slice(seen.findIndex(([v]) => v === "full"));
    });
    await expect.poll(async () => (await fromFull()).map(([v]) => v), { timeout: 15_000 }).toEqual(["full", "none"]);
    const [[, setAt], [, clearedAt]] = await fromFull();
    expect(clearedAt! - setAt!).toBeGreaterThanOrEqual(SUPPORT_CALL.highlightMs - 50);
    expect(await run([{ name: "clear", arguments: { element: "Search the library" } }])).toBe('Results: {"ok":true}');
    expect(await search.inputValue()).toBe("");
    expect(await run([{ name: "highlight", arguments: { element: "No such control" } }])).toBe(`Results: {"ok":false,"error":"${assistantMessages.elementNotFound}"}`);
    expect(await run([{ name: "go_to_route", arguments: { route: "the_moon" } }])).toBe(`Results: {"ok":false,"error":"${assistantMessages.routeNotFound}"}`);
    expect(await run([{ name: "show_documentation_link", arguments: { doc: "api-reference" } }])).toBe('Results: {"ok":true}');
    expect(await card.getByRole("link", { name: "Open the documentation" }).getAttribute("href")).toBe("/docs/api-reference");
    expect(await run([{ name: "show_support_link", arguments: {} }])).toBe('Results: {"ok":true}');
    expect(await card.getByRole("link", { name: "Open a support request" }).getAttribute("href")).toBe(`/app/support?email=${encodeURIComponent(account.email)}`);

    // A paid click waits for the user in the page: declined, nothing is pressed.
    expect(await run([{ name: "go_to_route", arguments: { route: "text_to_speech" } }])).toBe('Results: {"ok":true}');
    await expect.poll(() => new URL(page.url()).pathname).toBe("/app/speech-synthesis/text-to-speech");
    await card.getByLabel("Ask the assistant").fill(`run ${JSON.stringify([{ name: "click", arguments: { element: "Generate speech" } }])}`);
    await card.getByRole("button", { name: "Send" }).click();
    const confirm = card.getByRole("alertdialog", { name: "Confirm a paid action" });
    await expect.poll(() => confirm.isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await confirm.textContent()).toContain(assistantMessages.paidConfirm("Generate speech"));
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => card.locator("li[data-who=el]", { hasText: `Results: {"ok":false,"error":"${assistantMessages.paidDeclined}"}` }).count(), { timeout: 20_000 }).toBe(1);

    // A plain click runs after the click delay.
    expect(await run([{ name: "click", arguments: { element: "Voice Changer" } }])).toBe('Results: {"ok":true}');
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 10_000 }).toBe("/app/speech-synthesis/speech-to-speech");
    expect(errors.pageErrors).toEqual([]);
    await closeContext(context);
  }, 240_000);
});
