import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Locator, Page } from "playwright-core";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { changeLimit, currentUsage } from "../../functions/domain/credits.js";
import { premadeVoiceId } from "../../functions/domain/premadeVoices.js";
import { dialogueMessages } from "../../functions/domain/speechRules.js";
import { createTestAccount } from "../support/stack.js";
import { closeContext, newContext, signIn, visit, watchErrors, openBrowserStack, closeBrowserStack } from "./helpers.js";

let stack: EmbeddedStack;
let browser: Browser;
beforeAll(async () => ({ stack, browser } = await openBrowserStack()));
afterAll(() => closeBrowserStack(stack, browser));

const TTS = "/app/speech-synthesis/text-to-speech";

async function openTts(opts: { limit?: number; path?: string } = {}) {
  const account = await createTestAccount(stack, "free");
  if (opts.limit !== undefined) await changeLimit(stack.ctx, account.workspace.workspace_id, opts.limit);
  const context = await newContext(browser, stack);
  const page = await context.newPage();
  const errors = watchErrors(page);
  await signIn(page, account.email, account.password);
  await visit(page, opts.path ?? TTS);
  return { account, page, errors };
}

/** Waits until the audio element has decodable audio and its playback position moves. */
async function expectPlaying(audio: Locator) {
  await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.readyState >= 2 && Number.isFinite(a.duration) && a.duration > 0), { timeout: 15_000 }).toBe(true);
  await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime), { timeout: 10_000 }).toBeGreaterThan(0);
}

const creditsShown = async (page: Page) => {
  await page.getByRole("button", { name: /My Account|user/ }).first().click();
  const text = await page.getByRole("menu", { name: "Profile" }).textContent();
  await page.keyboard.press("Escape");
  return text ?? "";
};

/** A paste the way the browser delivers one (React reads clipboardData). */
async function paste(target: Locator, text: string) {
  await target.evaluate((el, t) => {
    const data = new DataTransfer();
    data.setData("text/plain", t);
    el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

describe("the page's /v1 token", () => {
  it("is issued to the signed-in site only, never cached", async () => {
    const anonymous = await fetch(new URL("/app/api-token", stack.url));
    expect(anonymous.status).toBe(401);
    const crossSite = await fetch(new URL("/app/api-token", stack.url), { headers: { "sec-fetch-site": "cross-site" } });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("Text to Speech page", () => {
  it("picks a voice by search, generates speech that plays while it streams, lists it in history and charges its cost", async () => {
    const { account, page, errors } = await openTts();
    // Chromium streams MP3 through Media Source Extensions (the page's streaming path).
    expect(await page.evaluate(() => MediaSource.isTypeSupported("audio/mpeg"))).toBe(true);

    await page.getByRole("button", { name: /^Voice: / }).click();
    await page.getByRole("combobox", { name: "Search voices" }).fill("deep narrator");
    // All voices first; the search applies after the 300 ms debounce.
    const marcus = page.getByRole("option", { name: /Marcus/ });
    await expect.poll(() => page.getByRole("option").count()).toBe(1);
    expect(await marcus.count()).toBe(1);
    await marcus.click();
    await expect.poll(() => page.getByRole("button", { name: "Voice: Marcus" }).count()).toBe(1);

    const text = "Hello from Timbre. This sentence is spoken by Marcus.";
    const editor = page.getByRole("textbox", { name: "Text" });
    await editor.fill(`  ${text}\n`);
    // Trimmed: the cost counts the characters sent, times the model's multiplier (1 for the default model).
    await expect.poll(() => page.getByTestId("credit-cost").textContent()).toContain(`${text.length} credits`);
    await editor.fill(`${text} {note}`);
    await expect.poll(() => page.getByText("Your text contains curly braces or square brackets").count()).toBe(1);
    await editor.fill(text);
    await expect.poll(() => page.getByText("Your text contains curly braces").count()).toBe(0);

    const before = (await currentUsage(stack.ctx, account.workspace.workspace_id)).character_count;
    const historyLength = await page.evaluate(() => history.length);
    await page.getByRole("button", { name: "Generate speech" }).click();
    const audio = page.getByTestId("tts-audio");
    await expectPlaying(audio);
    const download = page.getByRole("link", { name: "Download" });
    await expect.poll(() => download.getAttribute("download")).toMatch(/^Marcus_\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d\.mp3$/);
    expect(await page.getByTestId("regeneration-counter").textContent()).toContain("2 free regenerations remaining");
    // The same request again is a regeneration.
    expect(await page.getByRole("button", { name: "Regenerate" }).count()).toBe(1);

    // Charged the shown cost; the shell's credit usage refreshed.
    expect((await currentUsage(stack.ctx, account.workspace.workspace_id)).character_count).toBe(before + text.length);
    await expect.poll(() => creditsShown(page)).toContain(`${before + text.length} / 10,000`);

    // History tab: replaces the history entry; the generation is listed.
    await page.getByRole("tab", { name: "History" }).click();
    await page.waitForURL(/[?&]tab=history/);
    expect(await page.evaluate(() => history.length)).toBe(historyLength);
    const row = page.getByTestId("history-item").first();
    await expect.poll(() => row.textContent()).toContain(text);
    expect(await row.textContent()).toContain("Marcus");
    expect(await row.textContent()).toContain(String(text.length));

    // Play fetches the audio as the user; Delete asks first.
    await row.getByRole("button", { name: "Play" }).click();
    await expect.poll(() => row.locator("audio").evaluate((a: HTMLAudioElement) => a.duration > 0)).toBe(true);
    await row.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog", { name: "Delete generation" }).getByRole("button", { name: "Delete" }).click();
    await expect.poll(() => page.getByText("No generations yet.").count()).toBe(1);

    // Back on Generate, the text and audio are still there.
    await page.getByRole("tab", { name: "Generate" }).click();
    expect(await editor.inputValue()).toBe(text);
    expect(errors.pageErrors).toEqual([]);
    await closeContext(page.context());
  });

  it("limits text to the model's maximum with the spec's message, and needs text to generate", async () => {
    const { page } = await openTts();
    const generate = page.getByRole("button", { name: "Generate speech" });
    expect(await generate.isDisabled()).toBe(true);

    await page.getByRole("button", { name: /^Model/ }).click();
    await page.getByRole("option", { name: /Eleven v3/ }).click();
    const editor = page.getByRole("textbox", { name: "Text" });
    await editor.fill("a".repeat(5_200));
    await expect.poll(() => page.getByText(dialogueMessages.tooManyCharacters(5_000)).count()).toBe(1);
    expect((await editor.inputValue()).length).toBe(5_000);
    expect(await page.getByText("5,000 / 5,000").count()).toBe(1);
    await editor.fill("   ");
    expect(await generate.isDisabled()).toBe(true);
    await closeContext(page.context());
  });

  it("generates a two-speaker dialogue from pasted lines and asks which of two generations is preferred", async () => {
    const { page } = await openTts();
    await page.getByRole("switch", { name: "Dialogue mode" }).check();
    const line1 = page.getByRole("textbox", { name: "Line 1" });
    await paste(line1, "Avery: Hi Marcus, how are you?\nMarcus: Very well, thank you.");
    await expect.poll(() => page.getByRole("textbox", { name: "Line 2" }).inputValue()).toBe("Very well, thank you.");
    expect(await line1.inputValue()).toBe("Hi Marcus, how are you?");
    // Speakers named like voices get those voices; the empty block the paste did not fill is still there.
    expect(await page.getByRole("button", { name: "Speaker voice for line 1: Avery" }).count()).toBe(1);
    expect(await page.getByRole("button", { name: "Speaker voice for line 2: Marcus" }).count()).toBe(1);

    await page.getByRole("button", { name: "Generate speech" }).click();
    await expectPlaying(page.getByTestId("tts-audio"));
    await expect.poll(() => page.getByRole("button", { name: "Regenerate" }).isEnabled()).toBe(true);
    await page.getByRole("button", { name: "Regenerate" }).click();
    const panel = page.getByRole("region", { name: "Which generation do you prefer?" });
    await expect.poll(() => panel.getByRole("heading", { name: "Generation 2" }).count(), { timeout: 15_000 }).toBe(1);
    expect(await panel.getByRole("heading", { name: "Generation 1" }).count()).toBe(1);

    await panel.getByRole("link", { name: "Download Generation 2" }).click();
    await expect.poll(() => panel.getByText("Preferred").count()).toBe(1);
    const sent = page.waitForRequest((r) => r.url().endsWith("/v1/dialogue-preference") && r.method() === "POST");
    await panel.getByRole("button", { name: "Dismiss" }).click();
    expect((await sent).postDataJSON()).toMatchObject({ preference: "b" });

    // Enhance: loading, then keep or undo.
    await page.getByRole("button", { name: "Enhance" }).click();
    await expect.poll(() => line1.inputValue()).toBe("[curious] Hi Marcus, how are you?");
    await page.getByRole("button", { name: "Undo" }).click();
    expect(await line1.inputValue()).toBe("Hi Marcus, how are you?");
    await closeContext(page.context());
  });

  it("shows the quota message with 'Update subscription?' when the credits run out", async () => {
    const { page } = await openTts({ limit: 5 });
    await page.getByRole("textbox", { name: "Text" }).fill("This text costs more than five credits.");
    await page.getByRole("button", { name: "Generate speech" }).click();
    const dialog = page.getByRole("dialog", { name: "Unable to generate" });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.textContent()).toMatch(/credit|quota/i);
    expect(await dialog.getByRole("link", { name: "Update subscription?" }).getAttribute("href")).toBe("/app/settings/subscription");
    await closeContext(page.context());
  });

  it("preselects ?voice_id when it is the user's voice and sends other voices to the library", async () => {
    const { page } = await openTts({ path: `${TTS}?voice_id=${premadeVoiceId("Harriet")}` });
    await expect.poll(() => page.getByRole("button", { name: "Voice: Harriet" }).count()).toBe(1);

    // The picker by keyboard; a picked voice is listed under Recent next time.
    await page.getByRole("button", { name: "Voice: Harriet" }).press("Enter");
    await page.getByRole("combobox", { name: "Search voices" }).pressSequentially("Klaus");
    await expect.poll(() => page.getByRole("option").count()).toBe(1);
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByRole("button", { name: "Voice: Klaus" }).count()).toBe(1);
    await page.getByRole("button", { name: "Voice: Klaus" }).click();
    const recent = page.getByRole("group", { name: "Recent" });
    await expect.poll(() => recent.getByRole("option").first().textContent()).toContain("Klaus");
    await page.keyboard.press("Escape");
    await visit(page, `${TTS}?voice_id=not-a-voice-of-mine`);
    await expect.poll(() => new URL(page.url()).pathname + new URL(page.url()).search).toBe("/app/voice-library?voiceId=not-a-voice-of-mine");
    await closeContext(page.context());
  });
});
