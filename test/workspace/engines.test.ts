/**
 * A workspace's own remote engines (issue 25 §3): administrators add, list, probe and remove them;
 * the key is stored sealed and only a masked hint comes back (never in a log line either); the URL
 * is checked at save like a webhook target; members are refused and another workspace sees none
 * of them. Their voices speak through the product like any other (charged, in history, refunded
 * on failure, behind the breaker), against fake servers this file starts: an OpenAI-compatible
 * one, an ElevenLabs-compatible one that answers only MP3, and an XTTS one that checks it got the
 * clone's reference audio.
 */
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { ASSISTANT, type AssistantServerMessage } from "../../functions/platform/contract/assistant.js";
import { createLogger } from "../../functions/platform/adapters/log.js";
import { wavHeader as pcmWavHeader } from "../../functions/media/audio/wav.js";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { WorkspaceEngines } from "../../functions/platform/stores/workspaceEngines.js";
import { MAX_WORKSPACE_ENGINES } from "../../functions/capabilities/engines/manage.js";
import { apiFetch, insertOwnVoice, startTestStack } from "../support/stack.js";
import { adminOf, joinAsMember } from "./support.js";

const KEY = "sk-workspace-engine-secret-9f3b";
let stack: EmbeddedStack;
/** Every log line the stack writes (debug and up): the key must be in none. */
const logLines: string[] = [];

const RATE = 24000;
/** A 16-bit mono WAV header at RATE (dataBytes 0: as a streaming server sends it). */
const wavHeader = (dataBytes: number) => Buffer.from(pcmWavHeader(RATE, dataBytes));
function tone(seconds: number, hz = 180): Buffer {
  const n = Math.round(seconds * RATE);
  const b = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++) b.writeInt16LE(Math.round(7000 * Math.sin((2 * Math.PI * hz * i) / RATE)), i * 2);
  return b;
}
const wav = (seconds: number) => Buffer.concat([wavHeader(seconds * RATE * 2), tone(seconds)]);

interface Asked {
  server: string;
  method: string;
  path: string;
  auth?: string;
  xi?: string;
  type?: string;
  body: Buffer;
}
const asked: Asked[] = [];
/** What the OpenAI-compatible fake does with speech: answer, fail (500) or answer MP3. */
let openaiMode: "ok" | "fail" = "ok";
const fakes: HttpServer[] = [];

async function fake(name: string, handle: (req: IncomingMessage, body: Buffer, res: ServerResponse) => void): Promise<string> {
  const srv = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => {
      const body = Buffer.concat(parts);
      asked.push({ server: name, method: req.method ?? "", path: req.url ?? "", auth: req.headers.authorization, xi: req.headers["xi-api-key"] as string | undefined, type: req.headers["content-type"], body });
      handle(req, body, res);
    });
  });
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  fakes.push(srv);
  return `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
}

/** The reference clip the XTTS fake must receive, byte for byte. */
const REFERENCE = wav(2);
let openaiUrl: string;
let mp3Url: string;
let xttsUrl: string;
let slowUrl: string;
let elevenUrl: string;
/** What the ElevenLabs-compatible fake does with speech to speech: answer PCM, or fail (500). */
let elevenMode: "ok" | "fail" = "ok";
/** How long the slow fake waits before its first byte of speech (ms). */
let slowDelayMs = 2500;

beforeAll(async () => {
  // Loopback allowed as for a webhook receiver on this machine; private networks are not.
  stack = await startTestStack({ env: { WEBHOOK_ALLOW_LOCAL_TARGETS: "true" }, log: createLogger("debug", {}, (l) => logLines.push(l)) });
  openaiUrl = await fake("openai", (req, body, res) => {
    if (req.url === "/v1/audio/voices") return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ voices: ["af_bella", "am_adam"] }));
    if (req.url === "/v1/audio/speech" && req.method === "POST") {
      if (openaiMode === "fail") return void res.writeHead(500, { "content-type": "text/plain" }).end(`model crashed (${KEY})`);
      return void res.writeHead(200, { "content-type": "audio/wav" }).end(wav(1));
    }
    res.writeHead(404).end();
  });
  mp3Url = await fake("mp3", (req, _body, res) => {
    if (req.url === "/v1/voices") return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ voices: [{ voice_id: "JBFqnCBsd6RMkjVDRZzb", name: "George" }] }));
    // The hosted API's default: MP3 whatever was asked.
    if (req.url?.startsWith("/v1/text-to-speech/")) return void res.writeHead(200, { "content-type": "audio/mpeg" }).end(Buffer.concat([Buffer.from("ID3\x04\x00\x00\x00\x00\x00\x00", "latin1"), Buffer.alloc(4000, 0x55)]));
    res.writeHead(404).end();
  });
  xttsUrl = await fake("xtts", (req, body, res) => {
    if (req.url === "/languages") return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(["en", "de"]));
    if (req.url === "/clone_speaker" && req.method === "POST") {
      // Multipart: the field wav_file holding the reference, byte for byte.
      const ok = /multipart\/form-data; boundary=/.test(String(req.headers["content-type"])) && body.includes(Buffer.from('name="wav_file"')) && body.includes(REFERENCE);
      if (!ok) return void res.writeHead(422, { "content-type": "application/json" }).end(JSON.stringify({ detail: "wav_file missing" }));
      return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ gpt_cond_latent: [[0.1, 0.2], [0.3, 0.4]], speaker_embedding: [0.5, 0.6, 0.7] }));
    }
    if (req.url === "/tts_stream" && req.method === "POST") {
      const b = JSON.parse(body.toString()) as { speaker_embedding?: number[]; gpt_cond_latent?: number[][]; language?: string; text?: string };
      if (JSON.stringify(b.speaker_embedding) !== "[0.5,0.6,0.7]" || b.gpt_cond_latent?.length !== 2) return void res.writeHead(422).end("no conditioning");
      // As the XTTS streaming server sends it: a WAV header claiming no data, then the samples.
      res.writeHead(200, { "content-type": "audio/wav" });
      res.write(wavHeader(0));
      res.write(tone(0.5));
      return void setTimeout(() => res.end(tone(0.5)), 20);
    }
    res.writeHead(404).end();
  });
  elevenUrl = await fake("eleven", (req, _body, res) => {
    if (req.url === "/v1/voices") return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ voices: [{ voice_id: "EXAVITQu4vr4xnSDxMaL", name: "Sarah" }] }));
    if (req.url?.startsWith("/v1/speech-to-speech/") && req.method === "POST") {
      if (elevenMode === "fail") return void res.writeHead(500, { "content-type": "text/plain" }).end(`conversion crashed (${KEY})`);
      // Raw 16-bit mono PCM at the rate asked for (pcm_22050), in two parts.
      const pcm = Buffer.alloc(22050 * 2);
      for (let i = 0; i < 22050; i++) pcm.writeInt16LE(Math.round(6000 * Math.sin((2 * Math.PI * 220 * i) / 22050)), i * 2);
      res.writeHead(200, { "content-type": "audio/pcm" });
      res.write(pcm.subarray(0, 20000));
      return void setTimeout(() => res.end(pcm.subarray(20000)), 20);
    }
    res.writeHead(404).end();
  });
  slowUrl = await fake("slow", (req, _body, res) => {
    if (req.url === "/v1/audio/voices") return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ voices: ["slowpoke"] }));
    if (req.url === "/v1/audio/speech" && req.method === "POST") {
      // Nothing at all (no headers either) until the delay: a model still loading.
      const t = setTimeout(() => res.writeHead(200, { "content-type": "audio/wav" }).end(wav(1)), slowDelayMs);
      res.on("close", () => clearTimeout(t));
      return;
    }
    res.writeHead(404).end();
  });
}, 120_000);

afterAll(async () => {
  await stack?.close();
  for (const f of fakes) {
    f.closeAllConnections();
    await new Promise((r) => f.close(r));
  }
});

const add = (apiKey: string, body: Record<string, unknown>) => apiFetch(stack, apiKey, "/v1/workspace/engines", { method: "POST", body: JSON.stringify(body) });

describe("workspace remote engines", () => {
  it("an admin adds one: the key is sealed in the store and only a hint is ever returned", async () => {
    const admin = await adminOf(stack);
    const res = await add(admin.apiKey, { engine_id: "kokoro", kind: "openai", url: "http://127.0.0.1:8880/v1", key: KEY, model: "kokoro" });
    const text = await res.text();
    expect(res.status).toBe(201);
    expect(text).not.toContain(KEY);
    expect(JSON.parse(text)).toEqual({ engine_id: "kokoro", kind: "openai", url: "http://127.0.0.1:8880", model: "kokoro", language: "en", key_hint: "••••9f3b", first_byte_timeout_s: 15, total_timeout_s: 120, created_at_unix: expect.any(Number), voice_ids: [], voices_error: "The voices of kokoro could not be listed: it could not be reached." });

    const list = await apiFetch(stack, admin.apiKey, "/v1/workspace/engines");
    const listText = await list.text();
    expect(list.status).toBe(200);
    expect(listText).not.toContain(KEY);
    expect((JSON.parse(listText) as { engines: Array<{ engine_id: string }> }).engines.map((e) => e.engine_id)).toEqual(["kokoro"]);

    const stored = await new WorkspaceEngines(stack.ctx.stores.tables.main).get(admin.workspace.workspace_id, "kokoro");
    expect(stored?.key_enc).toBeTruthy();
    expect(JSON.stringify(stored)).not.toContain(KEY);

    expect((await add(admin.apiKey, { engine_id: "kokoro", url: "http://127.0.0.1:9999" })).status).toBe(409);
  });

  it("refuses private and link-local URLs at save, naming the engine, and malformed entries with their reason", async () => {
    const admin = await adminOf(stack);
    for (const url of ["http://10.0.0.8:8880", "http://169.254.169.254/", "http://[::ffff:192.168.1.2]/", "http://[fd00::1]:80"]) {
      const res = await add(admin.apiKey, { engine_id: "inside", url, key: KEY });
      const body = (await res.json()) as { detail: { status: string; message: string } };
      expect(res.status).toBe(400);
      expect(body.detail).toMatchObject({ status: "engine_target_not_allowed", message: expect.stringContaining('"inside"') });
      expect(body.detail.message).toContain("WEBHOOK_ALLOW_PRIVATE");
    }
    const bad = async (body: Record<string, unknown>, pattern: RegExp) => {
      const res = await add(admin.apiKey, body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { detail: { status: string; message: string } }).detail).toMatchObject({ status: "invalid_engine", message: expect.stringMatching(pattern) });
    };
    await bad({ engine_id: "Has Spaces", url: "http://127.0.0.1:1" }, /^id must be/);
    await bad({ engine_id: "creds", url: "http://user:pw@127.0.0.1:1" }, /^url must not carry credentials/);
    await bad({ engine_id: "ftp", url: "ftp://127.0.0.1/" }, /^url must be http or https/);
    await bad({ engine_id: "nowhere", url: "http://no-such-host.invalid/" }, /does not resolve/);
    expect((await add(admin.apiKey, { engine_id: "kind", kind: "sapi", url: "http://127.0.0.1:1" })).status).toBe(422);
    expect(((await (await apiFetch(stack, admin.apiKey, "/v1/workspace/engines")).json()) as { engines: unknown[] }).engines).toEqual([]);
  });

  it("members are refused; another workspace neither sees nor removes them; the admin removes one", async () => {
    const admin = await adminOf(stack);
    expect((await add(admin.apiKey, { engine_id: "mine", url: "http://127.0.0.1:8880", key: KEY })).status).toBe(201);
    const member = await joinAsMember(stack, admin);
    expect((await apiFetch(stack, member.apiKey, "/v1/workspace/engines")).status).toBe(403);
    expect((await add(member.apiKey, { engine_id: "theirs", url: "http://127.0.0.1:8880" })).status).toBe(403);
    expect((await apiFetch(stack, member.apiKey, "/v1/workspace/engines/mine", { method: "DELETE" })).status).toBe(403);

    const other = await adminOf(stack);
    expect(((await (await apiFetch(stack, other.apiKey, "/v1/workspace/engines")).json()) as { engines: unknown[] }).engines).toEqual([]);
    expect((await apiFetch(stack, other.apiKey, "/v1/workspace/engines/mine", { method: "DELETE" })).status).toBe(404);

    expect((await apiFetch(stack, admin.apiKey, "/v1/workspace/engines/mine", { method: "DELETE" })).status).toBe(200);
    expect((await apiFetch(stack, admin.apiKey, "/v1/workspace/engines/mine", { method: "DELETE" })).status).toBe(404);
    expect(((await (await apiFetch(stack, admin.apiKey, "/v1/workspace/engines")).json()) as { engines: unknown[] }).engines).toEqual([]);
  });

  it(`a workspace has at most ${MAX_WORKSPACE_ENGINES} engines`, async () => {
    const admin = await adminOf(stack);
    for (let i = 0; i < MAX_WORKSPACE_ENGINES; i++) expect((await add(admin.apiKey, { engine_id: `e${i}`, url: "http://127.0.0.1:8880" })).status).toBe(201);
    const res = await add(admin.apiKey, { engine_id: "one-more", url: "http://127.0.0.1:8880" });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: { status: string } }).detail.status).toBe("engine_limit_reached");
  });
});

interface VoiceList {
  voices: Array<{ voice_id: string; name: string; labels: Record<string, string> }>;
}
const voicesOf = async (apiKey: string) => ((await (await apiFetch(stack, apiKey, "/v1/voices")).json()) as VoiceList).voices;
const used = async (apiKey: string) => ((await (await apiFetch(stack, apiKey, "/v1/user/subscription")).json()) as { character_count: number }).character_count;
const speak = (apiKey: string, voiceId: string, text: string, path = "") =>
  apiFetch(stack, apiKey, `/v1/text-to-speech/${voiceId}${path}?output_format=mp3_44100_128`, { method: "POST", body: JSON.stringify({ text, model_id: "eleven_multilingual_v2" }) });
const errorOf = async (res: Response) => ((await res.json()) as { detail: { status: string; message: string } }).detail;
/** Adds an engine (201) and gives its voice of that name. */
async function engineVoice(apiKey: string, body: Record<string, unknown>, name: string) {
  expect((await add(apiKey, body)).status).toBe(201);
  return (await voicesOf(apiKey)).find((v) => v.name === name)!;
}
/** A remote engine's failure as the caller sees it: 502, naming the engine, never its key. */
async function expectEngineFailed(res: Response, engine: string) {
  expect(res.status).toBe(502);
  const err = await errorOf(res);
  expect(err.status).toBe("remote_engine_failed");
  expect(err.message).toContain(engine);
  expect(err.message).not.toContain(KEY);
}

describe("a workspace's engines speak", () => {
  it("their voices are the workspace's only, speak through convert, stream, timestamps and dialogue, are charged and kept in history; the key is in no answer and no log", async () => {
    const admin = await adminOf(stack);
    const other = await adminOf(stack);
    const res = await add(admin.apiKey, { engine_id: "kokoro", kind: "openai", url: openaiUrl, key: KEY, model: "kokoro" });
    const text = await res.text();
    expect(res.status).toBe(201);
    expect(text).not.toContain(KEY);
    const added = JSON.parse(text) as { voice_ids: string[]; voices_error: string | null };
    expect(added.voices_error).toBeNull();
    expect(added.voice_ids).toHaveLength(2);
    expect(asked.findLast((a) => a.path === "/v1/audio/voices")?.auth).toBe(`Bearer ${KEY}`);

    // Listed for the workspace (and its members), with the engine; another workspace sees none of them.
    const mine = await voicesOf(admin.apiKey);
    const bella = mine.find((v) => v.name === "af_bella (kokoro)")!;
    expect(bella).toMatchObject({ labels: { engine: "remote", remote_engine: "kokoro" } });
    expect(added.voice_ids).toContain(bella.voice_id);
    const member = await joinAsMember(stack, admin);
    expect((await voicesOf(member.apiKey)).map((v) => v.voice_id)).toContain(bella.voice_id);
    expect((await voicesOf(other.apiKey)).map((v) => v.voice_id)).not.toContain(bella.voice_id);
    expect([400, 404]).toContain((await speak(other.apiKey, bella.voice_id, "Not yours.")).status);

    // Convert: MP3 back, the server asked with the key, charged, in history.
    const before = await used(admin.apiKey);
    const line = "A workspace engine speaks through the product.";
    const conv = await speak(member.apiKey, bella.voice_id, line);
    expect(conv.status).toBe(200);
    const mp3 = Buffer.from(await conv.arrayBuffer());
    expect(mp3.length).toBeGreaterThan(4000);
    const call = asked.findLast((a) => a.path === "/v1/audio/speech")!;
    expect(call.auth).toBe(`Bearer ${KEY}`);
    expect(JSON.parse(call.body.toString())).toMatchObject({ model: "kokoro", voice: "af_bella", input: line, response_format: "wav" });
    expect(await used(admin.apiKey)).toBe(before + line.length);
    const history = (await (await apiFetch(stack, member.apiKey, `/v1/history?voice_id=${bella.voice_id}`)).json()) as { history: Array<{ voice_id: string; text: string }> };
    expect(history.history.map((h) => h.text)).toContain(line);

    // Stream, with timestamps, dialogue with an embedded premade voice.
    const stream = await speak(admin.apiKey, bella.voice_id, "Streamed through the engine.", "/stream");
    expect(stream.status).toBe(200);
    expect((await stream.arrayBuffer()).byteLength).toBeGreaterThan(4000);
    const ts = await apiFetch(stack, admin.apiKey, `/v1/text-to-speech/${bella.voice_id}/with-timestamps`, { method: "POST", body: JSON.stringify({ text: "With timestamps.", model_id: "eleven_multilingual_v2" }) });
    expect(ts.status).toBe(200);
    expect(((await ts.json()) as { audio_base64: string }).audio_base64.length).toBeGreaterThan(1000);
    const premade = mine.find((v) => v.labels.engine !== "remote")!;
    const dlg = await apiFetch(stack, admin.apiKey, "/v1/text-to-dialogue?output_format=mp3_44100_128", {
      method: "POST",
      body: JSON.stringify({ inputs: [{ text: "First, the remote voice.", voice_id: bella.voice_id }, { text: "Then an embedded one.", voice_id: premade.voice_id }] }),
    });
    expect(dlg.status).toBe(200);
    expect((await dlg.arrayBuffer()).byteLength).toBeGreaterThan(4000);

    // The engine's state, never its key.
    const list = await apiFetch(stack, admin.apiKey, "/v1/workspace/engines");
    const listText = await list.text();
    expect(listText).not.toContain(KEY);
    expect((JSON.parse(listText) as { engines: Array<{ engine_id: string; state: { state: string } }> }).engines).toEqual([expect.objectContaining({ engine_id: "kokoro", state: expect.objectContaining({ state: "ok" }) })]);
    const probe = await apiFetch(stack, admin.apiKey, "/v1/workspace/engines/kokoro/probe", { method: "POST" });
    expect(probe.status).toBe(200);
    expect(await probe.json()).toMatchObject({ engine_id: "kokoro", probe: { ok: true, status: 200 } });
    expect((await apiFetch(stack, member.apiKey, "/v1/workspace/engines/kokoro/probe", { method: "POST" })).status).toBe(403);
    expect((await apiFetch(stack, other.apiKey, "/v1/workspace/engines/kokoro/probe", { method: "POST" })).status).toBe(404);

    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.filter((l) => l.includes(KEY))).toEqual([]);
  }, 120_000);

  it("a failing engine is a clear 502, refunded; after its failures in a row the breaker refuses fast (503); the key stays out of the message", async () => {
    const admin = await adminOf(stack);
    const voice = await engineVoice(admin.apiKey, { engine_id: "flaky", kind: "openai", url: openaiUrl, key: KEY }, "am_adam (flaky)");
    const before = await used(admin.apiKey);
    openaiMode = "fail";
    try {
      for (let i = 0; i < 5; i++) {
        const res = await speak(admin.apiKey, voice.voice_id, "This request fails.");
        expect(res.status).toBe(502);
        const err = await errorOf(res);
        expect(err.status).toBe("remote_engine_failed");
        expect(err.message).toContain("flaky");
        expect(err.message).not.toContain(KEY);
      }
      const refused = await speak(admin.apiKey, voice.voice_id, "Refused at once.");
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
      expect((await errorOf(refused)).status).toBe("remote_engine_unavailable");
    } finally {
      openaiMode = "ok";
    }
    expect(await used(admin.apiKey)).toBe(before);
    const list = (await (await apiFetch(stack, admin.apiKey, "/v1/workspace/engines")).json()) as { engines: Array<{ state: { state: string; last_error: string } }> };
    expect(list.engines[0].state).toMatchObject({ state: "open", last_error: "remote_engine_failed" });
    expect(logLines.filter((l) => l.includes(KEY))).toEqual([]);
  });

  it("removing an engine removes its voices from the list; they no longer speak", async () => {
    const admin = await adminOf(stack);
    const added = (await (await add(admin.apiKey, { engine_id: "gone", kind: "openai", url: openaiUrl })).json()) as { voice_ids: string[] };
    expect(added.voice_ids).toHaveLength(2);
    expect((await voicesOf(admin.apiKey)).filter((v) => v.labels.remote_engine === "gone")).toHaveLength(2);
    expect((await apiFetch(stack, admin.apiKey, "/v1/workspace/engines/gone", { method: "DELETE" })).status).toBe(200);
    expect((await voicesOf(admin.apiKey)).filter((v) => v.labels.remote_engine === "gone")).toEqual([]);
    expect((await speak(admin.apiKey, added.voice_ids[0], "Gone.")).status).toBe(404);
  });

  it("a server that answers MP3 although PCM was asked for is a clear error, not noise", async () => {
    const admin = await adminOf(stack);
    const george = await engineVoice(admin.apiKey, { engine_id: "hosted", kind: "elevenlabs", url: mp3Url, key: KEY }, "George (hosted)");
    const before = await used(admin.apiKey);
    const res = await speak(admin.apiKey, george.voice_id, "Answered in MP3.");
    expect(res.status).toBe(502);
    const err = await errorOf(res);
    expect(err).toMatchObject({ status: "remote_engine_bad_audio", message: expect.stringMatching(/hosted answered MP3 although raw PCM \(output_format=pcm_22050\) was asked for/) });
    const call = asked.findLast((a) => a.server === "mp3" && a.path.startsWith("/v1/text-to-speech/"))!;
    expect(call.path).toBe("/v1/text-to-speech/JBFqnCBsd6RMkjVDRZzb/stream?output_format=pcm_22050");
    expect(call.xi).toBe(KEY);
    expect(await used(admin.apiKey)).toBe(before);
  });

  it("a workspace with a reference-audio (XTTS) engine has its clones speak through it, their sample sent as the reference once", async () => {
    const admin = await adminOf(stack);
    const other = await adminOf(stack);
    const key = `voices/${admin.workspace.workspace_id}/reference.wav`;
    await stack.ctx.blobs.put(key, REFERENCE, "audio/wav");
    const sample = { sample_id: "s1", file_name: "reference.wav", mime_type: "audio/wav", size_bytes: REFERENCE.length, hash: "x", duration_secs: 2, object_key: key, remove_background_noise: false, isolated_object_key: null, trim_start: null, trim_end: null, speaker_separation: null, created_at_unix: 0 };
    const clone = await insertOwnVoice(stack, admin.workspace.workspace_id, admin.user.user_id, "My XTTS clone", { samples: [sample] });
    // Without the engine the clone speaks with the embedded engine, and the XTTS server hears nothing.
    expect((await speak(admin.apiKey, clone.voice_id, "Embedded first.")).status).toBe(200);
    expect(asked.filter((a) => a.server === "xtts")).toEqual([]);

    const res = await add(admin.apiKey, { engine_id: "xtts", kind: "xtts", url: xttsUrl, key: KEY });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ kind: "xtts", voice_ids: [], voices_error: null });
    const before = await used(admin.apiKey);
    for (const text of ["Spoken from the reference.", "Again, without sending it."]) {
      const r = await speak(admin.apiKey, clone.voice_id, text);
      expect(r.status).toBe(200);
      expect((await r.arrayBuffer()).byteLength).toBeGreaterThan(4000);
    }
    expect(asked.filter((a) => a.server === "xtts" && a.path === "/clone_speaker")).toHaveLength(1);
    const tts = asked.filter((a) => a.server === "xtts" && a.path === "/tts_stream");
    expect(tts).toHaveLength(2);
    expect(JSON.parse(tts[0].body.toString())).toMatchObject({ text: "Spoken from the reference.", language: "en", add_wav_header: true });
    expect(tts[0].auth).toBe(`Bearer ${KEY}`);
    expect(await used(admin.apiKey)).toBe(before + "Spoken from the reference.".length + "Again, without sending it.".length);

    // Another workspace's clone does not reach this workspace's engine.
    const theirs = await insertOwnVoice(stack, other.workspace.workspace_id, other.user.user_id, "Their clone", { samples: [sample] });
    expect((await speak(other.apiKey, theirs.voice_id, "Mine alone.")).status).toBe(200);
    expect(asked.filter((a) => a.server === "xtts" && a.path === "/tts_stream")).toHaveLength(2);
    expect(logLines.filter((l) => l.includes(KEY))).toEqual([]);
  });
});

describe("per-engine timeouts", () => {
  const patch = (apiKey: string, id: string, body: Record<string, unknown>) => apiFetch(stack, apiKey, `/v1/workspace/engines/${id}`, { method: "PATCH", body: JSON.stringify(body) });

  it("are bounded (first byte 1-60 s, total 5-600 s, total not shorter), default to 15 s / 120 s and change in place; members 403, another workspace 404", async () => {
    const admin = await adminOf(stack);
    const refused = async (body: Record<string, unknown>, pattern: RegExp) => {
      const res = await add(admin.apiKey, { engine_id: "bounded", url: openaiUrl, ...body });
      expect(res.status).toBe(400);
      expect(await errorOf(res)).toMatchObject({ status: "invalid_engine", message: expect.stringMatching(pattern) });
    };
    await refused({ first_byte_timeout_s: 0 }, /^first_byte_timeout_s of the engine "bounded" must be a whole number of seconds from 1 to 60 \(got 0\)/);
    await refused({ first_byte_timeout_s: 61 }, /from 1 to 60/);
    await refused({ first_byte_timeout_s: 2.5 }, /whole number/);
    await refused({ total_timeout_s: 4 }, /^total_timeout_s .* from 5 to 600/);
    await refused({ total_timeout_s: 601 }, /from 5 to 600/);
    await refused({ first_byte_timeout_s: 30, total_timeout_s: 20 }, /must not be shorter than its first_byte_timeout_s \(30 s\)/);

    const res = await add(admin.apiKey, { engine_id: "defaults", url: openaiUrl });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ first_byte_timeout_s: 15, total_timeout_s: 120 });
    const edited = await patch(admin.apiKey, "defaults", { first_byte_timeout_s: 5 });
    expect(edited.status).toBe(200);
    expect(await edited.json()).toMatchObject({ engine_id: "defaults", first_byte_timeout_s: 5, total_timeout_s: 120 });
    expect((await patch(admin.apiKey, "defaults", { total_timeout_s: 4 })).status).toBe(400);
    const listed = (await (await apiFetch(stack, admin.apiKey, "/v1/workspace/engines")).json()) as { engines: Array<Record<string, unknown>> };
    expect(listed.engines[0]).toMatchObject({ first_byte_timeout_s: 5, total_timeout_s: 120 });

    const member = await joinAsMember(stack, admin);
    expect((await patch(member.apiKey, "defaults", { first_byte_timeout_s: 9 })).status).toBe(403);
    const other = await adminOf(stack);
    expect((await patch(other.apiKey, "defaults", { first_byte_timeout_s: 9 })).status).toBe(404);
    expect((await patch(admin.apiKey, "nothing-here", { first_byte_timeout_s: 9 })).status).toBe(404);
  });

  it("a slow first byte past the engine's own timeout is a 504 naming the engine, refunded; a longer timeout set in place lets the same server answer", async () => {
    const admin = await adminOf(stack);
    const voice = await engineVoice(admin.apiKey, { engine_id: "slow", kind: "openai", url: slowUrl, key: KEY, first_byte_timeout_s: 1, total_timeout_s: 5 }, "slowpoke (slow)");
    const before = await used(admin.apiKey);
    slowDelayMs = 2500;
    const res = await speak(admin.apiKey, voice.voice_id, "Waiting for a slow model.");
    expect(res.status).toBe(504);
    const err = await errorOf(res);
    expect(err.status).toBe("remote_engine_timeout");
    // The configured second, not the default 15 s: the server answers after 2.5 s, which the default would have waited for.
    expect(err.message).toBe("The remote engine slow did not answer in time (no audio within 1000 ms).");
    expect(await used(admin.apiKey)).toBe(before);

    expect((await patch(admin.apiKey, "slow", { first_byte_timeout_s: 10, total_timeout_s: 20 })).status).toBe(200);
    const ok = await speak(admin.apiKey, voice.voice_id, "Waiting long enough.");
    expect(ok.status).toBe(200);
    expect((await ok.arrayBuffer()).byteLength).toBeGreaterThan(4000);
    expect(await used(admin.apiKey)).toBe(before + "Waiting long enough.".length);
    expect(logLines.filter((l) => l.includes(KEY))).toEqual([]);
  }, 60_000);
});

describe("previews of a workspace engine's voices", () => {
  const preview = (apiKey: string, id: string) => apiFetch(stack, apiKey, `/v1/voices/${id}/preview`);
  const speechCalls = () => asked.filter((a) => a.server === "openai" && a.path === "/v1/audio/speech").length;

  it("are made through the engine on the first request, free, kept for the next (one synthesis for requests at once); another workspace gets 404", async () => {
    const admin = await adminOf(stack);
    const other = await adminOf(stack);
    expect((await add(admin.apiKey, { engine_id: "previews", kind: "openai", url: openaiUrl, key: KEY, model: "kokoro" })).status).toBe(201);
    const listed = ((await (await apiFetch(stack, admin.apiKey, "/v1/voices")).json()) as { voices: Array<{ voice_id: string; name: string; preview_url: string | null }> }).voices;
    const bella = listed.find((v) => v.name === "af_bella (previews)")!;
    const adam = listed.find((v) => v.name === "am_adam (previews)")!;
    expect(bella.preview_url).toMatch(new RegExp(`/v1/voices/${bella.voice_id}/preview$`));

    // Another workspace: neither the preview nor a request to the engine.
    const calls0 = speechCalls();
    expect((await preview(other.apiKey, bella.voice_id)).status).toBe(404);
    expect(speechCalls()).toBe(calls0);

    const before = await used(admin.apiKey);
    const first = await preview(admin.apiKey, bella.voice_id);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("audio/mpeg");
    expect(first.headers.get("cache-control")).toContain("private");
    const audio = Buffer.from(await first.arrayBuffer());
    expect(audio.length).toBeGreaterThan(4000);
    expect(speechCalls()).toBe(calls0 + 1);
    const call = asked.findLast((a) => a.server === "openai" && a.path === "/v1/audio/speech")!;
    expect(call.auth).toBe(`Bearer ${KEY}`);
    expect(JSON.parse(call.body.toString())).toMatchObject({ voice: "af_bella", input: expect.stringMatching(/^Hi, I'm af_bella\. /) });

    // Kept: the same bytes again, the engine not asked, a member hears it too; nothing charged.
    const member = await joinAsMember(stack, admin);
    for (const k of [admin.apiKey, member.apiKey]) {
      const again = await preview(k, bella.voice_id);
      expect(again.status).toBe(200);
      expect(Buffer.from(await again.arrayBuffer()).equals(audio)).toBe(true);
    }
    expect(speechCalls()).toBe(calls0 + 1);
    expect((await preview(other.apiKey, bella.voice_id)).status).toBe(404);

    // Three at once for a voice without one: one synthesis.
    const three = await Promise.all([0, 1, 2].map(() => preview(admin.apiKey, adam.voice_id)));
    expect(three.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(speechCalls()).toBe(calls0 + 2);
    expect(await used(admin.apiKey)).toBe(before);
    expect(logLines.filter((l) => l.includes(KEY))).toEqual([]);
  });

  it("an engine that fails is the engine's error, nothing kept; the next request makes it", async () => {
    const admin = await adminOf(stack);
    const voice = await engineVoice(admin.apiKey, { engine_id: "pfail", kind: "openai", url: openaiUrl, key: KEY }, "af_bella (pfail)");
    openaiMode = "fail";
    try {
      await expectEngineFailed(await preview(admin.apiKey, voice.voice_id), "pfail");
    } finally {
      openaiMode = "ok";
    }
    expect((await preview(admin.apiKey, voice.voice_id)).status).toBe(200);
  });
});

describe("the operator's reference-audio (XTTS) engine", () => {
  let op: EmbeddedStack;
  beforeAll(async () => {
    op = await startTestStack({
      env: { WEBHOOK_ALLOW_LOCAL_TARGETS: "true", REMOTE_ENGINES: JSON.stringify([{ id: "opxtts", kind: "xtts", url: xttsUrl, key: KEY }]) },
      log: createLogger("debug", {}, (l) => logLines.push(l)),
    });
  }, 120_000);
  afterAll(async () => {
    await op?.close();
  });

  it("has every workspace's own clones speak through it, each clone's sample sent as its reference once; the workspace's own engine is not needed", async () => {
    const a = await adminOf(op);
    const b = await adminOf(op);
    const clones = [];
    for (const w of [a, b]) {
      const key = `voices/${w.workspace.workspace_id}/reference.wav`;
      await op.ctx.blobs.put(key, REFERENCE, "audio/wav");
      const sample = { sample_id: "s1", file_name: "reference.wav", mime_type: "audio/wav", size_bytes: REFERENCE.length, hash: "x", duration_secs: 2, object_key: key, remove_background_noise: false, isolated_object_key: null, trim_start: null, trim_end: null, speaker_separation: null, created_at_unix: 0 };
      clones.push(await insertOwnVoice(op, w.workspace.workspace_id, w.user.user_id, "Operator XTTS clone", { samples: [sample] }));
    }
    const cloneCalls = () => asked.filter((x) => x.server === "xtts" && x.path === "/clone_speaker").length;
    const ttsCalls = () => asked.filter((x) => x.server === "xtts" && x.path === "/tts_stream");
    const clones0 = cloneCalls();
    const tts0 = ttsCalls().length;
    const say = (apiKey: string, id: string, text: string) =>
      apiFetch(op, apiKey, `/v1/text-to-speech/${id}?output_format=mp3_44100_128`, { method: "POST", body: JSON.stringify({ text, model_id: "eleven_multilingual_v2" }) });
    const usedOn = async (apiKey: string) => ((await (await apiFetch(op, apiKey, "/v1/user/subscription")).json()) as { character_count: number }).character_count;
    const before = await usedOn(a.apiKey);
    for (const text of ["The operator's engine speaks.", "Again, from the cached conditioning."]) {
      const r = await say(a.apiKey, clones[0].voice_id, text);
      expect(r.status).toBe(200);
      expect((await r.arrayBuffer()).byteLength).toBeGreaterThan(4000);
    }
    expect(cloneCalls()).toBe(clones0 + 1);
    expect(await usedOn(a.apiKey)).toBe(before + "The operator's engine speaks.".length + "Again, from the cached conditioning.".length);
    // Another workspace's clone: its own reference, its own conditioning (not the first workspace's cache).
    const r = await say(b.apiKey, clones[1].voice_id, "Another workspace's clone.");
    expect(r.status).toBe(200);
    expect(cloneCalls()).toBe(clones0 + 2);
    const tts = ttsCalls().slice(tts0);
    expect(tts.map((t) => (JSON.parse(t.body.toString()) as { text: string }).text)).toEqual(["The operator's engine speaks.", "Again, from the cached conditioning.", "Another workspace's clone."]);
    expect(tts[0].auth).toBe(`Bearer ${KEY}`);
    // Not another workspace's voice: b cannot speak a's clone.
    expect([400, 404]).toContain((await say(b.apiKey, clones[0].voice_id, "Not mine.")).status);
    const engines = (await (await apiFetch(op, a.apiKey, "/v1/engines")).json()) as { engines: Array<{ id: string; kind: string; state: string }> };
    expect(engines.engines).toEqual([expect.objectContaining({ id: "opxtts", kind: "xtts", state: "ok" })]);
    expect(logLines.filter((l) => l.includes(KEY))).toEqual([]);
  }, 60_000);
});

describe("speech to speech into a workspace engine's voice", () => {
  /** The clip converted: 2 s of a tone, as a WAV. */
  const INPUT = wav(2);
  const sts = (apiKey: string, voiceId: string, fields: Record<string, string> = {}) => {
    const form = new FormData();
    form.append("audio", new Blob([INPUT], { type: "audio/wav" }), "input.wav");
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    return apiFetch(stack, apiKey, `/v1/speech-to-speech/${voiceId}?output_format=mp3_44100_128`, { method: "POST", body: form });
  };
  const stsCalls = () => asked.filter((a) => a.server === "eleven" && a.path.startsWith("/v1/speech-to-speech/"));

  it("an ElevenLabs-compatible engine converts: the upload sent as it came with the key, charged, in history; another workspace 404 and the engine not asked", async () => {
    const admin = await adminOf(stack);
    const other = await adminOf(stack);
    const sarah = await engineVoice(admin.apiKey, { engine_id: "eleven", kind: "elevenlabs", url: elevenUrl, key: KEY }, "Sarah (eleven)");
    expect((await sts(other.apiKey, sarah.voice_id)).status).toBe(404);
    expect(stsCalls()).toEqual([]);

    const before = await used(admin.apiKey);
    const res = await sts(admin.apiKey, sarah.voice_id, { model_id: "eleven_multilingual_sts_v2", voice_settings: JSON.stringify({ stability: 0.3, similarity_boost: 0.9 }), seed: "42" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("audio/mpeg");
    const mp3 = Buffer.from(await res.arrayBuffer());
    expect(mp3.length).toBeGreaterThan(8000);
    const cost = Number(res.headers.get("character-cost"));
    expect(cost).toBeGreaterThan(0);
    expect(await used(admin.apiKey)).toBe(before + cost);

    const [call] = stsCalls();
    expect(call.path).toBe("/v1/speech-to-speech/EXAVITQu4vr4xnSDxMaL/stream?output_format=pcm_22050");
    expect(call.xi).toBe(KEY);
    expect(call.type).toMatch(/^multipart\/form-data; boundary=/);
    expect(call.body.includes(INPUT)).toBe(true);
    const text = call.body.toString("latin1");
    expect(text).toContain('name="model_id"\r\n\r\neleven_multilingual_sts_v2');
    expect(text).toContain('name="seed"\r\n\r\n42');
    expect(text).toMatch(/name="voice_settings"\r\n\r\n\{"stability":0\.3,"similarity_boost":0\.9,/);

    // Raw 16 kHz PCM (file_format pcm_s16le_16): its length is its duration; sent as it came, saying so.
    const raw = Buffer.alloc(16000 * 2 * 3);
    const rawForm = new FormData();
    rawForm.append("audio", new Blob([raw], { type: "application/octet-stream" }), "input.pcm");
    rawForm.append("file_format", "pcm_s16le_16");
    const rawRes = await apiFetch(stack, admin.apiKey, `/v1/speech-to-speech/${sarah.voice_id}/stream?output_format=mp3_44100_128`, { method: "POST", body: rawForm });
    expect(rawRes.status).toBe(200);
    expect((await rawRes.arrayBuffer()).byteLength).toBeGreaterThan(4000);
    expect(Number(rawRes.headers.get("character-cost"))).toBeGreaterThan(cost);
    const rawCall = stsCalls().at(-1)!;
    expect(rawCall.body.includes(raw)).toBe(true);
    expect(rawCall.body.toString("latin1")).toContain('name="file_format"\r\n\r\npcm_s16le_16');

    const historyId = res.headers.get("history-item-id")!;
    const item = (await (await apiFetch(stack, admin.apiKey, `/v1/history/${historyId}`)).json()) as { voice_id: string; source: string };
    expect(item).toMatchObject({ voice_id: sarah.voice_id, source: "STS" });
    expect(logLines.filter((l) => l.includes(KEY))).toEqual([]);
  }, 60_000);

  it("an engine that fails is its 502, refunded, the key out of the message", async () => {
    const admin = await adminOf(stack);
    const sarah = await engineVoice(admin.apiKey, { engine_id: "eleven-fails", kind: "elevenlabs", url: elevenUrl, key: KEY }, "Sarah (eleven-fails)");
    const before = await used(admin.apiKey);
    elevenMode = "fail";
    try {
      await expectEngineFailed(await sts(admin.apiKey, sarah.voice_id), "eleven-fails");
    } finally {
      elevenMode = "ok";
    }
    expect(await used(admin.apiKey)).toBe(before);
  }, 60_000);

  it("an OpenAI-compatible engine's voice is a clear 400 naming the engine and what it cannot do, nothing charged, the engine not asked", async () => {
    const admin = await adminOf(stack);
    const bella = await engineVoice(admin.apiKey, { engine_id: "nosts", kind: "openai", url: openaiUrl, key: KEY }, "af_bella (nosts)");
    const before = await used(admin.apiKey);
    const calls = asked.length;
    const res = await sts(admin.apiKey, bella.voice_id);
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toEqual({
      status: "voice_cannot_convert",
      message: "The remote engine nosts is an OpenAI-compatible server, which has no speech to speech: only ElevenLabs-compatible engines convert speech into their voices. Use this voice for text to speech, or convert into another voice.",
    });
    expect(asked.length).toBe(calls);
    expect(await used(admin.apiKey)).toBe(before);
  });
});

describe("the support assistant", () => {
  it("speaks with Timbre's built-in voice in a workspace with engines: none of them is asked (the settings page says so)", async () => {
    const admin = await adminOf(stack);
    expect((await add(admin.apiKey, { engine_id: "assistant-ws", kind: "openai", url: openaiUrl, key: KEY })).status).toBe(201);
    const calls = asked.length;
    const ws = new WebSocket(stack.url.replace(/^http/, "ws") + ASSISTANT.path, [ASSISTANT.subprotocol, `${ASSISTANT.apiKeyPrefix}${admin.apiKey}`]);
    const messages: AssistantServerMessage[] = [];
    ws.on("message", (d) => {
      const m = JSON.parse(d.toString()) as AssistantServerMessage;
      messages.push(m);
      if (m.type === "tool_call") ws.send(JSON.stringify({ type: "tool_result", id: m.call.id, ok: true }));
    });
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("error", reject);
    });
    try {
      ws.send(JSON.stringify({ type: "user_text", text: "what plan am I on" }));
      await expect.poll(() => messages.some((m) => m.type === "audio_end"), { timeout: 60_000, interval: 50 }).toBe(true);
      const audio = messages.filter((m): m is Extract<AssistantServerMessage, { type: "audio" }> => m.type === "audio");
      expect(audio.length).toBeGreaterThan(0);
      expect(Buffer.from(audio[0].audio, "base64").length).toBeGreaterThan(500);
    } finally {
      ws.close();
    }
    expect(asked.length).toBe(calls);
  }, 90_000);
});
