import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { ElevenLabsClient } from "@elevenlabs/elevenlabs-js";
import { PNG } from "pngjs";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { createAccount } from "../../functions/platform/domain/accounts.js";
import { createTestAccount } from "../support/stack.js";
import { axeViolations, smallTargets } from "./axe.js";
import { closeBrowserStack, closeContext, newContext, openBrowserStack, signIn, visit, watchErrors } from "./helpers.js";

/**
 * Producer Mode in the browser (issue 28 §6, app-shell.md §2, §6): a server administrator names a producer and forms a
 * team; the producer claims a manual verification request, approves it, finds it in History, sets their languages and
 * reads their team's workload, at 390 px and on a desktop. Anyone else meets the page's refusal.
 */
let stack: EmbeddedStack;
let browser: Browser;
beforeAll(async () => ({ stack, browser } = await openBrowserStack({ FEATURE_FLAGS: "producer-teams" })), 120_000);
afterAll(() => closeBrowserStack(stack, browser));

const png = () => {
  const p = new PNG({ width: 4, height: 4 });
  p.data.fill(90);
  return PNG.sync.write(p);
};

async function pendingRequest(name: string) {
  const owner = await createTestAccount(stack, "creator");
  const client = new ElevenLabsClient({ baseUrl: stack.url, apiKey: owner.apiKey, maxRetries: 0 });
  const { voiceId } = await client.voices.pvc.create({ name, language: "en" });
  await client.voices.pvc.verification.request(voiceId, { files: [new File([new Uint8Array(png())], "passport.png", { type: "image/png" })], extraText: "Recorded in my studio." });
  return { owner, voiceId };
}

async function fits(page: Page, width: number) {
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  expect(await axeViolations(page)).toEqual([]);
  expect(await smallTargets(page, "main")).toEqual([]);
}

describe("Producer Mode", () => {
  it("a server administrator names a producer and forms a team on the administration page", async () => {
    const adminEmail = `admin-${Date.now()}@example.test`;
    await createAccount(stack.ctx, { email: adminEmail, password: "operator password", tier: "free", serverAdmin: true });
    const producer = await createTestAccount(stack, "free");
    const context = await newContext(browser, stack, { width: 1440, height: 900 });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, adminEmail, "operator password");
    await visit(page, "/app/settings/administration");
    const section = page.getByRole("region", { name: "Producers" });
    await section.getByLabel("E-mail address of a user").fill(producer.email);
    await section.getByRole("button", { name: "Make producer" }).click();
    await page.getByText(`${producer.email} is a producer.`).waitFor();
    await section.getByLabel("New team's name").fill("Night shift");
    await section.getByRole("button", { name: "Create team" }).click();
    await page.getByText("Team created.").waitFor();
    await section.getByLabel("Producer's e-mail address").fill(producer.email);
    await section.getByLabel("Role").selectOption("leader");
    await section.getByRole("button", { name: "Add to team" }).click();
    await section.getByText(`${producer.email} (leader)`).waitFor();
    expect((await stack.ctx.stores.users.get(producer.user.user_id))?.is_producer).toBe(true);
    // A user who does not exist: the API's message, where the administrator acted.
    await section.getByLabel("E-mail address of a user").fill("nobody@example.test");
    await section.getByRole("button", { name: "Make producer" }).click();
    await section.getByRole("alert").filter({ hasText: "No user has this e-mail address." }).waitFor();
    expect(errors.pageErrors).toEqual([]);
    await closeContext(context);
  });

  for (const width of [390, 1440]) {
    it(`at ${width} px: claims a request, opens its document, approves it, finds it in History; settings and My Teams`, async () => {
      const producer = await createTestAccount(stack, "free");
      await stack.ctx.stores.users.update(producer.user.user_id, { is_producer: true });
      const team = { team_id: `t${width}`, name: `Team ${width}`, created_at_unix: 1 };
      await stack.ctx.stores.producerTeams.create(team);
      await stack.ctx.stores.producerTeams.putMember({ team_id: team.team_id, user_id: producer.user.user_id, role: "owner", added_at_unix: 1 });
      const voiceName = `Studio voice ${width}`;
      const { owner, voiceId } = await pendingRequest(voiceName);

      const context = await newContext(browser, stack, { width, height: 844 });
      const page = await context.newPage();
      const errors = watchErrors(page);
      await signIn(page, producer.email, producer.password);
      if (width > 1000) {
        const group = page.getByRole("complementary", { name: "Sidebar" });
        await group.getByRole("link", { name: "My Teams" }).waitFor();
      }
      await visit(page, "/app/productions/unclaimed");
      const item = page.getByRole("listitem", { name: `Voice verification: ${voiceName}` });
      await item.waitFor();
      await item.getByText("Recorded in my studio.").waitFor();
      // Producers review the request, not the person.
      expect(await page.locator("main").textContent()).not.toContain(owner.email);
      await fits(page, width);
      await item.getByRole("button", { name: "Claim" }).click();
      await page.getByText("Claimed: it is in your active productions.").waitFor();

      await page.getByRole("link", { name: "Active" }).click();
      await page.waitForURL(/\/app\/productions\/active$/);
      const held = page.getByRole("listitem", { name: `Voice verification: ${voiceName}` });
      const download = page.waitForEvent("download");
      await held.getByRole("button", { name: "passport.png" }).click();
      expect((await download).suggestedFilename()).toBe("passport.png");
      await fits(page, width);
      await held.getByRole("button", { name: "Approve" }).click();
      await page.getByText("Approved: the voice is verified.").waitFor();
      const voice = await stack.ctx.stores.voices.get(owner.workspace.workspace_id, voiceId);
      expect(voice?.verification.is_verified).toBe(true);

      await visit(page, "/app/productions/history");
      const done = page.getByRole("listitem", { name: `Voice verification: ${voiceName}` });
      await done.getByText("Approved", { exact: true }).waitFor();
      await fits(page, width);

      await visit(page, "/app/productions/settings");
      await page.getByRole("checkbox", { name: "German" }).check();
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("Settings saved.").waitFor();
      await visit(page, "/app/productions/settings");
      expect(await page.getByRole("checkbox", { name: "German" }).isChecked()).toBe(true);
      await fits(page, width);

      await visit(page, "/app/productions/dashboard");
      const teamCard = page.getByRole("region", { name: /Team \d+/ });
      await teamCard.getByRole("cell", { name: producer.email }).waitFor();
      await fits(page, width);
      expect(errors.pageErrors).toEqual([]);
      await closeContext(context);
    });
  }

  it("refuses anyone who is not a producer with the page's own message", async () => {
    const plain = await createTestAccount(stack, "free");
    const context = await newContext(browser, stack, { width: 390, height: 844 });
    const page = await context.newPage();
    await signIn(page, plain.email, plain.password);
    await visit(page, "/app/productions/active");
    await page.getByText("Producer Mode is only for producers. Ask an administrator of this server.").waitFor();
    await closeContext(context);
  });
});
