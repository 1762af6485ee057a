/**
 * The remote engine's circuit breaker and health check against a fake speech server started here
 * (node http on an ephemeral loopback port: the remote servers cannot run here), on a fake clock.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_VOICE_SETTINGS, EngineVoiceUnavailableError, type SynthesisChunk, type SynthesisRequest } from "../port.js";
import { CircuitBreaker } from "./breaker.js";
import { parseRemoteEngines } from "./config.js";
import { RemoteEngine, RemoteEngineError } from "./engine.js";

const KEY = "sk-breaker-secret-77";
const RATE = 24000;
let server: Server;
let url: string;
/** What the fake answers next: "ok" (a short WAV), "fail" (500), "hang" (no answer until released). */
let mode: "ok" | "fail" | "hang" | "mp3" = "ok";
let calls = 0;
let release: (() => void) | null = null;

function wav(seconds: number): Buffer {
  const n = Math.round(seconds * RATE);
  const b = Buffer.alloc(44 + n * 2);
  b.write("RIFF", 0);
  b.writeUInt32LE(36 + n * 2, 4);
  b.write("WAVE", 8);
  b.write("fmt ", 12);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(RATE, 24);
  b.writeUInt32LE(RATE * 2, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write("data", 36);
  b.writeUInt32LE(n * 2, 40);
  for (let i = 0; i < n; i++) b.writeInt16LE(Math.round(6000 * Math.sin((2 * Math.PI * 200 * i) / RATE)), 44 + i * 2);
  return b;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.url === "/v1/audio/voices") {
        if (mode === "fail") return void res.writeHead(401).end(`bad key ${req.headers.authorization}`);
        return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ voices: ["a"] }));
      }
      calls++;
      if (mode === "fail") return void res.writeHead(500, { "content-type": "text/plain" }).end("model crashed");
      // A bare MPEG layer III frame (no ID3 tag) under a WAV content type: a server that ignored response_format.
      if (mode === "mp3") return void res.writeHead(200, { "content-type": "audio/wav" }).end(Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(2000)]));
      if (mode === "hang") {
        release = () => res.writeHead(200, { "content-type": "audio/wav" }).end(wav(0.2));
        return;
      }
      res.writeHead(200, { "content-type": "audio/wav" }).end(wav(0.2));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

let clock = 1_800_000_000_000;
beforeEach(() => {
  mode = "ok";
  calls = 0;
  release = null;
});

const engine = (extra: Record<string, unknown> = {}) =>
  new RemoteEngine(parseRemoteEngines(JSON.stringify([{ id: "fake", url, key: KEY, breakerFailures: 3, breakerCooldownMs: 30_000, ...extra }])), 16000, { now: () => clock });

const request = (engineVoice = "fake/a"): SynthesisRequest => ({
  text: "Hello.",
  voice: { language: "en", gender: "neutral", age: "middle_aged", pitch: 50, pitchRange: 50, rate: 170, timbre: 0, seed: 0, engine: "remote", engineVoice },
  settings: DEFAULT_VOICE_SETTINGS,
  seed: 1,
  model: { id: "m", quality: "standard", supportsPhonemes: false },
});

async function speak(e: RemoteEngine, engineVoice?: string): Promise<SynthesisChunk[] | RemoteEngineError> {
  const out: SynthesisChunk[] = [];
  try {
    for await (const c of e.synthesize(request(engineVoice))) out.push(c);
    return out;
  } catch (err) {
    if (err instanceof RemoteEngineError) return err;
    throw err;
  }
}

describe("remote engine circuit breaker", () => {
  it("opens after N failures in a row: refuses with 503 and a Retry-After without asking the server", async () => {
    const e = engine();
    mode = "fail";
    for (let i = 0; i < 3; i++) expect(await speak(e)).toMatchObject({ statusCode: 502, code: "remote_engine_failed" });
    expect(calls).toBe(3);
    clock += 10_000;
    const refused = await speak(e);
    expect(refused).toMatchObject({ statusCode: 503, code: "remote_engine_unavailable", retryAfterSeconds: 20 });
    expect((refused as Error).message).toContain("fake");
    expect(calls).toBe(3);
    const [h] = await e.health();
    expect(h).toMatchObject({ id: "fake", kind: "openai", state: "open", consecutive_failures: 3, last_error: "remote_engine_failed", retry_after_seconds: 20 });
    expect(JSON.stringify(h)).not.toContain(KEY);
    expect(JSON.stringify(h)).not.toContain(url);
  });

  it("after the cool-down lets one trial through: its success closes the breaker", async () => {
    const e = engine();
    mode = "fail";
    for (let i = 0; i < 3; i++) await speak(e);
    clock += 30_000;
    mode = "hang";
    const trial = speak(e);
    await expect.poll(() => release !== null).toBe(true);
    // While the trial is out, the others are still refused.
    expect(await speak(e)).toMatchObject({ statusCode: 503, code: "remote_engine_unavailable" });
    expect(calls).toBe(4);
    release!();
    const chunks = await trial;
    expect(Array.isArray(chunks)).toBe(true);
    expect((await e.health())[0]).toMatchObject({ state: "ok", consecutive_failures: 0, retry_after_seconds: null });
    mode = "ok";
    expect(Array.isArray(await speak(e))).toBe(true);
    expect(calls).toBe(5);
  });

  it("a failed trial opens it for another full cool-down", async () => {
    const e = engine();
    mode = "fail";
    for (let i = 0; i < 3; i++) await speak(e);
    clock += 31_000;
    expect(await speak(e)).toMatchObject({ statusCode: 502 });
    expect(calls).toBe(4);
    clock += 29_000;
    expect(await speak(e)).toMatchObject({ statusCode: 503, retryAfterSeconds: 1 });
    expect(calls).toBe(4);
  });

  it("a success between failures resets the count; the health says failing meanwhile", async () => {
    const e = engine();
    mode = "fail";
    await speak(e);
    await speak(e);
    expect((await e.health())[0]).toMatchObject({ state: "failing", consecutive_failures: 2, last_error: "remote_engine_failed" });
    mode = "ok";
    expect(Array.isArray(await speak(e))).toBe(true);
    mode = "fail";
    await speak(e);
    await speak(e);
    expect((await e.health())[0]).toMatchObject({ state: "failing", consecutive_failures: 2 });
    expect(calls).toBe(5);
  });

  it("a request the caller abandons counts for nothing", async () => {
    const e = engine({ breakerFailures: 1 });
    mode = "hang";
    const ctl = new AbortController();
    const it = e.synthesize(request(), ctl.signal)[Symbol.asyncIterator]();
    const first = it.next().catch((err: unknown) => err);
    await expect.poll(() => release !== null).toBe(true);
    ctl.abort();
    await first;
    expect((await e.health())[0]).toMatchObject({ state: "ok", consecutive_failures: 0 });
  });

  it("the probe asks the server's voice list and reports the class of a failure, never the key", async () => {
    const e = engine();
    expect((await e.health(true))[0].probe).toEqual({ ok: true, status: 200, error: null });
    mode = "fail";
    const [h] = await e.health(true);
    expect(h.probe).toEqual({ ok: false, status: 401, error: "remote_engine_unauthorized" });
    expect(JSON.stringify(h)).not.toContain(KEY);
    const down = new RemoteEngine(parseRemoteEngines(JSON.stringify([{ id: "gone", url: "http://127.0.0.1:9" }])), 16000);
    expect((await down.health(true))[0].probe).toEqual({ ok: false, status: null, error: "remote_engine_unreachable" });
  });

  it("an unreachable server is a 502 remote_engine_unreachable and counts as a failure", async () => {
    const down = new RemoteEngine(parseRemoteEngines(JSON.stringify([{ id: "gone", url: "http://127.0.0.1:9", breakerFailures: 2 }])), 16000, { now: () => clock });
    expect(await speak(down, "gone/a")).toMatchObject({ statusCode: 502, code: "remote_engine_unreachable" });
    expect((await down.health())[0]).toMatchObject({ state: "failing", last_error: "remote_engine_unreachable" });
  });

  it("a fetch that refuses the engine's address (the platform's checked fetch) is a 502 remote_engine_address_refused", async () => {
    const refusing = (async () => {
      throw Object.assign(new Error("127.0.0.1 is a loopback address"), { name: "AddressRefused", addressClass: "loopback" });
    }) as unknown as typeof fetch;
    const e = new RemoteEngine(parseRemoteEngines(JSON.stringify([{ id: "fake", url }])), 16000, { fetch: refusing, now: () => clock });
    const err = await speak(e);
    expect(err).toMatchObject({ statusCode: 502, code: "remote_engine_address_refused" });
    expect((err as Error).message).toMatch(/fake is at an address this server may not connect to \(loopback\)/);
    expect(calls).toBe(0);
    expect((await e.health(true))[0]).toMatchObject({ last_error: "remote_engine_address_refused", probe: { ok: false, error: "remote_engine_address_refused" } });
  });

  it("the breaker's settings are checked at start", () => {
    expect(() => parseRemoteEngines(JSON.stringify([{ id: "x", url, breakerFailures: 0 }]))).toThrow(/breakerFailures must be 1..100/);
    expect(() => parseRemoteEngines(JSON.stringify([{ id: "x", url, breakerCooldownMs: "soon" }]))).toThrow(/breakerCooldownMs/);
    const b = new CircuitBreaker(1, 1000, () => clock);
    expect(b.snapshot()).toEqual({ state: "ok", consecutive_failures: 0, last_error: null, last_error_at_unix: null, retry_after_seconds: null });
  });
});

describe("answers and targets", () => {
  it("a WAV asked for and MP3 answered (a bare frame, no tag) is said to be MP3, not read as noise", async () => {
    mode = "mp3";
    const r = await speak(engine());
    expect(r).toBeInstanceOf(RemoteEngineError);
    expect((r as RemoteEngineError).code).toBe("remote_engine_bad_audio");
    expect((r as RemoteEngineError).message).toMatch(/^The remote engine fake answered MP3 although WAV was asked for/);
  });

  it("a workspace engine's voice (\"@ENGINE/VOICE\") speaks only with the target the product resolved, on a breaker of its own", async () => {
    const e = engine({ breakerFailures: 1 });
    await expect(speak(e, "@fake/a")).rejects.toThrow(/\(fake\) is not configured in this workspace/);
    const [cfg] = parseRemoteEngines(JSON.stringify([{ id: "mine", url, key: KEY, breakerFailures: 1 }]));
    const target = { config: cfg, breakerKey: "ws1/mine", voice: "a" };
    mode = "fail";
    await expect(async () => {
      for await (const _ of e.synthesize({ ...request("@mine/a"), remote: target })) void _;
    }).rejects.toThrow(RemoteEngineError);
    expect(e.stateOf(target).state).toBe("open");
    // The operator's engine of the same server keeps its own breaker.
    expect((await e.health())[0].state).toBe("ok");
  });

  it("an XTTS target refuses a language the server does not speak before sending the reference", async () => {
    const [cfg] = parseRemoteEngines(JSON.stringify([{ id: "x", kind: "xtts", url }]));
    let read = 0;
    const e = engine();
    const req: SynthesisRequest = { ...request("@x/v"), voice: { ...request().voice, language: "fi" }, remote: { config: cfg, breakerKey: "ws/x", voice: "v", reference: async () => (read++, { bytes: new Uint8Array(8), fileName: "r.wav", mimeType: "audio/wav" }) } };
    await expect(async () => {
      for await (const _ of e.synthesize(req)) void _;
    }).rejects.toThrow(EngineVoiceUnavailableError);
    expect(read).toBe(0);
  });
});
