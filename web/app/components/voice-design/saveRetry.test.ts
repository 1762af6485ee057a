import { describe, expect, it } from "vitest";
import { ApiCallError } from "../tts/client.js";
import { retryDecision, SAVE_RETRY, saveWithRetry } from "./saveRetry.js";

const view = { kind: "message" as const, title: "t", message: "m" };
const invalidId = () => new ApiCallError(400, view, "invalid_generated_voice_id");
const serverError = () => new ApiCallError(500, view, "internal_error");

/** A save that fails with `errors` in turn, then answers "saved"; the sleeps it was made to wait. */
function scripted(errors: Error[]) {
  let calls = 0;
  const sleeps: number[] = [];
  return {
    save: async () => {
      calls++;
      const e = errors.shift();
      if (e) throw e;
      return "saved";
    },
    sleep: async (ms: number) => void sleeps.push(ms),
    get calls() {
      return calls;
    },
    sleeps,
  };
}

describe("saving a designed voice after its preview (voice-creation.md §7)", () => {
  it("retries an invalid generated voice id every 2 s and succeeds when it becomes valid", async () => {
    const s = scripted(Array.from({ length: 5 }, invalidId));
    expect(await saveWithRetry(s.save, { sleep: s.sleep })).toBe("saved");
    expect(s.calls).toBe(6);
    expect(s.sleeps).toEqual([2000, 2000, 2000, 2000, 2000]);
  });

  it("gives up on an invalid id after 30 retries (31 calls), throwing its error", async () => {
    const s = scripted(Array.from({ length: 40 }, invalidId));
    await expect(saveWithRetry(s.save, { sleep: s.sleep })).rejects.toMatchObject({ code: "invalid_generated_voice_id" });
    expect(s.calls).toBe(SAVE_RETRY.invalidIdRetries + 1);
    expect(s.sleeps.every((ms) => ms === 2000)).toBe(true);
  });

  it("retries other failures 3 times (server errors, network failures), then throws the last", async () => {
    const s = scripted([serverError(), new TypeError("Failed to fetch"), serverError(), serverError(), serverError()]);
    await expect(saveWithRetry(s.save, { sleep: s.sleep })).rejects.toBeInstanceOf(ApiCallError);
    expect(s.calls).toBe(4);
    expect(s.sleeps).toEqual([1000, 2000, 4000]);
    const ok = scripted([new TypeError("Failed to fetch"), serverError()]);
    expect(await saveWithRetry(ok.save, { sleep: ok.sleep })).toBe("saved");
    expect(ok.calls).toBe(3);
  });

  it("counts the two kinds apart", () => {
    expect(retryDecision(invalidId(), { invalidId: 29, other: 3 })).toEqual({ retry: true, delayMs: 2000 });
    expect(retryDecision(invalidId(), { invalidId: 30, other: 0 })).toEqual({ retry: false });
    expect(retryDecision(serverError(), { invalidId: 30, other: 2 })).toEqual({ retry: true, delayMs: 4000 });
    expect(retryDecision(serverError(), { invalidId: 0, other: 3 })).toEqual({ retry: false });
  });

  it("says a refusal retrying cannot change at once (the voice limit, a bad name); 429 and 408 are retried", async () => {
    for (const status of [400, 403, 422]) {
      const s = scripted([new ApiCallError(status, view, "voice_limit_reached")]);
      await expect(saveWithRetry(s.save, { sleep: s.sleep })).rejects.toMatchObject({ status });
      expect(s.calls).toBe(1);
    }
    for (const status of [408, 429]) expect(retryDecision(new ApiCallError(status, view, null), { invalidId: 0, other: 0 }).retry).toBe(true);
  });

  it("stops retrying when the dialog is closed", async () => {
    const controller = new AbortController();
    const s = scripted(Array.from({ length: 10 }, invalidId));
    const sleep = async (ms: number) => {
      s.sleeps.push(ms);
      if (s.sleeps.length === 2) controller.abort();
    };
    await expect(saveWithRetry(s.save, { sleep, signal: controller.signal })).rejects.toMatchObject({ code: "invalid_generated_voice_id" });
    expect(s.calls).toBe(2);
  });
});
