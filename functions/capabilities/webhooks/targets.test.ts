import { describe, expect, it } from "vitest";
import { createHmac } from "node:crypto";
import { addressAllowed, checkUrl, classifyAddress, resolveTarget, TargetRefused } from "./targets.js";
import { retryDelaySeconds, isRetryable, RETRY_WINDOW_SECONDS } from "./dispatch.js";
import { signatureHeader } from "./signature.js";
import { decryptSecret, encryptSecret, newWebhookSecret } from "./secrets.js";
import { deliverableHeaders, headerRule } from "./headers.js";
import { parseConfig } from "../../platform/config.js";

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

  it("knows loopback and link-local in every IPv6 spelling that stands for IPv4, and site-local", () => {
    for (const a of ["::7f00:1", "::127.0.0.1", "0:0:0:0:0:ffff:7f00:1", "::ffff:0:7f00:1", "64:ff9b::7f00:1", "64:ff9b:1::7f00:1", "2002:7f00:1::"]) {
      expect(classifyAddress(a), a).toBe("loopback");
    }
    for (const a of ["::a9fe:a9fe", "64:ff9b::169.254.169.254", "2002:a9fe:a9fe::1", "fe80::1%eth0", "febf::1", "fec0::1"]) expect(classifyAddress(a), a).toBe("private");
    for (const a of ["::2", "::ffff:0.0.0.0"]) expect(classifyAddress(a), a).toBe("forbidden");
  });

  it("refuses every spelling of loopback and link-local by default in every mode, the embedded one included", () => {
    const spellings = [
      "http://127.0.0.1:8080/",
      "http://127.1:8080/",
      "http://127.0.1/",
      "http://2130706433/",
      "http://0x7f000001/",
      "http://0x7f.0x0.0x0.0x1/",
      "http://0177.0.0.1/",
      "http://017700000001/",
      "http://127.000.000.001/",
      "http://127.255.255.254/",
      "http://[::1]:8080/",
      "http://[0:0:0:0:0:0:0:1]/",
      "http://[::ffff:127.0.0.1]/",
      "http://[::ffff:7f00:1]/",
      "http://[64:ff9b::127.0.0.1]/",
      "http://0.0.0.0:8080/",
      "http://0/",
      "http://[::]/",
      "http://localhost:8080/",
      "http://LOCALHOST./",
      "http://api.localhost/",
      "http://169.254.169.254/latest/meta-data/",
      "http://2852039166/",
      "http://[fe80::1]/",
      "http://[::ffff:169.254.169.254]/",
    ];
    for (const mode of ["embedded", "localstack", "aws"]) {
      const p = parseConfig({ TIMBRE_MODE: mode }).webhooks;
      expect(p.allowLoopback, mode).toBe(false);
      for (const url of spellings) expect(() => checkUrl(url.replace("http:", "https:"), p), `${mode} ${url}`).toThrow(/private, loopback or link-local/);
    }
  });

  it("allows a loopback receiver with WEBHOOK_ALLOW_LOCAL_TARGETS=true, and still no link-local or private one", () => {
    const p = parseConfig({ WEBHOOK_ALLOW_LOCAL_TARGETS: "true" }).webhooks;
    for (const url of ["http://127.0.0.1:8080/", "http://[::1]:8080/", "http://localhost:8080/", "http://2130706433/"]) expect(checkUrl(url, p).protocol, url).toBe("http:");
    for (const url of ["http://169.254.169.254/", "http://[fe80::1]/", "http://10.0.0.1/", "http://0.0.0.0/"]) expect(() => checkUrl(url, p), url).toThrow(/private, loopback or link-local/);
    expect(() => parseConfig({ WEBHOOK_ALLOW_LOCAL_TARGETS: "maybe" })).toThrow(/WEBHOOK_ALLOW_LOCAL_TARGETS/);
  });

  it("checks the addresses a name resolves to: localhost is loopback", async () => {
    await expect(resolveTarget(new URL("https://localhost:9/"), strict)).rejects.toBeInstanceOf(TargetRefused);
    expect((await resolveTarget(new URL("http://localhost:9/"), embedded)).address).toMatch(/^(127\.0\.0\.1|::1)$/);
  });
});

describe("request headers", () => {
  it("refuses credential, cookie, proxy, forwarding and hop-by-hop names and Timbre's own, in any case", () => {
    const forbidden = ["Authorization", "proxy-authorization", "COOKIE", "Set-Cookie", "Host", "connection", "Keep-Alive", "Transfer-Encoding", "TE", "Trailer", "Upgrade", "Content-Length", "Proxy-Connection", "proxy-anything", "X-Forwarded-For", "x-forwarded-host", "X-Forwarded-Proto", "Forwarded"];
    for (const name of forbidden) expect(headerRule(name), name).toBe("forbidden");
    for (const name of ["ElevenLabs-Signature", "elevenlabs-signature", "Timbre-Event-Id", "Content-Type", "User-Agent"]) expect(headerRule(name), name).toBe("reserved");
    for (const name of ["X-Webhook-Token", "X-Team", "X-Api-Key-Id", "Authorization-Hint"]) expect(headerRule(name), name).toBeNull();
    // A stored webhook from before the rule sends only what the rule allows.
    expect(deliverableHeaders({ Cookie: "a=b", authorization: "Bearer x", "X-Team": "ops" })).toEqual({ "X-Team": "ops" });
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
