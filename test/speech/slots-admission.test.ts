import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { startTestStack, createTestAccount, apiFetch } from "../support/stack.js";
import { premadeVoiceId } from "../../functions/platform/domain/premadeVoices.js";

/**
 * Issue 24's storm begins with a wave of requests from a workspace the server has not seen yet.
 * Its plan's concurrency must be known before the wave is admitted, or every request of the wave
 * does the reads and writes that only admitted requests should do.
 */
let stack: EmbeddedStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => stack?.close());

const AVERY = premadeVoiceId("Avery");

describe("the first wave of a workspace this process has not seen (issue 24)", () => {
  it("is admitted as the later ones are: as many as the plan's slots and its queue, the rest refused from memory", async () => {
    const free = await createTestAccount(stack, "free");
    const ws = free.workspace.workspace_id;
    const now = Math.floor(Date.now() / 1000);
    // Both of the plan's slots are held by another process: nobody here can take one.
    await stack.ctx.stores.ledger.takeSlot(ws, 2, "elsewhere-1", now, 60);
    await stack.ctx.stores.ledger.takeSlot(ws, 2, "elsewhere-2", now, 60);
    // Read by every admitted text-to-speech request before it asks for a slot (not by a refused one).
    const settingsReads = vi.spyOn(stack.ctx.stores.voices, "workspaceSettings");
    try {
      const WAVE = 24;
      const answers = await Promise.all(
        Array.from({ length: WAVE }, (_, i) =>
          apiFetch(stack, free.apiKey, `/v1/text-to-speech/${AVERY}`, { method: "POST", body: JSON.stringify({ text: `Wave request number ${i}.` }) }),
        ),
      );
      for (const r of answers) {
        expect(r.status).toBe(429);
        expect(((await r.json()) as { detail: { status: string } }).detail.status).toBe("too_many_concurrent_requests");
      }
      // The plan's 2 slots look free to this process (it holds none) and its queue holds 2: at
      // most 4 of the 24 were admitted (before this change 8 were, in one run: the plan was
      // unknown until one of them reached the store for a slot).
      expect(settingsReads.mock.calls.filter(([w]) => w === ws).length).toBeLessThanOrEqual(4);
      expect(settingsReads.mock.calls.filter(([w]) => w === ws).length).toBeGreaterThan(0);
    } finally {
      settingsReads.mockRestore();
      for (const owner of ["elsewhere-1", "elsewhere-2"]) for (const i of [0, 1]) await stack.ctx.stores.ledger.releaseSlot(ws, i, owner);
    }
  }, 60_000);
});
