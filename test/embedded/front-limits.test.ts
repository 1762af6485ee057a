import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request as httpRequest, type ClientRequest, type IncomingMessage } from "node:http";
import { connect, type Socket } from "node:net";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { startTestStack, createTestAccount } from "../support/stack.js";
import { loopBoundMs, loopDelayDuring } from "../support/loop.js";

/**
 * The front reads no body it should not: sizes are checked before reading, large bodies need
 * credentials first, few are read at once, slow ones are dropped, and one address cannot hold
 * every connection. Meanwhile /healthz keeps answering.
 */
let stack: EmbeddedStack;
let apiKey: string;

beforeAll(async () => {
  stack = await startTestStack({
    env: { MAX_CONNECTIONS_PER_ADDRESS: "12" },
    frontLimits: { bodyIdleMs: 400, maxLargeBodies: 3, maxLargeBodiesPerAddress: 2 },
  });
  apiKey = (await createTestAccount(stack, "creator")).apiKey;
});
afterAll(async () => stack?.close());

interface Pending {
  req: ClientRequest;
  response: Promise<{ status: number; body: string }>;
}

/** Starts a request whose body is sent only in part (or not at all), and keeps it open. */
function openUpload(path: string, headers: Record<string, string>, firstBytes: number): Pending {
  const url = new URL(stack.url);
  let req!: ClientRequest;
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req = httpRequest({ host: url.hostname, port: url.port, path, method: "POST", headers }, (res: IncomingMessage) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      res.on("error", reject);
    });
    req.on("error", () => undefined); // the server may close while we still write
  });
  if (firstBytes) req.write(Buffer.alloc(firstBytes, 0x61));
  req.flushHeaders();
  return { req, response };
}

const MB = 1024 * 1024;

describe("request bodies", () => {
  it("refuses a body over the maximum from its declared length, before reading it", async () => {
    const p = openUpload("/v1/text-to-speech/x", { "xi-api-key": apiKey, "content-length": String(61 * MB) }, 0);
    const r = await p.response;
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body).detail.status).toBe("payload_too_large");
    p.req.destroy();
  });

  it("refuses a large body without valid credentials before reading it", async () => {
    for (const headers of [{}, { "xi-api-key": "sk_not_a_real_key_000000000" }] as Array<Record<string, string>>) {
      const p = openUpload("/v1/pronunciation-dictionaries/add-from-file", { ...headers, "content-length": String(59 * MB) }, 1024);
      const r = await p.response;
      expect(r.status).toBe(413);
      expect(JSON.parse(r.body).detail.message).toContain("credentials");
      p.req.destroy();
    }
    // The web app: no session cookie, same answer.
    const w = openUpload("/app/dictionaries", { "content-length": String(5 * MB), "content-type": "multipart/form-data; boundary=x" }, 10);
    expect((await w.response).status).toBe(413);
    w.req.destroy();
  });

  it("reads an unauthenticated chunked body only up to the anonymous allowance", async () => {
    const p = openUpload("/v1/auth/sign-in", { "content-type": "application/json", "transfer-encoding": "chunked" }, 0);
    for (let i = 0; i < 80; i++) p.req.write(Buffer.alloc(1024, 0x20));
    const r = await p.response;
    expect(r.status).toBe(413);
    p.req.destroy();
  });

  it("reads few large bodies at once, per address too, and says to retry", async () => {
    const headers = { "xi-api-key": apiKey, "content-length": String(10 * MB), "content-type": "application/octet-stream" };
    const held = [openUpload("/v1/voices/add", headers, 64 * 1024), openUpload("/v1/voices/add", headers, 64 * 1024)];
    await new Promise((r) => setTimeout(r, 100));
    const third = openUpload("/v1/voices/add", headers, 1024);
    const r = await third.response;
    expect(r.status).toBe(429);
    expect(JSON.parse(r.body).detail.status).toBe("too_many_uploads");
    // Health answers while those uploads hang.
    const health = await fetch(`${stack.url}/healthz`);
    expect(health.status).toBe(200);
    for (const h of [...held, third]) h.req.destroy();
  });

  it("drops a body that stops arriving, and frees its place", async () => {
    const headers = { "xi-api-key": apiKey, "content-length": String(2 * MB), "content-type": "application/octet-stream" };
    const slow = openUpload("/v1/voices/add", headers, 100 * 1024);
    const r = await slow.response;
    expect(r.status).toBe(408);
    slow.req.destroy();
    // The place is free again: a complete small upload goes through to the handler.
    const ok = await fetch(`${stack.url}/v1/models`, { headers: { "xi-api-key": apiKey } });
    expect(ok.status).toBe(200);
  });
});

describe("connections", () => {
  it("caps open connections from one address", async () => {
    const url = new URL(stack.url);
    const sockets: Socket[] = [];
    const refused: string[] = [];
    for (let i = 0; i < 16; i++) {
      const s = connect(Number(url.port), url.hostname);
      s.on("data", (d) => refused.push(d.toString()));
      s.on("error", () => undefined);
      sockets.push(s);
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(refused.some((t) => t.startsWith("HTTP/1.1 429"))).toBe(true);
    for (const s of sockets) s.destroy();
    await new Promise((r) => setTimeout(r, 100));
    expect((await fetch(`${stack.url}/healthz`)).status).toBe(200);
  });
});

describe("the event loop while bodies are refused and read", () => {
  it("stays responsive: no 100 ms pauses while 20 oversized and 20 anonymous uploads are turned away", async () => {
    const all: Pending[] = [];
    const { result, p99Ms, idleP99Ms } = await loopDelayDuring(async () => {
      for (let i = 0; i < 20; i++) all.push(openUpload("/v1/voices/add", { "content-length": String(59 * MB) }, 256 * 1024));
      for (let i = 0; i < 20; i++) all.push(openUpload("/v1/voices/add", { "xi-api-key": apiKey, "content-length": String(70 * MB) }, 0));
      const statuses = await Promise.all(all.map((p) => p.response.then((r) => r.status)));
      const health = await fetch(`${stack.url}/healthz`);
      return { statuses, health: health.status };
    });
    for (const p of all) p.req.destroy();
    expect(new Set(result.statuses)).toEqual(new Set([413]));
    expect(result.health).toBe(200);
    expect(p99Ms).toBeLessThan(loopBoundMs(idleP99Ms));
  });
});
