import { describe, expect, it } from "vitest";
import { landingMessages } from "../../../../functions/capabilities/speech/landing.js";
import { landingText, landingView } from "./landing.js";

describe("the landing page's answers", () => {
  it("turns the limit and a network error into the sign-up prompt", () => {
    expect(landingView(429, { detail: { status: "landing_limit_reached", message: "x" } })).toEqual({ kind: "limit", message: landingText.limitReached });
    expect(landingView(0, null).kind).toBe("limit");
  });
  it("shows the server's message otherwise, and the busy message for 503", () => {
    expect(landingView(400, { detail: { status: "text_too_long", message: "Too long." } })).toEqual({ kind: "message", message: "Too long." });
    expect(landingView(503, null).message).toBe(landingText.busy);
    expect(landingView(500, null).message).toBe(landingText.other);
  });
  it("says what the server says", () => {
    expect(landingText.limitReached).toBe(landingMessages.limitReached);
    expect(landingText.tooLong(300)).toBe(landingMessages.tooLong(300));
    expect(landingText.busy).toBe(landingMessages.busy);
  });
});
