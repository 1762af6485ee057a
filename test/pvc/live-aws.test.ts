import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { LIVE_ENDINGS, LIVE_READING, LiveServerMessageWire, liveMessages, type LiveServerMessage } from "../../functions/platform/contract/pvcRecorder.js";
import { createLiveHandler, type WebSocketEvent } from "../../functions/handlers/live.js";
import { LEASE_MS, MISSING_CHUNK_MS, referencePrefix, type LiveConnections } from "../../functions/capabilities/pvc/live-sessions.js";
import { createTestAccount, startTestStack } from "../support/stack.js";
import { createSession } from "../../functions/platform/domain/accounts.js";
import { issueToken, TOKEN_TTL_SECONDS } from "../../functions/platform/domain/tokens.js";
import { sha256Hex } from "../../functions/platform/adapters/ids.js";
import { LIVE_SCRIPT, liveReading, pcmBase64 } from "./support.js";

/**
 * The live reading websocket as it runs on AWS: the Lambda handler driven with API Gateway
 * WebSocket events ($connect with the subprotocol header, $default messages, $disconnect),
 * one invocation per message and several at once, against the embedded DynamoDB and S3 (the
 * session item, the reference features). Only API Gateway's @connections API is a fake: it
 * records what the handler posts and which connections it closes.
 */
let stack: EmbeddedStack;
let apiKey: string;
let workspaceId: string;
let account: Awaited<ReturnType<typeof createTestAccount>>;
let reading: Float32Array;
let handle: ReturnType<typeof createLiveHandler>;

const posted = new Map<string, LiveServerMessage[]>();
const closed = new Set<string>();
const connections: LiveConnections = {
  async post(id, message) {
    if (closed.has(id)) return false;
    // What the page parses must be what the handler sends.
    posted.set(id, [...(posted.get(id) ?? []), LiveServerMessageWire.parse(JSON.parse(JSON.stringify(message))) as LiveServerMessage]);
    return true;
  },
  async close(id) {
    closed.add(id);
  },
};

beforeAll(async () => {
  stack = await startTestStack();
  account = await createTestAccount(stack, "creator");
  apiKey = account.apiKey;
  workspaceId = account.workspace.workspace_id;
  handle = createLiveHandler(stack.ctx, connections);
  reading = await liveReading();
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

let ids = 0;
const newConnection = () => `conn${++ids}${Math.random().toString(36).slice(2, 8)}=`;
const keyProtocols = (key = apiKey) => [LIVE_READING.subprotocol, `${LIVE_READING.apiKeyPrefix}${key}`];

function connectEvent(connectionId: string, protocols: string[]): WebSocketEvent {
  return {
    requestContext: { routeKey: "$connect", connectionId, requestTimeEpoch: Date.now(), identity: { sourceIp: "203.0.113.7" } },
    // API Gateway passes header names as the client wrote them.
    headers: { Host: "abc.execute-api.eu-west-1.amazonaws.com", "Sec-WebSocket-Protocol": protocols.join(", "), "Sec-WebSocket-Version": "13" },
  };
}

let messages = 0;
function messageEvent(connectionId: string, body: string, at = Date.now(), binary = false): WebSocketEvent {
  return {
    requestContext: { routeKey: "$default", connectionId, messageId: `msg${++messages}=`, requestTimeEpoch: at },
    body,
    isBase64Encoded: binary,
  };
}

const send = (connectionId: string, m: unknown, at?: number) => handle(messageEvent(connectionId, JSON.stringify(m), at));
const disconnect = (connectionId: string) => handle({ requestContext: { routeKey: "$disconnect", connectionId, requestTimeEpoch: Date.now() } });
const queuedChunks = async (id: string) => (await stack.ctx.stores.tables.ledger.queryPrefix(`LIVE#${id}`, "CHUNK#")).length;
const codes = (id: string) => (posted.get(id) ?? []).map((m) => (m.type === "error" ? m.error.code : m.type));

async function open(): Promise<string> {
  const id = newConnection();
  const r = await handle(connectEvent(id, keyProtocols()));
  expect(r.statusCode).toBe(200);
  return id;
}

describe("live reading on AWS: $connect", () => {
  it("refuses missing or wrong credentials and a missing pvc-stt protocol, and selects pvc-stt, never the credential", async () => {
    const none = await handle(connectEvent(newConnection(), [LIVE_READING.subprotocol]));
    expect(none.statusCode).toBe(401);
    expect(JSON.parse(none.body!).detail.status).toBe("invalid_api_key");
    expect((await handle(connectEvent(newConnection(), keyProtocols("sk_not_a_key")))).statusCode).toBe(401);
    expect((await handle(connectEvent(newConnection(), [`${LIVE_READING.apiKeyPrefix}${apiKey}`]))).statusCode).toBe(400);
    const id = newConnection();
    const ok = await handle(connectEvent(id, keyProtocols()));
    expect(ok).toEqual({ statusCode: 200, headers: { "Sec-WebSocket-Protocol": LIVE_READING.subprotocol } });
    await disconnect(id);
  });

  it("admits the web app's session token as bearer.<token>, and refuses one signed with another secret", async () => {
    const { sessionId } = await createSession(stack.ctx, account.user, "test");
    const claims = { sid: sha256Hex(sessionId), uid: account.user.user_id, ws: workspaceId, exp: Math.floor(Date.now() / 1000) + TOKEN_TTL_SECONDS };
    const id = newConnection();
    const ok = await handle(connectEvent(id, [LIVE_READING.subprotocol, `${LIVE_READING.bearerPrefix}${issueToken(stack.ctx.secrets.session, claims)}`]));
    expect(ok.statusCode).toBe(200);
    expect((await stack.ctx.stores.liveReadings.head(id))?.workspace_id).toBe(workspaceId);
    await disconnect(id);
    const forged = issueToken("another secret that is long enough to look real", claims);
    expect((await handle(connectEvent(newConnection(), [LIVE_READING.subprotocol, `${LIVE_READING.bearerPrefix}${forged}`]))).statusCode).toBe(401);
  });

  it("caps open sessions per workspace at two, and a disconnect frees a place", async () => {
    const a = await open();
    const b = await open();
    const third = await handle(connectEvent(newConnection(), keyProtocols()));
    expect(third.statusCode).toBe(429);
    expect(JSON.parse(third.body!).detail).toEqual({ status: "too_many_sessions", message: liveMessages.tooManySessions });
    await disconnect(a);
    const d = await open();
    await Promise.all([disconnect(b), disconnect(d)]);
    const place = await stack.ctx.stores.tables.ledger.get<{ conns: Record<string, number> }>({ pk: `WS#${workspaceId}`, sk: "LIVE" });
    expect(place?.conns).toEqual({});
  });
});

describe("live reading on AWS: messages and bounds", () => {
  it("answers malformed messages with error messages and keeps the connection", async () => {
    const id = await open();
    await handle(messageEvent(id, "not json"));
    await send(id, { user_audio_chunk: pcmBase64(new Float32Array(1600)) });
    await send(id, { language: "en", script: "   " });
    await send(id, { language: "English!" });
    await send(id, { language: "en", script: "x ".repeat(LIVE_READING.maxScriptChars) + "y" });
    await send(id, { language: "en", script: "Hello there." });
    await send(id, { user_audio_chunk: "@@@=" });
    await send(id, { type: "pong", event_id: 1 });
    // The engine's first reading may outlast a ping interval on a loaded machine: pings are not answers.
    expect(codes(id).filter((c) => c !== "ping")).toEqual(["invalid_message", "no_script", "empty_script", "invalid_language", "script_too_long", "session_started", "invalid_audio"]);
    expect(closed.has(id)).toBe(false);
    await disconnect(id);
  }, 60_000);

  it("ends a session, saying why first, on a message over 64 KB, a binary frame, and audio far ahead of real time", async () => {
    const big = await open();
    await send(big, { user_audio_chunk: "A".repeat(LIVE_READING.maxMessageBytes + 4) });
    expect(codes(big)).toEqual([LIVE_ENDINGS.tooBig.code]);
    expect(closed.has(big)).toBe(true);
    // API Gateway calls $disconnect after the server closes.
    await disconnect(big);

    const binary = await open();
    await handle(messageEvent(binary, Buffer.alloc(100).toString("base64"), Date.now(), true));
    expect(posted.get(binary)).toEqual([{ type: "error", error: LIVE_ENDINGS.binary }]);
    expect(closed.has(binary)).toBe(true);
    await disconnect(binary);

    const fast = await open();
    await send(fast, { language: "en", script: "Hello there." });
    const t0 = Date.now();
    // A second at a time, all at once: past the five second allowance long before time allows it.
    for (let i = 0; i < 10 && !closed.has(fast); i++) await send(fast, { user_audio_chunk: pcmBase64(new Float32Array(16_000)) }, t0 + i);
    expect(closed.has(fast)).toBe(true);
    expect(posted.get(fast)?.at(-1)).toEqual({ type: "error", error: { code: "too_fast", message: liveMessages.tooFast } });
    await disconnect(fast);
  }, 60_000);
});

describe("live reading on AWS: following a reading", () => {
  it("advances words_read to the end of the script through invocations that overlap, in order, with nothing left queued", async () => {
    const id = await open();
    const t0 = Date.now();
    await send(id, { language: "en", script: LIVE_SCRIPT }, t0);
    const started = posted.get(id)?.find((m) => m.type === "session_started");
    const total = LIVE_SCRIPT.split(" ").length;
    expect(started).toEqual({ type: "session_started", session_started_event: { language: "en", words: total } });

    // Quarter-second chunks, stamped as arriving a little faster than real time; three
    // invocations at a time, as API Gateway may run them.
    const chunk = 4000;
    const events: WebSocketEvent[] = [];
    for (let i = 0, n = 0; i < reading.length; i += chunk, n++) {
      events.push(messageEvent(id, JSON.stringify({ user_audio_chunk: pcmBase64(reading.subarray(i, i + chunk)) }), t0 + (n * 250) / 1.25));
    }
    const started_at = Date.now();
    for (let i = 0; i < events.length; i += 3) await Promise.all(events.slice(i, i + 3).map((e) => handle(e)));
    const elapsed = Date.now() - started_at;

    const transcripts = (posted.get(id) ?? []).flatMap((m) => (m.type === "user_transcript" ? [m.user_transcription_event] : []));
    expect(transcripts.length).toBeGreaterThan(3);
    expect(transcripts.at(-1)!.words_read).toBeGreaterThanOrEqual(total - 2);
    for (let i = 0; i < transcripts.length; i++) {
      expect(LIVE_SCRIPT.startsWith(transcripts[i].user_transcript)).toBe(true);
      expect(transcripts[i].words_total).toBe(total);
      if (i > 0) expect(transcripts[i].words_read).toBeGreaterThan(transcripts[i - 1].words_read);
    }
    // A reading of more than ten seconds (by API Gateway's clock) got a ping.
    expect(codes(id)).toContain("ping");
    expect(codes(id).filter((c) => c !== "ping" && c !== "user_transcript")).toEqual(["session_started"]);

    // Every chunk was counted and followed, and its item removed; no lease is left behind.
    const item = await stack.ctx.stores.liveReadings.get(id);
    expect(item?.received).toBe(reading.length);
    expect(item?.seq).toBe(events.length);
    expect(item?.applied).toBe(events.length);
    expect(await queuedChunks(id)).toBe(0);
    expect(item?.lease).toBeUndefined();
    expect(item?.words).toBe(transcripts.at(-1)!.words_read);
    expect(item?.progress?.length).toBeLessThan(60_000);
    // $disconnect removes the session and the reference features.
    const prefix = referencePrefix(workspaceId, id);
    const objects = await stack.ctx.blobs.list(prefix);
    expect(objects).toHaveLength(1);
    const referenceBytes = (await stack.ctx.blobs.head(objects[0]))!.size;
    console.log(`live reading on AWS: ${events.length} chunks (${(reading.length / 16_000).toFixed(1)} s of audio) followed in ${elapsed} ms; progress ${item?.progress?.length} bytes, reference ${referenceBytes} bytes`);
    await disconnect(id);
    expect(await stack.ctx.stores.liveReadings.get(id)).toBeUndefined();
    expect(await stack.ctx.blobs.list(prefix)).toEqual([]);
  }, 180_000);

  it("queues chunks while another invocation holds the lease, takes over once that lease has run out, and skips a chunk that was numbered but never written", async () => {
    const id = await open();
    const t0 = Date.now();
    await send(id, { language: "en", script: "Hello there." }, t0);
    const store = stack.ctx.stores.liveReadings;
    // An invocation that took the lease and died.
    expect(await store.lease(id, "dead-invocation", Date.now(), Date.now() + LEASE_MS)).toBe(true);
    await send(id, { user_audio_chunk: pcmBase64(reading.subarray(0, 4000)) }, t0 + 100);
    let item = await store.get(id);
    expect([item!.seq, item!.applied, await queuedChunks(id)]).toEqual([1, 0, 1]);
    expect(item!.lease).toBe("dead-invocation");
    // Another invocation numbered a chunk and died before writing it.
    expect((await store.count(id, 4000, t0 + 200))?.seq).toBe(2);
    // The dead lease runs out: the next chunk's invocation follows the first, waits for the
    // second, skips it, and follows its own.
    await stack.ctx.stores.tables.ledger.update({ pk: `LIVE#${id}`, sk: "SESSION" }, { UpdateExpression: "SET lease_until = :past", ExpressionAttributeValues: { ":past": Date.now() - 1 } });
    const started = Date.now();
    await send(id, { user_audio_chunk: pcmBase64(reading.subarray(4000, 8000)) }, t0 + 350);
    expect(Date.now() - started).toBeGreaterThanOrEqual(MISSING_CHUNK_MS);
    item = await store.get(id);
    expect([item!.seq, item!.applied, await queuedChunks(id)]).toEqual([3, 3, 0]);
    expect(item!.lease).toBeUndefined();
    expect(item!.received).toBe(12_000);
    await disconnect(id);
    expect(await queuedChunks(id)).toBe(0);
  }, 60_000);
});

describe("live reading on AWS: the web app", () => {
  it("hands the recorder the websocket's URL from the configuration and lets its pages connect to that origin only", async () => {
    const url = "wss://abc123.execute-api.eu-west-1.amazonaws.com/live";
    const web = await startTestStack({ web: true, env: { LIVE_READING_URL: url } });
    try {
      const r = await fetch(new URL("/sign-in", web.url));
      expect(r.status).toBe(200);
      const policy = r.headers.get("content-security-policy") ?? "";
      expect(policy).toContain("connect-src 'self' wss://abc123.execute-api.eu-west-1.amazonaws.com;");
      // The root loader's data, serialised into the page for the recorder.
      expect(await r.text()).toContain(url);
    } finally {
      await web.close();
    }
  }, 60_000);
});
