import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { premadeVoiceId } from "../../functions/platform/domain/premadeVoices.js";
import { apiFetch, createTestAccount } from "../support/stack.js";
import { closeContext, newContext, signIn, visit, watchErrors, openBrowserStack, closeBrowserStack } from "./helpers.js";

/**
 * The pronunciation dictionary editor in Chromium: open it from a query parameter, create a
 * dictionary, edit a rule (with the spec's checks), save a new version, preview the rule with
 * a voice, apply it across the workspace.
 */
let stack: EmbeddedStack;
let browser: Browser;
beforeAll(async () => ({ stack, browser } = await openBrowserStack()));
afterAll(() => closeBrowserStack(stack, browser));

describe("pronunciation dictionary editor", () => {
  it("creates a dictionary, edits and saves a rule as a new version, and previews it", async () => {
    const account = await createTestAccount(stack, "pro");
    const context = await newContext(browser, stack, { width: 1400, height: 900 });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, account.email, account.password);
    await visit(page, "/app/settings/profile?pronunciation-dictionaries=true");
    const dialog = page.getByRole("dialog", { name: "Pronunciation dictionaries" });
    await expect.poll(() => dialog.getByText("No results").isVisible()).toBe(true);

    // Create: the default name is 'Dictionary'; an empty name is refused with the spec's message.
    const name = dialog.getByLabel("Name", { exact: true });
    expect(await name.inputValue()).toBe("Dictionary");
    await name.fill("");
    await dialog.getByRole("button", { name: "Create dictionary" }).click();
    await expect.poll(() => dialog.getByText("Dictionary name is required").isVisible()).toBe(true);
    expect(await name.getAttribute("aria-invalid")).toBe("true");
    await name.fill("Web standards");
    await dialog.getByRole("button", { name: "Create dictionary" }).click();
    await expect.poll(() => dialog.getByText("No rules", { exact: true }).isVisible()).toBe(true);
    const versionCode = dialog.getByTestId("dictionary-version");
    const firstVersion = await versionCode.textContent();
    const save = dialog.getByRole("button", { name: "Save" });
    expect(await save.isDisabled()).toBe(true);

    // A rule with an error, then fixed; the IPA slash check on a phoneme rule.
    await dialog.getByRole("button", { name: "Add rule" }).click();
    await expect.poll(() => dialog.getByRole("row").count()).toBe(1);
    await expect.poll(() => dialog.getByRole("list", { name: "Rule problems" }).textContent()).toContain("Input is required");
    expect(await save.isDisabled()).toBe(true);
    await dialog.getByLabel("Input of rule 1").fill("W3C");
    await dialog.getByLabel("Type of rule 1").selectOption("phoneme");
    await dialog.getByLabel("Output of rule 1").fill("dʌbəlju θriː siː");
    await expect.poll(() => dialog.getByRole("list", { name: "Rule problems" }).textContent()).toContain("Output must start and end with /");
    await dialog.getByLabel("Type of rule 1").selectOption("alias");
    await dialog.getByLabel("Output of rule 1").fill("World Wide Web Consortium");
    await expect.poll(() => dialog.getByRole("list", { name: "Rule problems" }).count()).toBe(0);
    await expect.poll(() => dialog.getByRole("row").getAttribute("data-alert")).toBe("change");
    await expect.poll(() => dialog.getByTestId("dictionary-alert").textContent()).toBe("1 unsaved change");

    // A duplicate input warns but does not block saving.
    await dialog.getByRole("button", { name: "Add rule" }).click();
    await dialog.getByLabel("Input of rule 2").fill("W3C");
    await dialog.getByLabel("Output of rule 2").fill("the consortium");
    await expect.poll(() => dialog.getByRole("list", { name: "Rule problems" }).textContent()).toContain("Rule is already defined");
    await dialog.getByRole("button", { name: "Remove rule W3C" }).last().click();
    await expect.poll(() => dialog.getByRole("row").count()).toBe(1);

    // Save: a new version appears.
    expect(await save.isDisabled()).toBe(false);
    await save.click();
    await expect.poll(() => dialog.getByText("Saved as a new version.").isVisible()).toBe(true);
    await expect.poll(() => versionCode.textContent()).not.toBe(firstVersion);
    expect(await save.isDisabled()).toBe(true);
    await expect.poll(() => dialog.getByRole("row").getAttribute("data-alert")).toBe("static");
    const list = await (await apiFetch(stack, account.apiKey, "/v1/pronunciation-dictionaries")).json();
    const created = list.pronunciation_dictionaries.find((d: { name: string }) => d.name === "Web standards");
    expect(created.latest_version_id).toBe(await versionCode.textContent());
    const detail = await (await apiFetch(stack, account.apiKey, `/v1/pronunciation-dictionaries/${created.id}`)).json();
    expect(detail.rules).toEqual([{ type: "alias", string_to_replace: "W3C", alias: "World Wide Web Consortium", case_sensitive: true, word_boundaries: true }]);

    // Searching rules: no match has its own empty state.
    const ruleSearch = dialog.getByPlaceholder("Search rules");
    await ruleSearch.fill("zzz");
    await expect.poll(() => dialog.getByText("No rules were found with the current search filter.").isVisible()).toBe(true);
    await ruleSearch.fill("w3c");
    await expect.poll(() => dialog.getByRole("row").count()).toBe(1);
    await ruleSearch.fill("");

    // Preview: a voice is required, then the rule plays.
    const play = dialog.getByRole("button", { name: "Play preview of W3C" });
    await play.click();
    await expect.poll(() => dialog.getByText("Please select a voice").isVisible()).toBe(true);
    await dialog.getByLabel("Preview voice").selectOption(premadeVoiceId("Avery"));
    await play.click();
    const audio = dialog.getByTestId("rule-preview-audio");
    await expect
      .poll(async () => {
        const state = await dialog.getByRole("button", { name: /preview of W3C/ }).getAttribute("data-state");
        const duration = await audio.evaluate((el) => (el as HTMLAudioElement).duration);
        return state === "playing" || (Number.isFinite(duration) && duration > 0);
      }, { timeout: 15_000 })
      .toBe(true);
    expect(await audio.evaluate((el) => (el as HTMLAudioElement).src)).toMatch(/^blob:/);

    // A phoneme rule warns when the chosen model cannot speak phonemes, not with an english-only one.
    await dialog.getByRole("button", { name: "Add rule" }).click();
    await dialog.getByLabel("Input of rule 2").fill("tomato");
    await dialog.getByLabel("Type of rule 2").selectOption("phoneme");
    await dialog.getByLabel("Output of rule 2").fill("/təˈmeɪtoʊ/");
    await expect.poll(() => dialog.getByRole("list", { name: "Rule problems" }).textContent()).toContain("Phonemes require an english-only model");
    await dialog.getByLabel("Model").selectOption("eleven_flash_v2");
    await expect.poll(() => dialog.getByRole("list", { name: "Rule problems" }).count()).toBe(0);
    await dialog.getByRole("button", { name: "Remove rule tomato" }).click();

    // Apply across the workspace (admin, flag on by default).
    await dialog.getByRole("button", { name: "Apply across workspace" }).click();
    await expect.poll(() => dialog.getByRole("button", { name: "Remove from workspace" }).isVisible()).toBe(true);
    const ws = await (await apiFetch(stack, account.apiKey, "/v1/workspace")).json();
    expect(ws.pronunciation_dictionary_locators).toEqual([{ pronunciation_dictionary_id: created.id, version_id: created.latest_version_id }]);

    // Back at the list: search is case-insensitive; no match shows "No results".
    await dialog.getByRole("button", { name: /Back to dictionaries/ }).click();
    const search = dialog.getByPlaceholder("Search dictionaries");
    await search.fill("WEB");
    await expect.poll(() => dialog.getByRole("listitem").count()).toBe(1);
    await search.fill("nothing like it");
    await expect.poll(() => dialog.getByText("No results").isVisible()).toBe(true);
    await search.fill("");

    // Lexicon upload: over 1.5 MB is refused in the browser; a PLS file becomes a dictionary with its rules.
    const file = dialog.getByLabel("Lexicon file (optional)");
    await file.setInputFiles({ name: "big.pls", mimeType: "application/pls+xml", buffer: Buffer.alloc(1.5 * 1048576 + 1, 32) });
    await expect.poll(() => dialog.getByText("File size exceeds the 1.5MB limit").isVisible()).toBe(true);
    const pls = `<?xml version="1.0" encoding="UTF-8"?>\n<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en-US"><lexeme><grapheme>SQL</grapheme><alias>sequel</alias></lexeme></lexicon>`;
    await file.setInputFiles({ name: "db.pls", mimeType: "application/pls+xml", buffer: Buffer.from(pls) });
    await name.fill("Databases");
    await dialog.getByRole("button", { name: "Upload dictionary" }).click();
    await expect.poll(() => dialog.getByLabel("Input of rule 1").inputValue()).toBe("SQL");
    expect(await dialog.getByLabel("Output of rule 1").inputValue()).toBe("sequel");

    expect(errors.pageErrors).toEqual([]);
    await closeContext(context);
  });

  it("uploads a lexicon into an existing dictionary as a new version, clears a failed upload's error, and previews phonemes on a phoneme model", async () => {
    const account = await createTestAccount(stack, "pro");
    const created = await apiFetch(stack, account.apiKey, "/v1/pronunciation-dictionaries/add-from-rules", {
      method: "POST",
      body: JSON.stringify({ name: "Lexicon target", rules: [{ type: "phoneme", string_to_replace: "tomato", phoneme: "təˈmeɪtoʊ", alphabet: "ipa" }] }),
    });
    const { id, version_id: firstVersion } = (await created.json()) as { id: string; version_id: string };
    const context = await newContext(browser, stack, { width: 1400, height: 900 });
    const page = await context.newPage();
    await signIn(page, account.email, account.password);

    // A failed upload on the create form: its error goes away when the file is cleared.
    await visit(page, "/app/settings/profile?pronunciation-dictionaries=true");
    const dialog = page.getByRole("dialog", { name: "Pronunciation dictionaries" });
    const createFile = dialog.getByLabel("Lexicon file (optional)");
    await createFile.setInputFiles({ name: "broken.pls", mimeType: "application/pls+xml", buffer: Buffer.from("<lexicon><lexeme><grapheme>x</grapheme></lexicon>") });
    await dialog.getByRole("button", { name: "Upload dictionary" }).click();
    const failure = dialog.getByText(/We were unable to upload the pronunciation dictionary/);
    await expect.poll(() => failure.isVisible()).toBe(true);
    await createFile.setInputFiles([]);
    await expect.poll(() => failure.count()).toBe(0);

    // The dictionary has a phoneme rule, so previews start on a model that speaks phonemes: no warning.
    await dialog.getByRole("button", { name: "Lexicon target", exact: true }).click();
    await expect.poll(() => dialog.getByLabel("Input of rule 1").inputValue()).toBe("tomato");
    await expect.poll(() => dialog.getByLabel("Model").inputValue()).toBe("eleven_turbo_v2");
    expect(await dialog.getByRole("list", { name: "Rule problems" }).count()).toBe(0);

    // Upload a lexicon into it: its rules are added as a new version.
    await dialog.getByText("Upload a lexicon into this dictionary").click();
    const pls = `<?xml version="1.0" encoding="UTF-8"?>\n<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en-US"><lexeme><grapheme>SQL</grapheme><alias>sequel</alias></lexeme></lexicon>`;
    await dialog.getByLabel("Lexicon file", { exact: true }).setInputFiles({ name: "db.pls", mimeType: "application/pls+xml", buffer: Buffer.from(pls) });
    await dialog.getByRole("button", { name: "Upload", exact: true }).click();
    await expect.poll(() => dialog.getByText("Uploaded 1 rule as a new version.").isVisible()).toBe(true);
    await expect.poll(() => dialog.getByTestId("dictionary-version").textContent()).not.toBe(firstVersion);
    const detail = (await (await apiFetch(stack, account.apiKey, `/v1/pronunciation-dictionaries/${id}`)).json()) as { rules: Array<{ string_to_replace: string }>; version_id: string };
    expect(detail.rules.map((r) => r.string_to_replace)).toEqual(["tomato", "SQL"]);
    expect(detail.version_id).not.toBe(firstVersion);

    // Replacing: only the file's rules remain.
    await dialog.getByText("Upload a lexicon into this dictionary").click();
    await dialog.getByLabel("Lexicon file", { exact: true }).setInputFiles({ name: "db.pls", mimeType: "application/pls+xml", buffer: Buffer.from(pls) });
    await dialog.getByLabel("Its rules").selectOption("replace");
    await dialog.getByRole("button", { name: "Upload", exact: true }).click();
    await expect.poll(async () => ((await (await apiFetch(stack, account.apiKey, `/v1/pronunciation-dictionaries/${id}`)).json()) as { rules: unknown[] }).rules.length).toBe(1);
    await closeContext(context);
  });
  it("labels every field of a rule visibly on a phone, where the column header is hidden", async () => {
    const account = await createTestAccount(stack, "pro");
    await apiFetch(stack, account.apiKey, "/v1/pronunciation-dictionaries/add-from-rules", {
      method: "POST",
      body: JSON.stringify({ name: "Phone labels", rules: [{ type: "phoneme", string_to_replace: "tomato", phoneme: "təˈmeɪtoʊ", alphabet: "ipa" }] }),
    });
    const context = await newContext(browser, stack, { width: 390, height: 844 });
    const page = await context.newPage();
    await signIn(page, account.email, account.password);
    await visit(page, "/app/settings/profile?pronunciation-dictionaries=true");
    const dialog = page.getByRole("dialog", { name: "Pronunciation dictionaries" });
    await dialog.getByRole("button", { name: "Phone labels", exact: true }).click();
    await expect.poll(() => dialog.getByLabel("Input of rule 1").inputValue()).toBe("tomato");
    const row = dialog.getByRole("row").first();
    // Each control's visible label is beside it, in the same cell.
    for (const [control, text] of [["Input of rule 1", "Input"], ["Type of rule 1", "Type"], ["Alphabet of rule 1", "Alphabet"], ["Output of rule 1", "Output"]] as const) {
      const cell = row.getByRole("cell").filter({ has: page.getByLabel(control, { exact: true }) });
      await expect.poll(() => cell.locator(".rule-cell-label").isVisible(), { message: control }).toBe(true);
      expect(await cell.locator(".rule-cell-label").textContent()).toBe(text);
    }
    await expect.poll(() => row.getByText("Case sensitive", { exact: true }).isVisible()).toBe(true);
    expect(await row.getByText("Whole words only", { exact: true }).isVisible()).toBe(true);
    expect(await row.getByText("Aa", { exact: true }).isVisible()).toBe(false);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await closeContext(context);
  });
});
