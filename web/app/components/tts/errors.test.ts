import { describe, expect, it } from "vitest";
import { speechErrorMessages, speechErrorView, validationMessage } from "./errors.js";

const domain = (status: string, message = "Server says no.") => ({ detail: { status, message } });

describe("speech error catalogue", () => {
  it("shows the message with an 'Update subscription?' link for payment, quota and concurrency errors", () => {
    for (const s of ["payment_issue", "quota_exceeded", "too_many_concurrent_requests"]) {
      expect(speechErrorView(401, domain(s, "Not enough credits."))).toMatchObject({ kind: "subscription", message: "Not enough credits." });
    }
  });

  it("has the system-busy and generic messages", () => {
    expect(speechErrorView(503, domain("system_busy"))).toMatchObject({ kind: "message", message: "We are sorry, the system is busy, try again..." });
    expect(speechErrorView(404, domain("voice_not_found", "A voice with the voice_id x was not found."))).toMatchObject({ message: "A voice with the voice_id x was not found." });
    expect(speechErrorView(500, undefined)).toMatchObject({ kind: "message", message: speechErrorMessages.generic });
    expect(speechErrorView(500, { detail: { status: "x", message: "" } }).message).toBe(speechErrorMessages.generic);
  });

  it("opens the dialogs of the detected_* statuses", () => {
    expect(speechErrorView(403, domain("detected_unusual_activity")).kind).toBe("unusual_activity");
    expect(speechErrorView(403, domain("detected_blocked_voice")).kind).toBe("blocked_voice");
    expect(speechErrorView(403, domain("detected_captcha_voice")).kind).toBe("captcha_voice");
    expect(speechErrorView(403, domain("is_in_probation")).kind).toBe("captcha_voice");
  });

  it("capitalises validation messages and adds their location", () => {
    expect(validationMessage({ loc: ["body", "text"], msg: "text must not be empty" })).toBe("Text must not be empty (body > text)");
    expect(speechErrorView(422, { detail: [{ loc: ["body", "inputs", 0], msg: "field required", type: "missing" }] })).toEqual({
      kind: "validation",
      title: "Invalid request",
      message: "Field required (body > inputs > 0)",
    });
  });
});
