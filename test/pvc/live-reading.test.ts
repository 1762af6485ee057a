import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { LIVE_CLOSE, LIVE_READING, LiveServerMessageWire, liveMessages } from "../../functions/platform/contract/pvcRecorder.js";
import { createTestAccount, startTestStack } from "../support/stack.js";
import { LIVE_SCRIPT as SCRIPT, liveReading, pcmBase64 } from "./support.js";

/**
 * The recorder's live reading websocket against the embedded stack, with a real client (`ws`):
 * credentials only through the subprotocol, the bounds and their close codes, the error
 * messages, and a synthesised reading of a script (a voice the aligner's references do not use)
 * streamed as 16 kHz PCM chunks at about real time advancing the transcript to near the end.
 */
let stack: EmbeddedStack;
let apiKey: string;
let reading: Float32Array;

beforeAll(async () => {
  stack = await startTestStack();
  apiKey = (await createTestAccount(stack, "creator")).apiKey;
  reading = await liveReading();
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

const wsUrl = () => stack.url.replace(/^http/, "ws") + LIVE_READING.path;

/** A connected client that records what it receives and how it closed. */
function connect(protocols: string[]) {
  const ws = new WebSocket(wsUrl(), protocols);
  const messages: ReturnType<typeof LiveServerMessageWire.parse>[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.once("close", (code, reason) => resolve({ code, reason: reason.toString() })));
  ws.on("message", (d) => messages.push(LiveServerMessageWire.parse(JSON.parse(d.toString()))));
  const opened = new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  return { ws, messages, closed, opened };
}

/** The HTTP status a refused upgrade answers with. */
function refusedWith(protocols: string[] | undefined): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl(), protocols);
    ws.once("open", () => reject(new Error("the upgrade was accepted")));
    ws.once("error", () => undefined);
    ws.once("unexpected-response", (_req, res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
  });
}

const keyProtocols = () => [LIVE_READING.subprotocol, `${LIVE_READING.apiKeyPrefix}${apiKey}`];
const until = <T>(get: () => T | undefined, timeout = 60_000) => expect.poll(get, { timeout, interval: 50 }).toBeTruthy();

describe("live reading websocket: who may connect", () => {
  it("refuses an upgrade without credentials, with a wrong key, or without the pvc-stt protocol, and never selects the credential", async () => {
    const none = await refusedWith([LIVE_READING.subprotocol]);
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body).detail.status).toBe("invalid_api_key");
    expect((await refusedWith([LIVE_READING.subprotocol, `${LIVE_READING.apiKeyPrefix}sk_not_a_key`])).status).toBe(401);
    expect((await refusedWith([`${LIVE_READING.apiKeyPrefix}${apiKey}`])).status).toBe(400);
    // The key in the URL is not a credential.
    const inUrl = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${wsUrl()}?xi-api-key=${apiKey}`, [LIVE_READING.subprotocol]);
      ws.once("error", () => undefined);
      ws.once("unexpected-response", (_q, res) => resolve(res.statusCode ?? 0));
    });
    expect(inUrl).toBe(401);
    const c = connect(keyProtocols());
    await c.opened;
    expect(c.ws.protocol).toBe(LIVE_READING.subprotocol);
    c.ws.close();
    await c.closed;
  });

  it("caps open sessions per account: the third closes with 1013", async () => {
    const a = connect(keyProtocols());
    const b = connect(keyProtocols());
    await Promise.all([a.opened, b.opened]);
    const c = connect(keyProtocols());
    const closed = await c.closed;
    expect(closed).toEqual({ code: LIVE_CLOSE.tryAgainLater, reason: liveMessages.tooManySessions });
    a.ws.close();
    await a.closed;
    // A place is free again.
    const d = connect(keyProtocols());
    await d.opened;
    b.ws.close();
    d.ws.close();
    await Promise.all([b.closed, d.closed]);
  });
});

describe("live reading websocket: messages and bounds", () => {
  it("answers malformed messages with error messages and stays open", async () => {
    const c = connect(keyProtocols());
    await c.opened;
    c.ws.send("not json");
    c.ws.send(JSON.stringify({ user_audio_chunk: pcmBase64(new Float32Array(1600)) }));
    c.ws.send(JSON.stringify({ language: "en", script: "   " }));
    c.ws.send(JSON.stringify({ language: "English!" }));
    await until(() => c.messages.length >= 4 || undefined);
    expect(c.messages.map((m) => (m.type === "error" ? m.error.code : m.type))).toEqual(["invalid_message", "no_script", "empty_script", "invalid_language"]);
    c.ws.send(JSON.stringify({ language: "en", script: "x ".repeat(LIVE_READING.maxScriptChars) + "y" }));
    c.ws.send(JSON.stringify({ language: "en", script: "Hello there." }));
    c.ws.send(JSON.stringify({ user_audio_chunk: "@@@=" }));
    // The engine's first reading may take longer than a ping interval on a loaded machine: pings are not answers.
    const answers = () => c.messages.slice(4).filter((m) => m.type !== "ping");
    await until(() => (answers().length >= 3 && answers().some((m) => m.type === "session_started")) || undefined);
    const codes = answers().map((m) => (m.type === "error" ? m.error.code : m.type));
    expect(codes).toContain("script_too_long");
    expect(codes).toContain("invalid_audio");
    expect(codes).toContain("session_started");
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    c.ws.close();
    await c.closed;
  });

  it("closes with 1009 on a message over 64 KB, 1003 on binary frames and 1008 on audio far ahead of real time", async () => {
    const big = connect(keyProtocols());
    await big.opened;
    big.ws.send(JSON.stringify({ user_audio_chunk: "A".repeat(LIVE_READING.maxMessageBytes + 4) }));
    expect((await big.closed).code).toBe(LIVE_CLOSE.tooBig);

    const binary = connect(keyProtocols());
    await binary.opened;
    binary.ws.send(Buffer.alloc(100));
    expect(await binary.closed).toEqual({ code: LIVE_CLOSE.unsupportedData, reason: liveMessages.binary });

    const fast = connect(keyProtocols());
    await fast.opened;
    fast.ws.send(JSON.stringify({ language: "en", script: "Hello there." }));
    // A second at a time, all at once: past the five second allowance long before time allows it.
    for (let i = 0; i < 10; i++) fast.ws.send(JSON.stringify({ user_audio_chunk: pcmBase64(new Float32Array(16_000)) }));
    expect(await fast.closed).toEqual({ code: LIVE_CLOSE.policy, reason: liveMessages.tooFast });
  });
});

describe("live reading websocket: following a reading", () => {
  it("advances the transcript through a synthesised reading of the script to near its end, as prefixes of the script", async () => {
    const c = connect(keyProtocols());
    await c.opened;
    c.ws.send(JSON.stringify({ language: "en", script: SCRIPT }));
    await until(() => c.messages.find((m) => m.type === "session_started"));
    const started = c.messages.find((m) => m.type === "session_started")!;
    const total = started.type === "session_started" ? started.session_started_event.words : 0;
    expect(total).toBe(SCRIPT.split(" ").length);
    // Quarter-second chunks, paced a little faster than real time (the server allows 1.5x).
    const chunk = 4000;
    const t0 = Date.now();
    for (let i = 0, n = 0; i < reading.length; i += chunk, n++) {
      const due = t0 + (n * 250) / 1.25;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      c.ws.send(JSON.stringify({ user_audio_chunk: pcmBase64(reading.subarray(i, i + chunk)) }));
    }
    const transcripts = () => c.messages.flatMap((m) => (m.type === "user_transcript" ? [m.user_transcription_event] : []));
    await until(() => (transcripts().at(-1)?.words_read ?? 0) >= total - 2 || undefined, 60_000);
    const all = transcripts();
    expect(all.length).toBeGreaterThan(3);
    for (let i = 0; i < all.length; i++) {
      expect(SCRIPT.startsWith(all[i].user_transcript)).toBe(true);
      expect(all[i].words_total).toBe(total);
      if (i > 0) expect(all[i].words_read).toBeGreaterThan(all[i - 1].words_read);
    }
    // A reading of more than ten seconds was kept alive with pings.
    expect(c.messages.some((m) => m.type === "ping")).toBe(true);
    c.ws.close();
    await c.closed;
  }, 120_000);
});
