import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Browser, Locator, Page } from "playwright-core";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { apiFetch, createTestAccount } from "../support/stack.js";
import { encodeWav } from "../../functions/media/audio/wav.js";
import { toneInt16 } from "../../functions/media/audio/testing.js";
import { PASSAGES } from "../../functions/media/voice-analysis/fixtures/texts.js";
import { voiceMessages } from "../../functions/platform/contract/voices.js";
import { workspaceMessages } from "../../functions/platform/contract/workspace.js";
import { settingsMessages } from "../../web/app/components/tts/settings.js";
import { closeBrowserStack, closeContext, downloadedBytes, newContext, openBrowserStack, signIn, visit, watchErrors } from "./helpers.js";

/**
 * Issue 28 §4 and §10 at a phone's (390 px) and a desktop's (1280 px) width: the Text to Speech
 * panel's Volume slider and 'Remove background noise', the pickers before 'Generate speech' on a
 * phone, Voice Design's previews beside the button that made them, and errors said where the user
 * acts (a 3 s clone sample, Send invites with every seat used).
 */
vi.setConfig({ testTimeout: 240_000, hookTimeout: 120_000 });

let stack: EmbeddedStack;
let browser: Browser;
beforeAll(async () => ({ stack, browser } = await openBrowserStack()));
afterAll(() => closeBrowserStack(stack, browser));

const SIZES = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
] as const;
const TTS = "/app/speech-synthesis/text-to-speech";

async function box(l: Locator) {
  await l.scrollIntoViewIfNeeded();
  const b = await l.boundingBox();
  expect(b, l.toString()).not.toBeNull();
  return b!;
}
/** Boxes in page coordinates (the page may have scrolled between two measures). */
async function pageBox(page: Page, l: Locator) {
  const b = await box(l);
  const y = await page.evaluate(() => window.scrollY);
  return { ...b, top: b.y + y, bottom: b.y + y + b.height };
}

describe.each(SIZES)("screens at $width px", (size) => {
  it("Text to Speech: pickers before Generate on a phone; Volume resets on double-click; both settings are sent", async () => {
    const account = await createTestAccount(stack, "creator");
    const context = await newContext(browser, stack, size);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, account.email, account.password);
    await visit(page, TTS);

    const side = page.getByRole("complementary", { name: "Speech settings" });
    const generate = page.getByRole("button", { name: "Generate speech" });
    const editor = page.getByRole("textbox").first();
    const s = await pageBox(page, side);
    const g = await pageBox(page, generate);
    const e = await pageBox(page, editor);
    if (size.width <= 960) {
      // Text, then the voice and model pickers, then Generate.
      expect(s.top).toBeGreaterThanOrEqual(e.bottom);
      expect(s.bottom).toBeLessThanOrEqual(g.top);
    } else {
      // Beside the text and Generate, which sits right under the text.
      expect(s.x).toBeGreaterThanOrEqual(g.x + g.width);
      expect(g.top - e.bottom).toBeLessThan(200);
    }

    // Volume: -30..+5 dB; a double-click on the label or the thumb resets it to 0 dB.
    const volume = side.getByRole("slider", { name: "Volume" });
    expect([await volume.getAttribute("min"), await volume.getAttribute("max")]).toEqual(["-30", "5"]);
    expect(await volume.getAttribute("aria-valuetext")).toBe("0 dB");
    await volume.fill("-12");
    expect(await volume.getAttribute("aria-valuetext")).toBe("-12 dB");
    await side.getByText("Volume", { exact: true }).dblclick();
    expect(await volume.getAttribute("aria-valuetext")).toBe("0 dB");
    await volume.fill("3");
    expect(await volume.getAttribute("aria-valuetext")).toBe("+3 dB");
    await volume.dblclick();
    expect(await volume.getAttribute("aria-valuetext")).toBe("0 dB");

    // 'Remove background noise' says in its tooltip what it does.
    const noise = side.getByRole("switch", { name: settingsMessages.removeBackgroundNoise });
    expect(await noise.isChecked()).toBe(false);
    expect(await side.locator(`[title="${settingsMessages.removeBackgroundNoiseHint}"]`).count()).toBe(1);
    await noise.check();
    await volume.fill("-6");

    await editor.fill("Volume and noise removal travel with this request.");
    const sent = page.waitForRequest((r) => r.url().includes("/v1/text-to-speech/") && r.method() === "POST");
    const answered = page.waitForResponse((r) => r.url().includes("/v1/text-to-speech/") && r.request().method() === "POST");
    await generate.click();
    const body = (await sent).postDataJSON() as { voice_settings: Record<string, unknown> };
    expect(body.voice_settings.volume).toBe(-6);
    expect(body.voice_settings.remove_background_noise).toBe(true);
    expect((await answered).status()).toBe(200);
    await expect.poll(() => page.getByRole("button", { name: "Regenerate" }).count(), { timeout: 60_000 }).toBe(1);

    const o = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
    expect(o.scroll).toBeLessThanOrEqual(o.width);
    expect(errors.pageErrors).toEqual([]);
    await closeContext(context);
  });

  it("Voice Design's previews land in view beside Generate and the voice saves; a 3 s clone sample and used seats are said where the user acts; a dictionary downloads", async () => {
    const account = await createTestAccount(stack, "creator");
    const context = await newContext(browser, stack, size);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, account.email, account.password);

    const q = new URLSearchParams({ creationType: "voiceDesign", mode: "create", prompt: "a calm old Scottish man, slow and warm", previewText: PASSAGES.en.tuning[0], seed: "7" });
    await visit(page, `/app/voice-lab?${q}`);
    const design = page.getByRole("dialog", { name: "Voice Design" });
    const button = design.getByRole("button", { name: "Generate", exact: true });
    await button.click();
    const previews = design.getByTestId("design-preview");
    await expect.poll(() => previews.count(), { timeout: 90_000 }).toBe(3);
    // In view without scrolling, right under the button that made them.
    await expect
      .poll(async () => {
        const first = await previews.first().boundingBox();
        return first !== null && first.y >= 0 && first.y + first.height <= size.height;
      })
      .toBe(true);
    // The button now reads Regenerate.
    const b = (await design.getByRole("button", { name: "Regenerate", exact: true }).boundingBox())!;
    const p = (await previews.first().boundingBox())!;
    expect(p.y).toBeGreaterThanOrEqual(b.y + b.height);
    expect(p.y - (b.y + b.height)).toBeLessThan(160);
    // Saving goes through the retry policy (saveRetry.ts) and lands at once when nothing fails.
    await design.getByRole("button", { name: "Next" }).click();
    await design.getByLabel("Voice name").fill(`Warm ${size.name}`);
    await design.getByRole("button", { name: "Save voice" }).click();
    await expect.poll(() => page.getByText(`Voice "Warm ${size.name}" created`).count(), { timeout: 20_000 }).toBe(1);

    // The instant clone says a 3 s file is too short as soon as it is added.
    await visit(page, "/app?creationType=cloneVoice&mode=create");
    const clone = page.getByRole("dialog", { name: "Instant Voice Clone" });
    const three = Buffer.from(encodeWav(toneInt16(220, 16_000, 3), 16_000));
    await clone.getByLabel("Upload audio: choose files").setInputFiles([{ name: "three.wav", mimeType: "audio/wav", buffer: three }]);
    await expect.poll(() => clone.getByText(voiceMessages.sampleTooShort("three.wav")).count()).toBe(1);

    // Every seat of the plan is used (creator: one): Send invites is off, and the reason is shown.
    await visit(page, "/app/settings/workspace");
    const invite = page.getByRole("region", { name: "Invite people" });
    await expect.poll(() => invite.getByText(workspaceMessages.seatLimitReached(1)).count()).toBe(1);
    expect(await invite.getByRole("button", { name: "Send invites" }).isDisabled()).toBe(true);

    // A dictionary's Download is checked before it is saved (a PLS document), and saved as .pls.
    const made = await apiFetch(stack, account.apiKey, "/v1/pronunciation-dictionaries/add-from-rules", {
      method: "POST",
      body: JSON.stringify({ name: `Names ${size.name}`, rules: [{ type: "alias", string_to_replace: "Timbre", alias: "Tambra" }] }),
    });
    expect(made.status).toBe(200);
    await visit(page, "/app/settings/profile?pronunciation-dictionaries=true");
    const dictionaries = page.getByRole("dialog", { name: "Pronunciation dictionaries" });
    const link = dictionaries.getByRole("link", { name: `Download Names ${size.name}` });
    await link.waitFor();
    const download = page.waitForEvent("download");
    await link.click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.pls$/);
    expect((await downloadedBytes(file)).toString("utf8")).toContain("Tambra");

    expect(errors.pageErrors).toEqual([]);
    await closeContext(context);
  });
});
