import { describe, expect, it } from "vitest";
import { createHmac } from "node:crypto";
import { addressAllowed, checkUrl, classifyAddress, resolveTarget, TargetRefused } from "./targets.js";
import { retryDelaySeconds, isRetryable, RETRY_WINDOW_SECONDS } from "./dispatch.js";
import { signatureHeader } from "./signature.js";
import { decryptSecret, encryptSecret, newWebhookSecret } from "./secrets.js";

const strict = { allowPrivate: false, allowLoopback: false, allowHttp: false };
const embedded = { allowPrivate: false, allowLoopback: true, allowHttp: true };

describe("webhook targets", () => {
  it("classifies loopback, private, link-local and public addresses, IPv4 inside IPv6 included", () => {
    expect(classifyAddress("127.0.0.1")).toBe("loopback");
    expect(classifyAddress("::1")).toBe("loopback");
    expect(classifyAddress("::ffff:127.0.0.1")).toBe("loopback");
    for (const a of ["10.1.2.3", "172.16.0.9", "192.168.1.1", "169.254.169.254", "100.64.0.1", "fd00::1", "fe80::1", "::ffff:10.0.0.1", "::ffff:a9fe:a9fe"]) {
      expect(classifyAddress(a), a).toBe("private");
    }
    for (const a of ["0.0.0.0", "224.0.0.1", "255.255.255.255", "::", "ff02::1"]) expect(classifyAddress(a), a).toBe("forbidden");
    for (const a of ["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111"]) expect(classifyAddress(a), a).toBe("public");
  });

  it("allows loopback only where the policy says, and private only with WEBHOOK_ALLOW_PRIVATE", () => {
    expect(addressAllowed("127.0.0.1", strict)).toBe(false);
    expect(addressAllowed("127.0.0.1", embedded)).toBe(true);
    expect(addressAllowed("10.0.0.1", embedded)).toBe(false);
    expect(addressAllowed("10.0.0.1", { ...embedded, allowPrivate: true })).toBe(true);
    expect(addressAllowed("0.0.0.0", { allowPrivate: true, allowLoopback: true, allowHttp: true })).toBe(false);
  });

  it("refuses plain http where https is required, credentials in the URL, and literal private addresses", () => {
    expect(() => checkUrl("http://example.com/hook", strict)).toThrow(/https/);
    expect(checkUrl("http://example.com/hook", embedded).host).toBe("example.com");
    expect(() => checkUrl("https://user:pw@example.com/", strict)).toThrow(/user name or password/);
    expect(() => checkUrl("https://169.254.169.254/latest/meta-data", strict)).toThrow(/private/);
    expect(() => checkUrl("https://[::ffff:10.0.0.1]/", strict)).toThrow(/private/);
    expect(() => checkUrl("ftp://example.com/", embedded)).toThrow(/http or https/);
    expect(() => checkUrl("not a url", embedded)).toThrow(/valid URL/);
  });

  it("checks the addresses a name resolves to: localhost is loopback", async () => {
    await expect(resolveTarget(new URL("https://localhost:9/"), strict)).rejects.toBeInstanceOf(TargetRefused);
    expect((await resolveTarget(new URL("http://localhost:9/"), embedded)).address).toMatch(/^(127\.0\.0\.1|::1)$/);
  });
});

describe("delivery rules", () => {
  it("retries on 5xx, 429 and no answer; backs off from the base, three times longer each time, capped at 6 hours", () => {
    expect([500, 502, 503, 429, null].map((status) => isRetryable({ status }))).toEqual([true, true, true, true, true]);
    expect([400, 401, 404, 410, 301].map((status) => isRetryable({ status }))).toEqual([false, false, false, false, false]);
    expect([1, 2, 3, 4].map((n) => retryDelaySeconds(30, n))).toEqual([30, 90, 270, 810]);
    expect(retryDelaySeconds(30, 20)).toBe(6 * 3600);
    // Within the 3-day window there is room for more than a dozen attempts.
    let t = 0;
    let n = 0;
    while (t + retryDelaySeconds(30, n + 1) <= RETRY_WINDOW_SECONDS) t += retryDelaySeconds(30, ++n);
    expect(n).toBeGreaterThan(12);
  });

  it("signs t.body with HMAC-SHA256 in lowercase hex, and keeps secrets encrypted", () => {
    // Verified against the official SDK's constructEvent in test/webhooks/delivery.test.ts.
    const expected = createHmac("sha256", "secret").update('1700000000.{"a":1}').digest("hex");
    expect(signatureHeader("secret", '{"a":1}', 1700000000)).toBe(`t=1700000000,v0=${expected}`);
    expect(signatureHeader("secret", "x", 1)).toMatch(/^t=1,v0=[0-9a-f]{64}$/);
    const s = newWebhookSecret();
    const sealed = encryptSecret("server secret of 32 characters!!", s);
    expect(sealed).not.toContain(s);
    expect(decryptSecret("server secret of 32 characters!!", sealed)).toBe(s);
    expect(() => decryptSecret("another server secret of 32 chars", sealed)).toThrow();
  });
});
