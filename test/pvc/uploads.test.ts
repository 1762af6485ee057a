import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { apiFetch, createTestAccount, startTestStack } from "../support/stack.js";
import { EspeakEngine } from "../../functions/media/engine/espeak/engine.js";
import { premadeVoices } from "../../functions/media/voice-analysis/fixtures/voices.js";
import { PVC } from "../../functions/platform/contract/pvc.js";
import type { UploadTicket } from "../../functions/capabilities/pvc/uploads.js";
import { encodeWav } from "../../functions/media/audio/wav.js";
import { floatToInt16 } from "../../functions/media/audio/resample.js";
import { speech } from "./support.js";
import { sweepTemporaryUploads } from "../../infra/local/storage-route.js";

/**
 * Presigned uploads through the embedded origin, as a browser makes them: the API hands out
 * URLs, the bytes go to /storage/... (checked there before they reach the store), and the API
 * checks and keeps the finished upload as a sample.
 */
let stack: EmbeddedStack;
let engine: EspeakEngine;
let acct: Awaited<ReturnType<typeof createTestAccount>>;
let voiceId: string;
let small: Uint8Array; // 40 s, a single PUT
let large: Uint8Array; // over 16 MB: multipart

beforeAll(async () => {
  [stack, engine] = await Promise.all([startTestStack(), new EspeakEngine()]);
  acct = await createTestAccount(stack, "pro");
  const voice = premadeVoices().find((v) => v.name === "Avery")!.profile;
  const reading = await speech(engine, voice, 40, 11);
  small = encodeWav(floatToInt16(reading), 16_000);
  // 560 s (17.9 MB at 16 kHz): the same 40 s reading fourteen times over, so it costs no more
  // synthesis; the tests read its size, parts, bytes and duration, not its words.
  const long = new Float32Array(reading.length * 14);
  for (let i = 0; i < 14; i++) long.set(reading, i * reading.length);
  large = encodeWav(floatToInt16(long), 16_000);
  const r = await apiFetch(stack, acct.apiKey, "/v1/voices/pvc", { method: "POST", body: JSON.stringify({ name: "Uploads", language: "en" }) });
  voiceId = ((await r.json()) as { voice_id: string }).voice_id;
}, 180_000);
afterAll(async () => {
  await engine?.close();
  await stack?.close();
});

async function start(bytes: Uint8Array, name: string, extra: Record<string, unknown> = {}): Promise<UploadTicket> {
  const r = await apiFetch(stack, acct.apiKey, `/v1/voices/pvc/${voiceId}/uploads`, {
    method: "POST",
    body: JSON.stringify({ file_name: name, content_type: "audio/wav", size_bytes: bytes.byteLength, ...extra }),
  });
  expect(r.status).toBe(200);
  return (await r.json()) as UploadTicket;
}

const put = (url: string, body: Uint8Array, headers: Record<string, string>) => fetch(url, { method: "PUT", body: Buffer.from(body), headers });
const complete = (uploadId: string) => apiFetch(stack, acct.apiKey, `/v1/voices/pvc/${voiceId}/uploads/${uploadId}/complete`, { method: "POST" });

describe("presigned uploads through the embedded origin", () => {
  it("takes a small file in one PUT and keeps it as a checked sample", async () => {
    const t = await start(small, "interview.wav");
    expect(t.kind).toBe("single");
    expect(new URL(t.url!).pathname.startsWith("/storage/")).toBe(true);
    expect((await put(t.url!, small, t.headers)).status).toBe(200);
    const r = await complete(t.upload_id);
    expect(r.status).toBe(200);
    const s = (await r.json()) as { sample_id: string; duration_secs: number; size_bytes: number; file_name: string };
    expect(s).toMatchObject({ size_bytes: small.byteLength, file_name: "interview.wav" });
    expect(s.duration_secs).toBeCloseTo(40, 1);
    // Nothing is left under tmp/, and the upload cannot be completed twice.
    expect(await stack.ctx.blobs.list(`tmp/ws/${acct.workspace.workspace_id}/pvc/${t.upload_id}`)).toEqual([]);
    expect((await complete(t.upload_id)).status).toBe(404);
  }, 60_000);

  it("takes a large file in parts, resumes after a lost part, and joins them", async () => {
    const t = await start(large, "long read.wav");
    expect(t.kind).toBe("multipart");
    expect(t.parts.length).toBe(Math.ceil(large.byteLength / PVC.partBytes));
    // The first part arrives; the second is "lost" to a network error.
    const [p1, p2] = t.parts;
    expect((await put(p1.url, large.subarray(0, p1.size_bytes), p1.headers)).status).toBe(200);
    expect((await complete(t.upload_id)).status).toBe(400); // upload_incomplete
    const resumed = (await (await apiFetch(stack, acct.apiKey, `/v1/voices/pvc/${voiceId}/uploads/${t.upload_id}`)).json()) as UploadTicket;
    expect(resumed.uploaded_parts).toEqual([1]);
    expect(resumed.parts.map((p) => p.part_number)).toEqual([2]);
    expect((await put(resumed.parts[0].url, large.subarray(p1.size_bytes), resumed.parts[0].headers)).status).toBe(200);
    void p2;
    const r = await complete(t.upload_id);
    expect(r.status).toBe(200);
    const s = (await r.json()) as { sample_id: string; size_bytes: number; duration_secs: number };
    expect(s.size_bytes).toBe(large.byteLength);
    expect(s.duration_secs).toBeCloseTo(560, 0);
    const stored = await stack.ctx.blobs.getBytes((await stack.ctx.stores.voices.get(acct.workspace.workspace_id, voiceId))!.samples.find((x) => x.sample_id === s.sample_id)!.object_key);
    expect(Buffer.from(stored!.bytes).equals(Buffer.from(large))).toBe(true);
  }, 120_000);

  it("refuses a body of another length or type, a tampered or expired URL, and keys it was not signed for", async () => {
    const t = await start(small, "again.wav", { skip_warnings: ["duplicate_file"] });
    const url = t.url!;
    expect((await put(url, small.subarray(0, small.byteLength - 1), t.headers)).status).toBe(403);
    expect((await put(url, small, { "content-type": "text/html" })).status).toBe(403);
    const otherKey = url.replace(/\/source\?/, "/other?");
    expect((await put(otherKey, small, t.headers)).status).toBe(403);
    const tampered = url.replace(/X-Amz-Expires=\d+/, "X-Amz-Expires=999999");
    expect((await put(tampered, small, t.headers)).status).toBe(403);
    // Nothing reached the store.
    expect(await stack.ctx.blobs.list(`tmp/ws/${acct.workspace.workspace_id}/pvc/${t.upload_id}`)).toEqual([]);
    // A GET of a stored object needs a signature too, and so does a PUT outside tmp/.
    expect((await fetch(new URL(`/storage/${stack.ctx.blobs.bucket}/ws/${acct.workspace.workspace_id}/voices/${voiceId}/x.wav`, stack.url))).status).toBe(403);
    // Once expired, the URL is refused.
    const clock = stack.ctx.now;
    const realNow = Date.now;
    Date.now = () => realNow() + (PVC.uploadUrlSeconds + 60) * 1000;
    try {
      expect((await put(url, small, t.headers)).status).toBe(403);
    } finally {
      Date.now = realNow;
      void clock;
    }
    expect((await put(url, small, t.headers)).status).toBe(200);
    const abort = await apiFetch(stack, acct.apiKey, `/v1/voices/pvc/${voiceId}/uploads/${t.upload_id}`, { method: "DELETE" });
    expect(abort.status).toBe(200);
    expect(await stack.ctx.blobs.list(`tmp/ws/${acct.workspace.workspace_id}/pvc/${t.upload_id}`)).toEqual([]);
  }, 60_000);

  it("keeps nothing of a PUT that breaks off half-way, and takes the whole file on the same URL afterwards", async () => {
    const t = await start(small, "broken.wav", { skip_warnings: ["duplicate_file"] });
    const prefix = `tmp/ws/${acct.workspace.workspace_id}/pvc/${t.upload_id}`;
    const url = new URL(t.url!);
    const req = httpRequest(url, { method: "PUT", headers: { ...t.headers, "content-length": String(small.byteLength) } });
    const ended = new Promise<string>((resolve) => {
      req.on("response", (res) => resolve(`answered ${res.statusCode}`));
      req.on("error", (e) => resolve(e.message));
      req.on("close", () => resolve("closed"));
    });
    await new Promise((r) => req.write(Buffer.from(small.subarray(0, small.byteLength >> 1)), r));
    // The first half goes out and is streamed into the store (where, as on S3, no object shows
    // until it is whole: the upload's key stays empty), then the connection drops.
    await new Promise((r) => setTimeout(r, 500));
    expect(await stack.ctx.blobs.list(prefix)).toEqual([]);
    req.destroy();
    expect(await ended).not.toMatch(/answered 200/);
    await expect.poll(() => stack.ctx.blobs.list(prefix), { timeout: 10_000 }).toEqual([]);
    expect((await put(t.url!, small, t.headers)).status).toBe(200);
    expect((await stack.ctx.blobs.listWithSizes(prefix)).map((o) => o.size)).toEqual([small.byteLength]);
    expect((await apiFetch(stack, acct.apiKey, `/v1/voices/pvc/${voiceId}/uploads/${t.upload_id}`, { method: "DELETE" })).status).toBe(200);
  }, 60_000);

  it("sweeps abandoned uploads under tmp/ as the bucket's lifecycle rule does on AWS, and nothing else", async () => {
    const t = await start(small, "abandoned.wav", { skip_warnings: ["duplicate_file"] });
    expect((await put(t.url!, small, t.headers)).status).toBe(200);
    const keep = `ws/${acct.workspace.workspace_id}/voices/${voiceId}/keep.txt`;
    await stack.ctx.blobs.put(keep, "x", "text/plain");
    expect(await sweepTemporaryUploads(stack.ctx, 60_000)).toBe(0); // fresh: kept
    expect(await sweepTemporaryUploads(stack.ctx, -1)).toBeGreaterThanOrEqual(1);
    expect(await stack.ctx.blobs.list("tmp/")).toEqual([]);
    expect(await stack.ctx.blobs.head(keep)).toBeDefined();
  });

  it("checks the size and count limits before handing out URLs", async () => {
    const r = await apiFetch(stack, acct.apiKey, `/v1/voices/pvc/${voiceId}/uploads`, {
      method: "POST",
      body: JSON.stringify({ file_name: "huge.wav", size_bytes: PVC.batchBytes + 1 }),
    });
    expect(r.status).toBe(413);
    const other = await createTestAccount(stack, "pro");
    const foreign = await apiFetch(stack, other.apiKey, `/v1/voices/pvc/${voiceId}/uploads`, { method: "POST", body: JSON.stringify({ file_name: "a.wav", size_bytes: 100 }) });
    expect(foreign.status).toBe(404);
  });

  it("caps uploads in progress per voice and per workspace, and lets a voice start again once one is cancelled", async () => {
    const a = await createTestAccount(stack, "business"); // three professional voices
    const newVoice = async (name: string) => {
      const r = await apiFetch(stack, a.apiKey, "/v1/voices/pvc", { method: "POST", body: JSON.stringify({ name, language: "en" }) });
      expect(r.status, await r.clone().text()).toBe(200);
      return ((await r.json()) as { voice_id: string }).voice_id;
    };
    const begin = (voice: string, n: number) =>
      apiFetch(stack, a.apiKey, `/v1/voices/pvc/${voice}/uploads`, { method: "POST", body: JSON.stringify({ file_name: `${n}.wav`, content_type: "audio/wav", size_bytes: 1000 }) });
    const first = await newVoice("Capped");
    const ids: string[] = [];
    for (let i = 0; i < PVC.maxPendingUploadsPerVoice; i++) {
      const r = await begin(first, i);
      expect(r.status).toBe(200);
      ids.push(((await r.json()) as UploadTicket).upload_id);
    }
    const over = await begin(first, 99);
    expect(over.status).toBe(429);
    expect(((await over.json()) as { detail: { status: string; message: string } }).detail).toMatchObject({ status: "too_many_pending_uploads", message: expect.stringContaining(`This voice already has ${PVC.maxPendingUploadsPerVoice} uploads in progress`) });
    expect((await apiFetch(stack, a.apiKey, `/v1/voices/pvc/${first}/uploads/${ids[0]}`, { method: "DELETE" })).status).toBe(200);
    expect((await begin(first, 100)).status).toBe(200);
    // The workspace's cap: other voices fill it up.
    let open = PVC.maxPendingUploadsPerVoice;
    while (open < PVC.maxPendingUploadsPerWorkspace) {
      const v = await newVoice(`Capped ${open}`);
      for (let i = 0; i < PVC.maxPendingUploadsPerVoice && open < PVC.maxPendingUploadsPerWorkspace; i++, open++) expect((await begin(v, i)).status).toBe(200);
    }
    const last = await begin(await newVoice("One too many"), 0);
    expect(last.status).toBe(429);
    expect(((await last.json()) as { detail: { message: string } }).detail.message).toContain(`This workspace already has ${PVC.maxPendingUploadsPerWorkspace} uploads in progress`);
  }, 120_000);

  it("counts the bytes of uploads in progress against the voice's 1.5 GB", async () => {
    const a = await createTestAccount(stack, "pro");
    const voice = ((await (await apiFetch(stack, a.apiKey, "/v1/voices/pvc", { method: "POST", body: JSON.stringify({ name: "Big", language: "en" }) })).json()) as { voice_id: string }).voice_id;
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const r = await apiFetch(stack, a.apiKey, `/v1/voices/pvc/${voice}/uploads`, { method: "POST", body: JSON.stringify({ file_name: `${i}.wav`, content_type: "audio/wav", size_bytes: PVC.batchBytes }) });
      statuses.push(r.status);
    }
    // 7 x 200 MB fit under 1.5 GB, the 8th does not.
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 400]);
  });

  it("expires an unused upload in minutes: its URL, its record and its bytes", async () => {
    const t = await start(small, "forgotten.wav", { skip_warnings: ["duplicate_file"] });
    // The URL lives 15 minutes, the upload as long plus a grace for a PUT under way.
    expect(new URL(t.url!).searchParams.get("X-Amz-Expires")).toBe("900");
    expect(t.expires_at_unix - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(900);
    const ws = acct.workspace.workspace_id;
    const record = (await stack.ctx.stores.pvcUploads.list(ws)).find((u) => u.upload_id === t.upload_id)!;
    expect(record.expires_at_unix - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(20 * 60);
    expect((await put(t.url!, small, t.headers)).status).toBe(200);
    const prefix = `tmp/ws/${ws}/pvc/${t.upload_id}`;
    // Time passes (the record's expiry is moved back rather than the clock: the SDK's clock-skew correction would remember a fake clock).
    await stack.ctx.stores.pvcUploads.extend(ws, t.upload_id, Math.floor(Date.now() / 1000) - 1);
    expect((await put(t.url!, small, t.headers)).status).toBe(403);
    expect((await complete(t.upload_id)).status).toBe(404);
    // The sweep drops its bytes and its record without waiting for days.
    expect(await sweepTemporaryUploads(stack.ctx)).toBeGreaterThanOrEqual(1);
    expect(await stack.ctx.blobs.list(prefix)).toEqual([]);
    expect((await stack.ctx.stores.pvcUploads.list(ws)).filter((u) => u.upload_id === t.upload_id)).toEqual([]);
  }, 60_000);

  it("takes no more bytes on a completed or cancelled upload's URL", async () => {
    const t = await start(small, "done.wav", { skip_warnings: ["duplicate_file"] });
    expect((await put(t.url!, small, t.headers)).status).toBe(200);
    expect((await complete(t.upload_id)).status).toBe(200);
    const prefix = `tmp/ws/${acct.workspace.workspace_id}/pvc/${t.upload_id}`;
    const again = await put(t.url!, small, t.headers);
    expect(again.status).toBe(403);
    expect(((await again.json()) as { detail: { status: string } }).detail.status).toBe("upload_closed");
    expect(await stack.ctx.blobs.list(prefix)).toEqual([]);
    const c = await start(large, "cancelled.wav", { skip_warnings: ["duplicate_file"] });
    expect((await apiFetch(stack, acct.apiKey, `/v1/voices/pvc/${voiceId}/uploads/${c.upload_id}`, { method: "DELETE" })).status).toBe(200);
    const p1 = c.parts[0];
    expect((await put(p1.url, large.subarray(0, p1.size_bytes), p1.headers)).status).toBe(403);
    expect(await stack.ctx.blobs.list(`tmp/ws/${acct.workspace.workspace_id}/pvc/${c.upload_id}`)).toEqual([]);
  }, 60_000);
});
