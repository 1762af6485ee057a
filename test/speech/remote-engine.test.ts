/**
 * Remote engines (REMOTE_ENGINES, kind "openai") against a fake OpenAI-compatible speech server
 * this test starts on an ephemeral loopback port: its voices are listed, speak through convert and
 * stream, and each failure (slow first byte, 401, 429, garbage, a stream broken off) is a clear
 * 502/503/504 with the credits refunded and the key nowhere in what the caller sees.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import OpenAI from "openai";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { currentUsage } from "../../functions/platform/domain/credits.js";
import { remoteVoiceId } from "../../functions/handlers/seed/remote.js";
import { apiFetch, createTestAccount, startTestStack } from "../support/stack.js";

const KEY = "sk-remote-secret-4f9a1c";
const RATE = 24000;
let fake: Server;
let stack: EmbeddedStack;
const seen: Array<{ path: string; auth?: string; xi?: string; body: Record<string, unknown> }> = [];

function wav(seconds: number): { head: Buffer; data: Buffer } {
  const n = Math.round(seconds * RATE);
  const data = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++) data.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 220 * i) / RATE)), i * 2);
  const head = Buffer.alloc(44);
  head.write("RIFF", 0);
  head.writeUInt32LE(0xffffffff, 4); // streamed: sizes unknown, as streaming servers send them
  head.write("WAVE", 8);
  head.write("fmt ", 12);
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20);
  head.writeUInt16LE(1, 22);
  head.writeUInt32LE(RATE, 24);
  head.writeUInt32LE(RATE * 2, 28);
  head.writeUInt16LE(2, 32);
  head.writeUInt16LE(16, 34);
  head.write("data", 36);
  head.writeUInt32LE(0xffffffff, 40);
  return { head, data };
}

async function streamWav(res: ServerResponse, seconds: number, breakAfter?: number) {
  const { head, data } = wav(seconds);
  res.writeHead(200, { "content-type": "audio/wav" });
  res.write(head);
  const piece = 9600;
  for (let o = 0; o < data.length; o += piece) {
    if (breakAfter !== undefined && o >= breakAfter) {
      res.socket?.destroy();
      return;
    }
    res.write(data.subarray(o, o + piece));
    await new Promise((r) => setTimeout(r, 5));
  }
  res.end();
}

beforeAll(async () => {
  fake = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      seen.push({ path: req.url ?? "", auth: req.headers.authorization, xi: req.headers["xi-api-key"] as string | undefined, body });
      // An ElevenLabs-compatible server (kind "elevenlabs"): its key in xi-api-key, raw PCM at the rate asked for.
      if (req.url?.startsWith("/v1/voices") || req.url?.startsWith("/v1/text-to-speech/")) {
        if (req.headers["xi-api-key"] !== KEY) return void res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ detail: { status: "invalid_api_key", message: "Invalid API key" } }));
        if (req.url === "/v1/voices") {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify({ voices: [{ voice_id: "el-v1", name: "Rachel", category: "premade", labels: {} }, { voice_id: "el-mp3", name: "Mumbler" }] }));
          return;
        }
        const m = /^\/v1\/text-to-speech\/([^/?]+)\/stream\?output_format=pcm_(\d+)$/.exec(req.url);
        if (!m || req.method !== "POST") return void res.writeHead(404).end();
        if (m[1] === "el-mp3") return void res.writeHead(200, { "content-type": "audio/mpeg" }).end(Buffer.concat([Buffer.from("ID3"), Buffer.alloc(2000)]));
        const rate = Number(m[2]);
        const pcm = Buffer.alloc(rate * 2);
        for (let i = 0; i < rate; i++) pcm.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 300 * i) / rate)), i * 2);
        res.writeHead(200, { "content-type": "audio/pcm" });
        res.write(pcm.subarray(0, 10001)); // a piece ending mid-sample
        setTimeout(() => res.end(pcm.subarray(10001)), 20);
        return;
      }
      if (req.url === "/v1/audio/voices") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ voices: [{ id: "alloy" }, { id: "slow" }, { id: "locked" }, { id: "busy" }, { id: "garbage" }, { id: "broken" }] }));
        return;
      }
      if (req.url !== "/v1/audio/speech" || req.method !== "POST") return void res.writeHead(404).end();
      const voice = body.voice;
      if (voice === "alloy") void streamWav(res, 1);
      else if (voice === "slow") setTimeout(() => void streamWav(res, 1).catch(() => undefined), 4000);
      else if (voice === "locked") res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: `invalid key ${req.headers.authorization}` }));
      else if (voice === "busy") res.writeHead(429, { "content-type": "application/json" }).end(JSON.stringify({ error: "rate limited" }));
      else if (voice === "garbage") res.writeHead(200, { "content-type": "audio/wav" }).end(Buffer.from("<html>this is no audio at all, just a proxy page</html>"));
      else if (voice === "broken") void streamWav(res, 2, 30000);
      else res.writeHead(400).end();
    });
  });
  await new Promise<void>((r) => fake.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  stack = await startTestStack({
    env: {
      // The fake server is on loopback: allowed as for a webhook receiver on this machine.
      WEBHOOK_ALLOW_LOCAL_TARGETS: "true",
      REMOTE_ENGINES: JSON.stringify([
        { id: "fake", kind: "openai", url, key: KEY, model: "kokoro", firstByteTimeoutMs: 1500, breakerFailures: 100 },
        // The same server under another name, whose breaker opens after two failures.
        { id: "flaky", kind: "openai", url, key: KEY, breakerFailures: 2, breakerCooldownMs: 600_000 },
        { id: "eleven", kind: "elevenlabs", url: `${url}/v1`, key: KEY },
      ]),
    },
  });
}, 120_000);

afterAll(async () => {
  await stack?.close();
  fake?.closeAllConnections();
  await new Promise((r) => fake?.close(r));
});

const used = async (ws: string) => (await currentUsage(stack.ctx, ws)).character_count;
const say = (apiKey: string, voice: string, stream = false, format = "pcm_16000", volume?: number, engine = "fake") =>
  apiFetch(stack, apiKey, `/v1/text-to-speech/${remoteVoiceId(engine, voice)}${stream ? "/stream" : ""}?output_format=${format}`, {
    method: "POST",
    body: JSON.stringify({ text: `Hello from the remote engine, voice ${voice}.`, model_id: "eleven_multilingual_v2", ...(volume === undefined ? {} : { voice_settings: { volume } }) }),
  });

describe("remote engine (OpenAI-compatible)", () => {
  it("lists the server's voices with the engine named, and never the key", async () => {
    const { apiKey } = await createTestAccount(stack);
    const res = await apiFetch(stack, apiKey, "/v1/voices");
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).not.toContain(KEY);
    const voices = (JSON.parse(text) as { voices: Array<{ voice_id: string; name: string; labels: Record<string, string> }> }).voices;
    const alloy = voices.find((v) => v.voice_id === remoteVoiceId("fake", "alloy"));
    expect(alloy?.labels).toMatchObject({ engine: "remote", remote_engine: "fake" });
    expect(alloy?.name).toContain("fake");
    expect(voices.filter((v) => v.labels.remote_engine === "fake")).toHaveLength(6);
    expect(seen.find((s) => s.path === "/v1/audio/voices")?.auth).toBe(`Bearer ${KEY}`);
  });

  it("speaks through convert: the server's 24 kHz WAV resampled to the format asked, charged", async () => {
    const { apiKey, workspace } = await createTestAccount(stack);
    const before = await used(workspace.workspace_id);
    const res = await say(apiKey, "alloy");
    expect(res.status).toBe(200);
    const pcm = new Int16Array((await res.arrayBuffer()).slice(0));
    // One second at 24 kHz becomes about one second at 16 kHz (the resampler's edges aside).
    expect(pcm.length).toBeGreaterThan(15_000);
    expect(pcm.length).toBeLessThan(17_000);
    expect(Math.max(...pcm.subarray(4000, 8000))).toBeGreaterThan(3000);
    expect(await used(workspace.workspace_id)).toBeGreaterThan(before);
    const call = seen.findLast((s) => s.path === "/v1/audio/speech")!;
    expect(call.auth).toBe(`Bearer ${KEY}`);
    expect(call.body).toMatchObject({ model: "kokoro", voice: "alloy", response_format: "wav" });
    expect(String(call.body.input)).toContain("Hello from the remote engine");
  });

  it("applies voice_settings.volume to the remote audio as the embedded engines do", async () => {
    const { apiKey } = await createTestAccount(stack);
    const rms = async (volume?: number) => {
      const res = await say(apiKey, "alloy", false, "pcm_16000", volume);
      expect(res.status).toBe(200);
      const pcm = new Int16Array((await res.arrayBuffer()).slice(0));
      return Math.sqrt(pcm.reduce((a, v) => a + v * v, 0) / pcm.length);
    };
    const ratio = (await rms(-6)) / (await rms());
    expect(ratio).toBeGreaterThan(0.48);
    expect(ratio).toBeLessThan(0.52);
  });

  it("speaks through stream as MP3", async () => {
    const { apiKey } = await createTestAccount(stack);
    const res = await say(apiKey, "alloy", true, "mp3_44100_128");
    expect(res.status).toBe(200);
    const mp3 = new Uint8Array(await res.arrayBuffer());
    expect(mp3.length).toBeGreaterThan(8000);
    expect(mp3[0] === 0xff || String.fromCharCode(...mp3.subarray(0, 3)) === "ID3").toBe(true);
  });

  const failures: Array<[string, number, string]> = [
    ["slow", 504, "remote_engine_timeout"],
    ["locked", 502, "remote_engine_unauthorized"],
    ["busy", 503, "remote_engine_busy"],
    ["garbage", 502, "remote_engine_bad_audio"],
    ["broken", 502, "remote_engine_failed"],
  ];
  for (const [voice, status, code] of failures) {
    it(`${voice}: ${status} ${code}, refunded, no key in the answer`, async () => {
      const { apiKey, workspace } = await createTestAccount(stack);
      const before = await used(workspace.workspace_id);
      const res = await say(apiKey, voice);
      const text = await res.text();
      expect(res.status).toBe(status);
      expect(JSON.parse(text)).toMatchObject({ detail: { status: code, message: expect.stringContaining("fake") } });
      expect(text).not.toContain(KEY);
      expect(await used(workspace.workspace_id)).toBe(before);
    });
  }

  it("a stream broken off mid-way ends the response early and is refunded", async () => {
    const { apiKey, workspace } = await createTestAccount(stack);
    const before = await used(workspace.workspace_id);
    const res = await say(apiKey, "broken", true);
    // The first audio may already be on its way (200) when the server breaks off: the body then ends
    // short of the two seconds the server meant to send (16 kHz PCM: 64000 bytes).
    if (res.status === 200) expect((await res.arrayBuffer().catch(() => new ArrayBuffer(0))).byteLength).toBeLessThan(64_000);
    else expect(res.status).toBe(502);
    await expect.poll(() => used(workspace.workspace_id)).toBe(before);
  });

  it("the circuit breaker opens after failures in a row: 503 with Retry-After, refunded, the server not asked; /v1/engines shows it", async () => {
    const { apiKey, workspace } = await createTestAccount(stack);
    const before = await used(workspace.workspace_id);
    for (let i = 0; i < 2; i++) expect((await say(apiKey, "busy", false, "pcm_16000", undefined, "flaky")).status).toBe(503);
    const asked = seen.length;
    const res = await say(apiKey, "alloy", false, "pcm_16000", undefined, "flaky");
    const text = await res.text();
    expect(res.status).toBe(503);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(JSON.parse(text)).toMatchObject({ detail: { status: "remote_engine_unavailable", message: expect.stringContaining("flaky") } });
    expect(seen.length).toBe(asked);
    expect(await used(workspace.workspace_id)).toBe(before);
    // The other engine on the same server is not affected.
    expect((await say(apiKey, "alloy")).status).toBe(200);

    const health = await apiFetch(stack, apiKey, "/v1/engines");
    const body = await health.text();
    expect(health.status).toBe(200);
    expect(body).not.toContain(KEY);
    expect(body).not.toContain("127.0.0.1");
    const engines = (JSON.parse(body) as { engines: Array<Record<string, unknown>> }).engines;
    expect(engines.find((e) => e.id === "flaky")).toMatchObject({ kind: "openai", state: "open", consecutive_failures: 2, last_error: "remote_engine_busy" });
    expect(engines.find((e) => e.id === "fake")).toMatchObject({ state: "ok", consecutive_failures: 0 });

    const probed = await apiFetch(stack, apiKey, "/v1/engines?probe=true");
    expect(probed.status).toBe(200);
    const probes = (await probed.json()) as { engines: Array<{ id: string; probe: unknown }> };
    expect(Object.fromEntries(probes.engines.map((e) => [e.id, e.probe]))).toEqual({
      fake: { ok: true, status: 200, error: null },
      flaky: { ok: true, status: 200, error: null },
      eleven: { ok: true, status: 200, error: null },
    });
    expect(await apiFetch(stack, undefined, "/v1/engines").then((r) => r.status)).toBe(401);
  });
});

describe("remote engine (ElevenLabs-compatible)", () => {
  it("lists the server's voices by their names, asked with xi-api-key", async () => {
    const { apiKey } = await createTestAccount(stack);
    const voices = ((await (await apiFetch(stack, apiKey, "/v1/voices")).json()) as { voices: Array<{ voice_id: string; name: string; labels: Record<string, string>; description: string }> }).voices;
    const rachel = voices.find((v) => v.voice_id === remoteVoiceId("eleven", "el-v1"));
    expect(rachel).toMatchObject({ name: "Rachel (eleven)", labels: { engine: "remote", remote_engine: "eleven" } });
    expect(rachel?.description).toContain("ElevenLabs-compatible");
    expect(voices.filter((v) => v.labels.remote_engine === "eleven")).toHaveLength(2);
    const listed = seen.find((s) => s.path === "/v1/voices")!;
    expect(listed).toMatchObject({ xi: KEY, auth: undefined });
  });

  it("speaks through convert: /stream asked for raw PCM, the settings passed on, charged", async () => {
    const { apiKey, workspace } = await createTestAccount(stack);
    const before = await used(workspace.workspace_id);
    const res = await apiFetch(stack, apiKey, `/v1/text-to-speech/${remoteVoiceId("eleven", "el-v1")}?output_format=pcm_16000`, {
      method: "POST",
      body: JSON.stringify({ text: "Hello through another server.", voice_settings: { stability: 0.3, similarity_boost: 0.9, speed: 1.1, volume: -6 } }),
    });
    expect(res.status).toBe(200);
    const pcm = new Int16Array((await res.arrayBuffer()).slice(0));
    // One second of the server's audio at 16 kHz.
    expect(pcm.length).toBeGreaterThan(15_000);
    expect(pcm.length).toBeLessThan(17_000);
    // 8000 at -6 dB.
    expect(Math.max(...pcm.subarray(4000, 8000))).toBeGreaterThan(3500);
    expect(Math.max(...pcm.subarray(4000, 8000))).toBeLessThan(4500);
    expect(await used(workspace.workspace_id)).toBeGreaterThan(before);
    const call = seen.findLast((s) => s.path.startsWith("/v1/text-to-speech/el-v1"))!;
    expect(call.path).toBe("/v1/text-to-speech/el-v1/stream?output_format=pcm_22050");
    expect(call).toMatchObject({ xi: KEY, auth: undefined });
    expect(call.body).toMatchObject({ text: expect.stringContaining("another server"), model_id: "eleven_multilingual_v2", voice_settings: { stability: 0.3, similarity_boost: 0.9, speed: 1.1 } });
    expect(call.body.voice_settings).not.toHaveProperty("volume");
  });

  it("an answer that is no raw PCM (an MP3 file) is a 502 remote_engine_bad_audio, refunded", async () => {
    const { apiKey, workspace } = await createTestAccount(stack);
    const before = await used(workspace.workspace_id);
    const res = await apiFetch(stack, apiKey, `/v1/text-to-speech/${remoteVoiceId("eleven", "el-mp3")}`, { method: "POST", body: JSON.stringify({ text: "Hello." }) });
    const text = await res.text();
    expect(res.status).toBe(502);
    expect(JSON.parse(text)).toMatchObject({ detail: { status: "remote_engine_bad_audio", message: expect.stringContaining("MP3") } });
    expect(text).not.toContain(KEY);
    expect(await used(workspace.workspace_id)).toBe(before);
  });
});

describe("remote voices through /openai/v1 (the openai package, unchanged)", () => {
  const client = (apiKey: string) => new OpenAI({ apiKey, baseURL: `${stack.url}/openai/v1`, maxRetries: 0 });

  it("lists remote voices and speaks one by id and by name: charged, in the history", async () => {
    const { apiKey, workspace } = await createTestAccount(stack);
    const openai = client(apiKey);
    const listed = (await (await apiFetch(stack, undefined, "/openai/v1/audio/voices", { headers: { authorization: `Bearer ${apiKey}` } })).json()) as { voices: Array<{ id: string; name: string }> };
    expect(listed.voices).toContainEqual(expect.objectContaining({ id: remoteVoiceId("fake", "alloy"), name: "alloy (fake)" }));
    expect(listed.voices).toContainEqual(expect.objectContaining({ id: remoteVoiceId("eleven", "el-v1"), name: "Rachel (eleven)" }));

    const before = await used(workspace.workspace_id);
    const byId = await openai.audio.speech.create({ model: "tts-1", voice: remoteVoiceId("fake", "alloy"), input: "Spoken by the remote server through OpenAI's API.", response_format: "pcm" });
    const pcm = new Int16Array((await byId.arrayBuffer()).slice(0));
    // One second of the fake's 24 kHz audio, as OpenAI's pcm (24 kHz) after the product's 22.05 kHz.
    expect(pcm.length).toBeGreaterThan(22_000);
    expect(pcm.length).toBeLessThan(26_000);
    expect(Math.max(...pcm.subarray(4000, 8000))).toBeGreaterThan(3000);
    const call = seen.findLast((x) => x.path === "/v1/audio/speech")!;
    expect(call.body).toMatchObject({ voice: "alloy", input: "Spoken by the remote server through OpenAI's API." });
    expect(await used(workspace.workspace_id)).toBeGreaterThan(before);

    const byName = await openai.audio.speech.create({ model: "tts-1", voice: "Rachel (eleven)", input: "And by name, on the other kind.", response_format: "mp3" });
    const mp3 = new Uint8Array(await byName.arrayBuffer());
    expect(mp3.length).toBeGreaterThan(4000);
    expect(seen.findLast((x) => x.path.startsWith("/v1/text-to-speech/"))?.body).toMatchObject({ text: "And by name, on the other kind." });

    const history = (await (await apiFetch(stack, apiKey, "/v1/history")).json()) as { history: Array<{ voice_id: string; text: string }> };
    expect(history.history.map((h) => h.voice_id)).toEqual(expect.arrayContaining([remoteVoiceId("fake", "alloy"), remoteVoiceId("eleven", "el-v1")]));
  });

  it("a remote failure is OpenAI's error shape with Timbre's code, refunded; remote voices do not blend", async () => {
    const { apiKey, workspace } = await createTestAccount(stack);
    const before = await used(workspace.workspace_id);
    const res = await apiFetch(stack, undefined, "/openai/v1/audio/speech", {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({ model: "tts-1", voice: remoteVoiceId("fake", "locked"), input: "This one fails.", response_format: "mp3" }),
    });
    const text = await res.text();
    expect(res.status).toBe(502);
    expect(JSON.parse(text)).toMatchObject({ error: { type: "server_error", code: "remote_engine_unauthorized", message: expect.stringContaining("fake") } });
    expect(text).not.toContain(KEY);
    expect(await used(workspace.workspace_id)).toBe(before);

    const blend = await client(apiKey)
      .audio.speech.create({ model: "tts-1", voice: `${remoteVoiceId("fake", "alloy")}(2)+${remoteVoiceId("fake", "busy")}(1)`, input: "Blend." })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(blend).toBeInstanceOf(OpenAI.APIError);
    expect(blend).toMatchObject({ status: 400, code: "voice_blend_mismatch" });
  });
});

