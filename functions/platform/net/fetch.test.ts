/**
 * The checked fetch of remote engines and the start-up check of REMOTE_ENGINES' addresses: the
 * webhook target rules (loopback, private, link-local refused unless the operator allows them),
 * checked on the literal URL at start and on the resolved addresses at each request, with the
 * connection pinned to the address that was checked. A local HTTP server stands for the engine;
 * a resolver passed in stands for DNS answers this machine cannot be made to give.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../config.js";
import { AddressRefused } from "./addresses.js";
import { checkedFetch } from "./fetch.js";

let server: Server;
let port: number;
const hits: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url} ${req.headers.host}`);
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      res.writeHead(201, { "content-type": "text/plain", "x-one": "1" });
      res.write("echo:");
      setTimeout(() => res.end(body), 10);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const closed = { allowPrivate: false, allowLoopback: false, allowHttp: true };
const local = { allowPrivate: false, allowLoopback: true, allowHttp: true };

async function refusal(p: Promise<unknown>): Promise<AddressRefused> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AddressRefused);
  return e as AddressRefused;
}

describe("checked fetch", () => {
  it("refuses a loopback address unless loopback is allowed, before connecting", async () => {
    const before = hits.length;
    expect((await refusal(checkedFetch(closed)(`http://127.0.0.1:${port}/x`))).addressClass).toBe("loopback");
    expect((await refusal(checkedFetch(closed)(`http://localhost:${port}/x`))).addressClass).toBe("loopback");
    expect((await refusal(checkedFetch(local)(`http://[::ffff:10.0.0.1]:${port}/x`))).addressClass).toBe("private");
    expect(hits.length).toBe(before);
  });

  it("checks the addresses a name resolves to at the request and connects to the one checked", async () => {
    const before = hits.length;
    // A public-looking name that resolves to loopback (or to public and private answers at once): refused.
    expect((await refusal(checkedFetch(closed, async () => [{ address: "127.0.0.1", family: 4 }])(`http://tts.example.com:${port}/x`))).addressClass).toBe("loopback");
    const mixed = async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "169.254.169.254", family: 4 },
    ];
    expect((await refusal(checkedFetch(local, mixed)(`http://tts.example.com:${port}/x`))).addressClass).toBe("private");
    expect((await refusal(checkedFetch(local, async () => [])(`http://nowhere.example.com:${port}/x`))).addressClass).toBe("unresolvable");
    expect(hits.length).toBe(before);
    // Allowed: the request goes to the address the check saw (the name itself resolves nowhere here).
    const res = await checkedFetch(local, async () => [{ address: "127.0.0.1", family: 4 }])(`http://tts.example.com:${port}/speak?a=1`, { method: "POST", body: "hello", headers: { "x-test": "y" } });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-one")).toBe("1");
    expect(await res.text()).toBe("echo:hello");
    expect(hits.at(-1)).toBe(`POST /speak?a=1 tts.example.com:${port}`);
  });

  it("an abort signal stops the request", async () => {
    const ctl = new AbortController();
    ctl.abort();
    await expect(checkedFetch(local)(`http://127.0.0.1:${port}/x`, { signal: ctl.signal })).rejects.toThrow();
  });
});

describe("REMOTE_ENGINES addresses at start", () => {
  const env = (url: string, extra: Record<string, string> = {}) => ({ REMOTE_ENGINES: JSON.stringify([{ id: "kokoro", url }]), ...extra });

  it("refuses loopback, private and link-local addresses with a message naming the engine and the setting", () => {
    expect(() => parseConfig(env("http://127.0.0.1:8880"))).toThrow(/"kokoro" points to a loopback address \(127\.0\.0\.1\).*WEBHOOK_ALLOW_LOCAL_TARGETS=true/);
    expect(() => parseConfig(env("http://localhost:8880"))).toThrow(/"kokoro" points to a loopback address/);
    expect(() => parseConfig(env("http://2130706433:8880"))).toThrow(/loopback address \(127\.0\.0\.1\)/);
    expect(() => parseConfig(env("http://10.1.2.3:8880", { WEBHOOK_ALLOW_LOCAL_TARGETS: "true" }))).toThrow(/"kokoro" points to a private address.*WEBHOOK_ALLOW_PRIVATE=true/);
    expect(() => parseConfig(env("http://169.254.169.254/", { WEBHOOK_ALLOW_LOCAL_TARGETS: "true" }))).toThrow(/private address/);
    expect(() => parseConfig(env("http://[fe80::1]:80/"))).toThrow(/private address/);
  });

  it("allows them when the operator's settings do, and public hosts always", () => {
    expect(parseConfig(env("http://127.0.0.1:8880", { WEBHOOK_ALLOW_LOCAL_TARGETS: "true" })).remoteEngines).toContain("127.0.0.1");
    expect(parseConfig(env("http://10.1.2.3:8880", { WEBHOOK_ALLOW_PRIVATE: "true" })).remoteEngines).toContain("10.1.2.3");
    expect(parseConfig(env("https://api.elevenlabs.io")).remoteEngines).toContain("elevenlabs");
  });

  it("a broken entry stops the start with its reason", () => {
    expect(() => parseConfig({ REMOTE_ENGINES: "[{" })).toThrow(/Invalid configuration: REMOTE_ENGINES is not JSON/);
    expect(() => parseConfig({ REMOTE_ENGINES: JSON.stringify([{ id: "x", url: "ftp://a" }]) })).toThrow(/REMOTE_ENGINES\[0\]\.url must be http or https/);
  });
});
