import { describe, expect, it } from "vitest";
import { awaitDecision, DECISION_WAIT_MS, outcomeOfState, VerificationWire, type VerificationState } from "./api.js";
import { verificationMessages } from "../../../../functions/platform/contract/voiceCreation.js";

/**
 * The instant clone dialog's wait for a verification decision. It used to poll 30 times and then
 * show "Failed due to an unknown error" while the server was still deciding (two clones verified at
 * once on a loaded machine took longer), and it never read a rejection from the state at all.
 */
const base = { text: null, language: "en", requires_verification: true, is_verified: false, attempts_left: 5, max_attempts: 5, next_attempts_reset_unix: null };
const pending = (): VerificationState => VerificationWire.parse({ ...base, attempts_left: 4, pending_attempt_id: "a1", last_attempt: { status: "pending", reasons: [] } });
const rejected = (): VerificationState =>
  VerificationWire.parse({
    ...base,
    attempts_left: 4,
    pending_attempt_id: null,
    last_attempt: { status: "rejected", reasons: [verificationMessages.differentSpeaker], alternatives: [{ voice_id: "v", public_owner_id: "o", name: "Ann", similarity: 0.8 }] },
  });

/** A clock that moves only when the wait sleeps. */
function clock() {
  let t = 0;
  return { now: () => t, sleep: async (ms: number) => void (t += ms) };
}

describe("verification decision (instant clone dialog)", () => {
  it("reads each state the server answers as the outcome", () => {
    expect(outcomeOfState(pending())).toEqual({ kind: "pending" });
    expect(outcomeOfState(VerificationWire.parse({ ...base, is_verified: true }))).toEqual({ kind: "verified" });
    expect(outcomeOfState(rejected())).toEqual({
      kind: "failed",
      message: verificationMessages.attemptFailed,
      reasons: [verificationMessages.differentSpeaker],
      attemptsLeft: 4,
      alternatives: [{ voice_id: "v", public_owner_id: "o", name: "Ann", similarity: 0.8 }],
    });
    // An error (the workflow failed) does not count against the attempts, and says so by its reason.
    const error = VerificationWire.parse({ ...base, pending_attempt_id: null, last_attempt: { status: "error", reasons: [verificationMessages.unknownError] } });
    expect(outcomeOfState(error)).toMatchObject({ kind: "failed", reasons: [verificationMessages.unknownError], attemptsLeft: 5 });
    const last = VerificationWire.parse({ ...base, attempts_left: 0, pending_attempt_id: null, last_attempt: { status: "rejected", reasons: [verificationMessages.wrongSentence] } });
    expect(outcomeOfState(last)).toEqual({ kind: "max_attempts", message: verificationMessages.maxAttempts });
    // An older server's state (no pending id, no last attempt) keeps waiting rather than inventing a failure.
    expect(outcomeOfState(VerificationWire.parse(base))).toEqual({ kind: "pending" });
  });

  it("waits past 30 polls for a decision the server takes long over, and shows the server's reasons", async () => {
    const c = clock();
    let asked = 0;
    const r = await awaitDecision({ kind: "pending" }, async () => (++asked <= 45 ? pending() : rejected()), { pollMs: 1000, ...c });
    expect(asked).toBe(46);
    expect(r).toMatchObject({ kind: "failed", reasons: [verificationMessages.differentSpeaker], attemptsLeft: 4 });
  });

  it("stops at once on a decision in the submission's answer, and gives up only after the server's own limit", async () => {
    let asked = 0;
    const state = async () => (asked++, pending());
    expect(await awaitDecision({ kind: "verified" }, state, clock())).toEqual({ kind: "verified" });
    expect(asked).toBe(0);
    const c = clock();
    expect(await awaitDecision({ kind: "pending" }, state, { pollMs: 1000, ...c })).toEqual({ kind: "pending" });
    expect(c.now()).toBeGreaterThanOrEqual(DECISION_WAIT_MS);
    expect(DECISION_WAIT_MS).toBeGreaterThan(300_000);
    expect(asked).toBe(Math.ceil(DECISION_WAIT_MS / 1000));
  });
});
