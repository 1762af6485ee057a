import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request as httpRequest } from "node:http";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { startTestStack, createTestAccount, apiFetch } from "../support/stack.js";
import { PREMADE_VOICES, premadeVoiceId } from "../../functions/platform/domain/premadeVoices.js";

/**
 * What a careless or hostile client sends at the edge of the API: every answer is a 4xx in the
 * wire's error shape, with the CORS and request-id headers, and nothing reaches the store that
 * cannot name a record.
 */
let stack: EmbeddedStack;
let acct: Awaited<ReturnType<typeof createTestAccount>>;

beforeAll(async () => {
  stack = await startTestStack();
  acct = await createTestAccount(stack, "creator");
});
afterAll(async () => stack?.close());

/** A raw request, for bytes fetch would not send as they are (bad escapes, huge lines, bad UTF-8). */
function raw(path: string, opts: { method?: string; headers?: Record<string, string>; body?: Buffer } = {}) {
  const url = new URL(stack.url);
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: opts.method ?? "GET", headers: opts.headers }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end(opts.body);
  });
}

describe("paths that cannot name anything", () => {
  it("answers a malformed percent-escape with the resource's 404, CORS and a request id", async () => {
    const r = await raw("/v1/voices/%ff", { headers: { "xi-api-key": acct.apiKey } });
    expect(r.status).toBe(404);
    expect(JSON.parse(r.body).detail.status).toBe("voice_not_found");
    expect(r.headers["access-control-allow-origin"]).toBe("*");
    expect(r.headers["request-id"]).toMatch(/^\w{8,}$/);
  });

  it("answers ids over any real id's length with 404 on every route that takes one, before the store", async () => {
    const long = "v".repeat(1018);
    const cases: Array<[string, string, string]> = [
      ["GET", `/v1/voices/${long}`, "voice_not_found"],
      ["GET", `/v1/voices/${long}/settings`, "voice_not_found"],
      ["POST", `/v1/text-to-speech/${long}`, "voice_not_found"],
      ["GET", `/v1/pronunciation-dictionaries/${long}`, "pronunciation_dictionary_not_found"],
      ["GET", `/v1/history/${long}`, "history_item_not_found"],
    ];
    for (const [method, path, status] of cases) {
      const r = await apiFetch(stack, acct.apiKey, path, method === "POST" ? { method, body: JSON.stringify({ text: "hi" }) } : { method });
      expect(r.status, path.slice(0, 40)).toBe(404);
      const body = (await r.json()) as { detail: { status: string; message: string } };
      expect(body.detail.status).toBe(status);
      expect(body.detail.message.length).toBeLessThan(200);
    }
  });

  it("answers a 100 KB query string with 431 in the API's error shape", async () => {
    const r = await raw(`/v1/voices?search=${"a".repeat(100_000)}`, { headers: { "xi-api-key": acct.apiKey } });
    expect(r.status).toBe(431);
    expect(r.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(r.body)).toEqual({ detail: { status: "request_header_too_large", message: expect.any(String) } });
  });
});

describe("bodies", () => {
  it("refuses a JSON body that is not valid UTF-8 with 400, instead of speaking replacement characters", async () => {
    const voiceId = premadeVoiceId(PREMADE_VOICES[0].name);
    const body = Buffer.concat([Buffer.from('{"text":"Hello '), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from(' world"}')]);
    const r = await raw(`/v1/text-to-speech/${voiceId}`, { method: "POST", headers: { "xi-api-key": acct.apiKey, "content-type": "application/json", "content-length": String(body.length) }, body });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body).detail.status).toBe("invalid_utf8");
    const usage = await stack.ctx.stores.ledger.usage(acct.workspace.workspace_id);
    expect(usage?.character_count).toBe(0);
  });
});

describe("request ids and CORS", () => {
  it("echoes the client's x-request-id for tracing but answers with its own request-id", async () => {
    const r = await apiFetch(stack, acct.apiKey, "/v1/models", { headers: { "x-request-id": "client-trace-123" } });
    expect(r.headers.get("x-request-id")).toBe("client-trace-123");
    expect(r.headers.get("request-id")).not.toBe("client-trace-123");
    expect(r.headers.get("request-id")).toMatch(/^\w{16,}$/);
  });

  it("answers a preflight with the headers the SDK asks for (X-Fern-*)", async () => {
    const asked = "content-type, x-fern-language, x-fern-sdk-name, x-fern-sdk-version, x-fern-runtime, x-fern-runtime-version, xi-api-key";
    const r = await fetch(new URL("/v1/voices", stack.url), {
      method: "OPTIONS",
      headers: { origin: "https://example.org", "access-control-request-method": "GET", "access-control-request-headers": asked },
    });
    expect(r.status).toBe(204);
    const allowed = (r.headers.get("access-control-allow-headers") ?? "").toLowerCase().split(/\s*,\s*/);
    for (const h of asked.split(/\s*,\s*/)) expect(allowed).toContain(h);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("ignores a preflight's header list that is not a list of header names", async () => {
    const r = await fetch(new URL("/v1/voices", stack.url), {
      method: "OPTIONS",
      headers: { origin: "https://example.org", "access-control-request-method": "GET", "access-control-request-headers": "x-ok, bad header; evil" },
    });
    expect(r.status).toBe(204);
    expect(r.headers.get("access-control-allow-headers")).not.toContain("evil");
  });
});

describe("security headers", () => {
  it("sends the browser security headers on API answers", async () => {
    const r = await apiFetch(stack, acct.apiKey, "/v1/models");
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    expect(r.headers.get("x-frame-options")).toBe("DENY");
    expect(r.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(r.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });
});
