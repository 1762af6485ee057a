import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEY, startServer, type Server } from "../../scripts/lib/bench-server.js";
import { remoteVoiceId } from "../../functions/handlers/seed/remote.js";

/**
 * Issue 25 "Done when": a remote engine configured in settings speaks through the product, on the
 * server exactly as `npm start` runs it (the bundle), against a fake OpenAI-compatible speech
 * server this test starts (the real ones cannot run here). Its key is sent to the server and is
 * in no answer and no log line; a loopback URL without the operator's setting stops the start.
 */
const KEY = "sk-product-remote-key-5d1e";
const RATE = 24000;
let fake: HttpServer;
let fakeUrl: string;
let dataDir: string;
let server: Server;
const asked: Array<{ path: string; auth?: string; body: string }> = [];

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
  for (let i = 0; i < n; i++) b.writeInt16LE(Math.round(7000 * Math.sin((2 * Math.PI * 180 * i) / RATE)), 44 + i * 2);
  return b;
}

beforeAll(async () => {
  fake = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("latin1")));
    req.on("end", () => {
      asked.push({ path: req.url ?? "", auth: req.headers.authorization, body });
      if (req.url === "/v1/audio/voices") return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ voices: ["af_bella", "am_adam"] }));
      if (req.url === "/v1/audio/speech" && req.method === "POST") return void res.writeHead(200, { "content-type": "audio/wav" }).end(wav(1.5));
      // The same server in ElevenLabs' shape: its voices and speech to speech (raw PCM at 22050 Hz, as asked).
      if (req.url === "/v1/voices") return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ voices: [{ voice_id: "EXAVITQu4vr4xnSDxMaL", name: "Sarah" }] }));
      if (req.url?.startsWith("/v1/speech-to-speech/") && req.method === "POST") return void res.writeHead(200, { "content-type": "audio/pcm" }).end(wav(1).subarray(44));
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => fake.listen(0, "127.0.0.1", r));
  fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  dataDir = mkdtempSync(join(tmpdir(), "timbre-remote-product-"));
  ({ server } = await startServer(dataDir, {
    LOG_LEVEL: "info",
    WEBHOOK_ALLOW_LOCAL_TARGETS: "true",
    REMOTE_ENGINES: JSON.stringify([{ id: "kokoro", kind: "openai", url: fakeUrl, key: KEY, model: "kokoro" }]),
  }));
}, 240_000);

afterAll(async () => {
  await server?.stop();
  fake?.closeAllConnections();
  await new Promise((r) => fake?.close(r));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("a remote engine under npm start", () => {
  it("its voices are listed and speak through convert; the key is in no answer and no log", async () => {
    const id = remoteVoiceId("kokoro", "af_bella");
    const listRes = await fetch(`${server.url}/v1/voices`, { headers: { "xi-api-key": DEMO_KEY } });
    const listText = await listRes.text();
    expect(listText).not.toContain(KEY);
    const list = JSON.parse(listText) as { voices: Array<{ voice_id: string; name: string; labels: Record<string, string> }> };
    expect(list.voices.find((v) => v.voice_id === id)).toMatchObject({ name: "af_bella (kokoro)", labels: { engine: "remote", remote_engine: "kokoro" } });

    const res = await fetch(`${server.url}/v1/text-to-speech/${id}?output_format=mp3_44100_128`, {
      method: "POST",
      headers: { "xi-api-key": DEMO_KEY, "content-type": "application/json" },
      body: JSON.stringify({ text: "A remote voice speaks through the bundled server.", model_id: "eleven_multilingual_v2" }),
    });
    expect(res.status).toBe(200);
    const mp3 = Buffer.from(await res.arrayBuffer());
    expect(mp3.length).toBeGreaterThan(8000);
    expect(mp3.subarray(0, 3).toString("latin1") === "ID3" || (mp3[0] === 0xff && (mp3[1] & 0xe0) === 0xe0)).toBe(true);
    const call = asked.findLast((a) => a.path === "/v1/audio/speech")!;
    expect(call.auth).toBe(`Bearer ${KEY}`);
    expect(JSON.parse(call.body)).toMatchObject({ model: "kokoro", voice: "af_bella", input: "A remote voice speaks through the bundled server." });

    const engines = await (await fetch(`${server.url}/v1/engines`, { headers: { "xi-api-key": DEMO_KEY } })).json();
    expect(engines).toEqual({ engines: [expect.objectContaining({ id: "kokoro", kind: "openai", state: "ok", last_error: null })] });
    expect(server.output()).toContain("remote engines");
    expect(server.output()).not.toContain(KEY);
  });

  it("an engine the workspace admin adds in settings (/v1/workspace/engines) speaks through the bundled server; removing it removes its voices", async () => {
    const h = { "xi-api-key": DEMO_KEY, "content-type": "application/json" };
    const added = await fetch(`${server.url}/v1/workspace/engines`, { method: "POST", headers: h, body: JSON.stringify({ engine_id: "mine", kind: "openai", url: fakeUrl, key: KEY, model: "kokoro" }) });
    const addedText = await added.text();
    expect(added.status, addedText).toBe(201);
    expect(addedText).not.toContain(KEY);
    const voices = ((await (await fetch(`${server.url}/v1/voices`, { headers: h })).json()) as { voices: Array<{ voice_id: string; name: string }> }).voices;
    const adam = voices.find((v) => v.name === "am_adam (mine)")!;
    expect(adam).toBeDefined();
    const res = await fetch(`${server.url}/v1/text-to-speech/${adam.voice_id}/stream?output_format=mp3_44100_128`, {
      method: "POST",
      headers: h,
      body: JSON.stringify({ text: "A workspace engine speaks through the bundled server.", model_id: "eleven_multilingual_v2" }),
    });
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(8000);
    expect(JSON.parse(asked.findLast((a) => a.path === "/v1/audio/speech")!.body)).toMatchObject({ voice: "am_adam", input: "A workspace engine speaks through the bundled server." });
    expect((await fetch(`${server.url}/v1/workspace/engines/mine`, { method: "DELETE", headers: h })).status).toBe(200);
    const after = ((await (await fetch(`${server.url}/v1/voices`, { headers: h })).json()) as { voices: Array<{ voice_id: string }> }).voices;
    expect(after.map((v) => v.voice_id)).not.toContain(adam.voice_id);
    expect(server.output()).not.toContain(KEY);
  });

  it("a workspace engine's voice previews through the engine (once), and an ElevenLabs-compatible one converts speech to speech, charged", async () => {
    const h = { "xi-api-key": DEMO_KEY, "content-type": "application/json" };
    for (const body of [{ engine_id: "prev", kind: "openai", url: fakeUrl, key: KEY }, { engine_id: "conv", kind: "elevenlabs", url: fakeUrl, key: KEY }]) {
      const r = await fetch(`${server.url}/v1/workspace/engines`, { method: "POST", headers: h, body: JSON.stringify(body) });
      expect(r.status, await r.clone().text()).toBe(201);
    }
    const voices = ((await (await fetch(`${server.url}/v1/voices`, { headers: h })).json()) as { voices: Array<{ voice_id: string; name: string; preview_url: string | null }> }).voices;
    const bella = voices.find((v) => v.name === "af_bella (prev)")!;
    expect(bella.preview_url).toBe(`${server.url}/v1/voices/${bella.voice_id}/preview`);
    const speech = () => asked.filter((a) => a.path === "/v1/audio/speech").length;
    const n = speech();
    for (let i = 0; i < 2; i++) {
      const p = await fetch(bella.preview_url!, { headers: { "xi-api-key": DEMO_KEY } });
      expect(p.status).toBe(200);
      expect(p.headers.get("content-type")).toBe("audio/mpeg");
      expect((await p.arrayBuffer()).byteLength).toBeGreaterThan(4000);
    }
    expect(speech()).toBe(n + 1);

    const sarah = voices.find((v) => v.name === "Sarah (conv)")!;
    const form = new FormData();
    form.append("audio", new Blob([new Uint8Array(wav(2))], { type: "audio/wav" }), "input.wav");
    const res = await fetch(`${server.url}/v1/speech-to-speech/${sarah.voice_id}?output_format=mp3_44100_128`, { method: "POST", headers: { "xi-api-key": DEMO_KEY }, body: form });
    expect(res.status, res.ok ? "" : await res.clone().text()).toBe(200);
    expect(Number(res.headers.get("character-cost"))).toBeGreaterThan(0);
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(4000);
    const call = asked.findLast((a) => a.path.startsWith("/v1/speech-to-speech/"))!;
    expect(call.path).toBe("/v1/speech-to-speech/EXAVITQu4vr4xnSDxMaL/stream?output_format=pcm_22050");
    expect(call.body).toContain(wav(2).toString("latin1"));
    for (const id of ["prev", "conv"]) expect((await fetch(`${server.url}/v1/workspace/engines/${id}`, { method: "DELETE", headers: h })).status).toBe(200);
    expect(server.output()).not.toContain(KEY);
  }, 120_000);

  it("a loopback engine URL without WEBHOOK_ALLOW_LOCAL_TARGETS stops the start, naming the engine", async () => {
    const dir = mkdtempSync(join(tmpdir(), "timbre-remote-refused-"));
    try {
      const started = await startServer(dir, { REMOTE_ENGINES: JSON.stringify([{ id: "kokoro", url: fakeUrl, key: KEY }]) }).then(
        (s) => s.server,
        (e: unknown) => e as Error,
      );
      if (!(started instanceof Error)) await started.stop();
      expect(started).toBeInstanceOf(Error);
      expect((started as Error).message).toMatch(/the engine "kokoro" points to a loopback address/);
      expect((started as Error).message).not.toContain(KEY);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
