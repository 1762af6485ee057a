import { describe, expect, it } from "vitest";
import { base32Decode, base32Encode, matchTotp, otpauthUrl, totpAt } from "./totp.js";

describe("TOTP (RFC 6238)", () => {
  const secret = base32Encode(Buffer.from("12345678901234567890"));

  it("computes the RFC's SHA-1 test vectors (last six digits)", () => {
    // RFC 6238 appendix B: 94287082, 07081804, 14050471, 89005924 at T = 59, 1111111109, 1111111111, 1234567890.
    expect([59, 1111111109, 1111111111, 1234567890].map((t) => totpAt(secret, Math.floor(t / 30)))).toEqual(["287082", "081804", "050471", "005924"]);
  });

  it("accepts one step of drift either way, never a step at or before the last used, nor anything but six digits", () => {
    const t = 1111111109;
    const now = Math.floor(t / 30);
    expect(matchTotp(secret, totpAt(secret, now - 1), t, null)).toBe(now - 1);
    expect(matchTotp(secret, totpAt(secret, now + 1), t, null)).toBe(now + 1);
    expect(matchTotp(secret, totpAt(secret, now - 2), t, null)).toBeUndefined();
    expect(matchTotp(secret, totpAt(secret, now), t, now)).toBeUndefined();
    expect(matchTotp(secret, "12345", t, null)).toBeUndefined();
  });

  it("round-trips base32 and builds the otpauth link authenticator apps read", () => {
    expect(base32Decode(base32Encode(Buffer.from("hello world"))).toString()).toBe("hello world");
    expect(otpauthUrl("JBSWY3DPEHPK3PXP", "ana@example.com")).toBe("otpauth://totp/Timbre%3Aana%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Timbre&algorithm=SHA1&digits=6&period=30");
  });
});
