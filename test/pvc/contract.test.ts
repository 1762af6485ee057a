import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ElevenLabsClient, ElevenLabsError } from "@elevenlabs/elevenlabs-js";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { apiFetch, createTestAccount, startTestStack } from "../support/stack.js";
import { EspeakEngine } from "../../functions/media/engine/espeak/engine.js";
import { premadeVoices } from "../../functions/media/voice-analysis/fixtures/voices.js";
import { encodeWav, wavPcm16 } from "../../functions/media/audio/wav.js";
import { encodeAll } from "../../functions/media/audio/encoder.js";
import { createHash } from "node:crypto";
import { PVC, pvcMessages } from "../../functions/platform/contract/pvc.js";
import { speechWav } from "./support.js";
import { speak } from "../../functions/media/voice-analysis/fixtures/voices.js";
import { floatToInt16 } from "../../functions/media/audio/resample.js";
import { PNG } from "pngjs";

/**
 * `voices.pvc.*` through the official SDK, unchanged, against the embedded stack: a missing or
 * mistyped required field makes the SDK itself throw. Samples are engine speech.
 */
let stack: EmbeddedStack;
let engine: EspeakEngine;
let client: ElevenLabsClient;
let acct: Awaited<ReturnType<typeof createTestAccount>>;
const voice = () => premadeVoices().find((v) => v.name === "Marcus")!.profile;
let sample40: Uint8Array;

beforeAll(async () => {
  [stack, engine] = await Promise.all([startTestStack(), new EspeakEngine()]);
  acct = await createTestAccount(stack, "creator");
  client = new ElevenLabsClient({ baseUrl: stack.url, apiKey: acct.apiKey, maxRetries: 0 });
  sample40 = await speechWav(engine, voice(), 40, 1);
}, 120_000);
afterAll(async () => {
  await engine?.close();
  await stack?.close();
});

const blob = (b: Uint8Array, type = "audio/wav") => new Blob([Buffer.from(b)], { type });
const errorOf = async (p: Promise<unknown>) => {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(ElevenLabsError);
  const err = e as ElevenLabsError;
  return { status: err.statusCode, detail: (err.body as { detail: { status: string; message: string } }).detail };
};

describe("SDK contract: professional voice clones", () => {
  it("creates and edits a clone; it takes a professional slot and starts not verified", async () => {
    const { voiceId } = await client.voices.pvc.create({ name: "My pro voice", language: "en", description: "For narration", labels: { accent: "american", gender: "male" } });
    const v = await client.voices.get(voiceId);
    expect(v.category).toBe("professional");
    expect(v.labels).toMatchObject({ language: "en", accent: "american", gender: "male" });
    expect(v.fineTuning?.isAllowedToFineTune).toBe(false);
    expect(v.voiceVerification?.requiresVerification).toBe(true);
    const sub = await client.user.subscription.get();
    expect(sub.professionalVoiceSlotsUsed).toBe(1);

    const edited = await client.voices.pvc.update(voiceId, { name: "Renamed", description: "Audiobooks", labels: { age: "old" } });
    expect(edited.voiceId).toBe(voiceId);
    const after = await client.voices.get(voiceId);
    expect(after.name).toBe("Renamed");
    expect(after.description).toBe("Audiobooks");
    expect(after.labels).toEqual({ language: "en", age: "old" });
    // The creator plan has one professional slot.
    const e = await errorOf(client.voices.pvc.create({ name: "Second", language: "en" }));
    expect(e.detail.message).toBe("Professional voice limit of 1 reached");
    await client.voices.delete(voiceId);
  });

  it("refuses plans without professional cloning with the spec's gate", async () => {
    const free = await createTestAccount(stack, "starter");
    const c = new ElevenLabsClient({ baseUrl: stack.url, apiKey: free.apiKey, maxRetries: 0 });
    const e = await errorOf(c.voices.pvc.create({ name: "Nope", language: "en" }));
    expect(e.status).toBe(403);
    expect(e.detail.message).toBe(pvcMessages.planGate);
  });

  it("adds, lists, previews, trims, renames and deletes samples", async () => {
    const { voiceId } = await client.voices.pvc.create({ name: "Samples", language: "en" });
    const added = await client.voices.pvc.samples.create(voiceId, { files: [blob(sample40)], removeBackgroundNoise: false });
    expect(added).toHaveLength(1);
    const [s] = added;
    expect(s.sampleId).toBeTruthy();
    expect(s.durationSecs).toBeCloseTo(40, 1);
    expect(s.sizeBytes).toBe(sample40.byteLength);
    expect(s.mimeType).toBe("audio/wav");

    const wave = await client.voices.pvc.samples.waveform.get(voiceId, s.sampleId!);
    expect(wave.sampleId).toBe(s.sampleId);
    expect(wave.visualWaveform.length).toBe(400);
    expect(Math.max(...wave.visualWaveform)).toBeGreaterThan(0.05);

    const preview = await client.voices.pvc.samples.audio.get(voiceId, s.sampleId!, { removeBackgroundNoise: false });
    expect(preview.mediaType).toBe("audio/wav");
    expect(preview.durationSecs).toBeCloseTo(30, 1);
    expect(Buffer.from(preview.audioBase64, "base64").subarray(0, 4).toString()).toBe("RIFF");
    const isolated = await client.voices.pvc.samples.audio.get(voiceId, s.sampleId!, { removeBackgroundNoise: true });
    expect(isolated.audioBase64).not.toBe(preview.audioBase64);
    expect((await client.voices.get(voiceId)).samples![0].hasIsolatedAudioPreview).toBe(true);

    await client.voices.pvc.samples.update(voiceId, s.sampleId!, { trimStartTime: 2000, trimEndTime: 12_000, fileName: "take 1.wav", removeBackgroundNoise: true });
    const got = (await client.voices.get(voiceId)).samples![0];
    expect(got).toMatchObject({ trimStart: 2000, trimEnd: 12_000, fileName: "take 1.wav", removeBackgroundNoise: true });
    const tooShort = await errorOf(client.voices.pvc.samples.update(voiceId, s.sampleId!, { trimStartTime: 5000, trimEndTime: 5500 }));
    expect(tooShort.detail.status).toBe("trim_too_short");

    const del = await client.voices.pvc.samples.delete(voiceId, s.sampleId!);
    expect(del.status).toBe("ok");
    expect((await client.voices.get(voiceId)).samples).toEqual([]);
    const leftovers = await stack.ctx.blobs.list(`ws/${acct.workspace.workspace_id}/voices/${voiceId}/samples/`);
    expect(leftovers).toEqual([]);
    await client.voices.delete(voiceId);
  }, 60_000);

  it("checks samples in the spec's order with its messages", async () => {
    const { voiceId } = await client.voices.pvc.create({ name: "Checks", language: "en" });
    const short = encodeWav(new Int16Array(16_000 * 20).map((_, i) => Math.round(3000 * Math.sin(i / 7))), 16_000);
    const e1 = await errorOf(client.voices.pvc.samples.create(voiceId, { files: [blob(short)] }));
    expect(e1.detail).toEqual({ status: "min-duration", message: "At least 30s of audio is required" });
    const junk = new Uint8Array(5000).fill(7);
    const e2 = await errorOf(client.voices.pvc.samples.create(voiceId, { files: [blob(junk, "audio/mpeg")] }));
    expect(e2.detail.status).toBe("unsupported_audio");
    const broken = Buffer.concat([Buffer.from(sample40.subarray(0, 44)), Buffer.alloc(0)]);
    const e3 = await errorOf(client.voices.pvc.samples.create(voiceId, { files: [blob(broken)] }));
    expect(e3.detail).toEqual({ status: "duration_unknown", message: "Could not determine audio duration, try another file" });
    await client.voices.pvc.samples.create(voiceId, { files: [blob(sample40)] });
    const e4 = await errorOf(client.voices.pvc.samples.create(voiceId, { files: [blob(sample40)] }));
    expect(e4.detail).toEqual({ status: "duplicate_file", message: "Uploading duplicate files could result in poor clone" });
    // The warning is skippable ('Upload' in the wizard).
    const again = await client.voices.pvc.samples.create(voiceId, { files: [blob(sample40)] }, { queryParams: { skip_warnings: "duplicate_file" } });
    expect(again).toHaveLength(1);
    expect((await client.voices.get(voiceId)).samples).toHaveLength(2);
    await client.voices.delete(voiceId);
  }, 60_000);

  it("refuses a duplicate, and a file whose header declares more than 3 hours, before decoding it", async () => {
    const { voiceId } = await client.voices.pvc.create({ name: "Bounded", language: "en" });
    // 40 s of Opus made by the product's own encoder, its last Ogg page then claiming 4 hours.
    const { pcm16, sampleRate } = wavPcm16(sample40)!;
    const opus = Buffer.from(encodeAll("opus_48000_64", pcm16, sampleRate));
    const last = opus.lastIndexOf("OggS");
    opus.writeBigUInt64LE(BigInt(4 * 3600 * 48_000), last + 6);
    const long = await errorOf(client.voices.pvc.samples.create(voiceId, { files: [blob(opus, "audio/ogg")] }));
    // One comparison, so a failure shows the status and the detail together (it failed once under load with
    // only "expected ... to be 413" to go on).
    expect(long).toEqual({ status: 413, detail: { status: "sample_too_long", message: `A sample can be at most ${PVC.maxFileSeconds / 3600} hours long.` } });
    // The same bytes as a sample the voice already has: the duplicate is said without decoding
    // (before, the file was decoded first and refused as too long, never reaching the duplicate check).
    const ws = acct.workspace.workspace_id;
    const v = (await stack.ctx.stores.voices.get(ws, voiceId))!;
    const hash = createHash("sha256").update(opus).digest("hex");
    await stack.ctx.stores.voices.patch(ws, voiceId, {
      samples: [{ sample_id: "earlier", file_name: "earlier.ogg", mime_type: "audio/ogg", size_bytes: opus.byteLength, hash, duration_secs: 40, object_key: `ws/${ws}/voices/${voiceId}/samples/earlier.ogg`, remove_background_noise: false, isolated_object_key: null, trim_start: null, trim_end: null, speaker_separation: null, created_at_unix: 0 }],
    });
    void v;
    const dup = await errorOf(client.voices.pvc.samples.create(voiceId, { files: [blob(opus, "audio/ogg")] }));
    expect(dup.detail).toEqual({ status: "duplicate_file", message: pvcMessages.duplicateFile });
    await client.voices.delete(voiceId);
  }, 60_000);

  it("separates the speakers of a sample, serves each speaker's audio and keeps the selection", async () => {
    const { voiceId } = await client.voices.pvc.create({ name: "Interview", language: "en" });
    const [s] = await client.voices.pvc.samples.create(voiceId, { files: [blob(sample40)] });
    const before = await client.voices.pvc.samples.speakers.get(voiceId, s.sampleId!);
    expect(before.status).toBe("not_started");
    const started = await client.voices.pvc.samples.speakers.separate(voiceId, s.sampleId!);
    expect(started.status).toBe("ok");
    await stack.workflows.idle();
    const done = await client.voices.pvc.samples.speakers.get(voiceId, s.sampleId!);
    expect(done.status).toBe("completed");
    const ids = Object.keys(done.speakers ?? {});
    expect(ids).toEqual(["speaker_0"]);
    const sp = done.speakers!.speaker_0!;
    expect(sp.durationSecs).toBeGreaterThan(25);
    expect(sp.utterances!.length).toBeGreaterThan(2);
    // One speaker is selected for training at once.
    expect(done.selectedSpeakerIds).toEqual(["speaker_0"]);
    const audio = await client.voices.pvc.samples.speakers.audio.get(voiceId, s.sampleId!, "speaker_0");
    expect(audio.mediaType).toBe("audio/wav");
    expect(audio.durationSecs).toBe(sp.durationSecs);
    const wav = Buffer.from(audio.audioBase64, "base64");
    expect((wav.byteLength - 44) / 2 / 16_000).toBeCloseTo(sp.durationSecs, 0);
    await client.voices.pvc.samples.update(voiceId, s.sampleId!, { selectedSpeakerIds: ["speaker_0"] });
    const bad = await errorOf(client.voices.pvc.samples.update(voiceId, s.sampleId!, { selectedSpeakerIds: ["speaker_9"] }));
    expect(bad.detail.status).toBe("speaker_not_found");
    // A webhook event says it finished.
    const events = await stack.ctx.stores.events.list(acct.workspace.workspace_id, { type: "speaker_separation_finished" });
    expect(events[0].data).toMatchObject({ voice_id: voiceId, sample_id: s.sampleId, status: "completed", speakers: 1 });
    await client.voices.delete(voiceId);
  }, 90_000);

  it("refuses training before verification; verifies with the captcha (a PNG; the voice-verification workflow)", async () => {
    // A workspace of its own: the voice keeps its professional slot while it trains.
    const owner = await createTestAccount(stack, "creator");
    const client = new ElevenLabsClient({ baseUrl: stack.url, apiKey: owner.apiKey, maxRetries: 0 });
    const { voiceId } = await client.voices.pvc.create({ name: "Unverified", language: "en" });
    await client.voices.pvc.samples.create(voiceId, { files: [blob(sample40)], removeBackgroundNoise: false });
    const e = await errorOf(client.voices.pvc.train(voiceId, { modelId: "eleven_multilingual_v2" }));
    expect(e.status).toBe(403);
    expect(e.detail.status).toBe("voice_not_verified");

    // The captcha is a PNG of the words to read, drawn anew on every call; the SDK's call takes it.
    await client.voices.pvc.verification.captcha.get(voiceId);
    const image = async () => {
      const r = await apiFetch(stack, owner.apiKey, `/v1/voices/pvc/${voiceId}/captcha`);
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toBe("image/png");
      return Buffer.from(await r.arrayBuffer());
    };
    const [one, two] = [await image(), await image()];
    const png = PNG.sync.read(one);
    expect(png.width).toBeGreaterThan(200);
    expect(png.height).toBeGreaterThan(60);
    expect(one.equals(two)).toBe(false);
    // The words stay until an attempt uses them (the owner's API shows them as text too).
    const captcha = async () => {
      await image();
      const r = await apiFetch(stack, owner.apiKey, `/v1/voices/${voiceId}/verification`);
      return ((await r.json()) as { text: string }).text;
    };
    expect(await captcha()).toMatch(/^\p{L}+(, \p{L}+){5}\.?$/u);
    // The SDK's call, and its outcome: the answer, or (202: still deciding after the API's 8 s wait,
    // which a loaded machine reaches) the attempt's decision read back once the workflow is done.
    const verify = async (recording: Uint8Array): Promise<string> => {
      const r = await client.voices.pvc.verification.captcha.verify(voiceId, { recording: blob(recording) }).then(
        (ok) => ok.status,
        (x: unknown) => JSON.stringify((x as ElevenLabsError).body),
      );
      if (r !== "pending") return r;
      for (;;) {
        const s = (await (await apiFetch(stack, owner.apiKey, `/v1/voices/${voiceId}/verification`)).json()) as { pending_attempt_id: string | null; last_attempt: { status: string; reasons: string[] } };
        if (!s.pending_attempt_id) return s.last_attempt.status === "accepted" ? "ok" : JSON.stringify({ detail: { status: "verification_failed", reasons: s.last_attempt.reasons } });
        await new Promise((d) => setTimeout(d, 500));
      }
    };
    const silence = await verify(encodeWav(new Int16Array(16_000 * 2), 16_000));
    expect(silence).toContain("verification_failed");

    // The same speaker reading it passes. The speaker check refuses about one genuine reading in
    // twelve (functions/media/engine/README.md); a user then reads the next sentence, as here once.
    let passed = false;
    for (let tries = 0; tries < 2 && !passed; tries++) {
      const text = await captcha();
      const reading = encodeWav(floatToInt16(await speak(engine, voice(), text, { seed: 40 + tries })), 22_050);
      const r = await verify(reading);
      if (r === "ok") passed = true;
      else expect(r, "only a speaker refusal earns a second reading").toContain("does not match the voice");
    }
    expect(passed).toBe(true);
    expect((await client.voices.get(voiceId)).voiceVerification).toMatchObject({ requiresVerification: true, isVerified: true });
    // Verified, the gate is passed: what stops training now is the 40 s of audio.
    const after = await errorOf(client.voices.pvc.train(voiceId, { modelId: "eleven_multilingual_v2" }));
    expect(after.detail.status).toBe("not_enough_audio");
  }, 240_000);

  it("keeps other workspaces out of a clone and its samples", async () => {
    const { voiceId } = await client.voices.pvc.create({ name: "Private", language: "en" });
    const [s] = await client.voices.pvc.samples.create(voiceId, { files: [blob(sample40)] });
    const other = await createTestAccount(stack, "creator");
    const c = new ElevenLabsClient({ baseUrl: stack.url, apiKey: other.apiKey, maxRetries: 0 });
    for (const call of [
      () => c.voices.pvc.samples.waveform.get(voiceId, s.sampleId!),
      () => c.voices.pvc.samples.audio.get(voiceId, s.sampleId!),
      () => c.voices.pvc.update(voiceId, { name: "Mine now" }),
      () => c.voices.pvc.samples.delete(voiceId, s.sampleId!),
      () => c.voices.pvc.samples.speakers.separate(voiceId, s.sampleId!),
    ]) {
      expect((await errorOf(call())).status).toBe(404);
    }
    const signed = await apiFetch(stack, other.apiKey, `/v1/voices/${voiceId}/samples/${s.sampleId}/signed-url`);
    expect(signed.status).toBe(404);
    await client.voices.delete(voiceId);
  }, 60_000);
});

describe("SDK contract: forced alignment and language detection", () => {
  it("times each word of a recording of its text, in order, inside the recording", async () => {
    const text = "The quiet harbour woke slowly as the fishing boats returned with the tide.";
    const reading = await speak(engine, premadeVoices().find((v) => v.name === "Avery")!.profile, text, { seed: 5 });
    const seconds = reading.length / 22_050;
    const r = await client.forcedAlignment.create({ file: blob(encodeWav(floatToInt16(reading), 22_050)), text });
    const words = r.words.filter((w) => w.text.trim());
    expect(words.map((w) => w.text.trim())).toEqual(text.split(" "));
    for (const [i, w] of words.entries()) {
      expect(w.start).toBeLessThanOrEqual(w.end);
      expect(w.end).toBeLessThanOrEqual(seconds + 0.05);
      if (i > 0) expect(w.start).toBeGreaterThanOrEqual(words[i - 1].start);
    }
    // The words spread over the reading, not bunched at one end.
    expect(words[0].start).toBeLessThan(0.3 * seconds);
    expect(words[words.length - 1].end).toBeGreaterThan(0.7 * seconds);
    expect(r.characters.map((c) => c.text).join("")).toBe(text);
  }, 60_000);

  it("detects a text's language from its first 100 characters", async () => {
    const r = await apiFetch(stack, acct.apiKey, "/v1/text/detect-language", { method: "POST", body: JSON.stringify({ text: "Der kleine Hund läuft jeden Morgen mit seinem Besitzer durch den Park und über die Brücke." }) });
    expect(r.status).toBe(200);
    const body = (await r.json()) as { detected_languages: string[] };
    expect(body.detected_languages[0]).toBe("de");
  });
});

describe("signed sample URLs", () => {
  it("serve the sample from the product's origin for an hour, cached by the client", async () => {
    const { voiceId } = await client.voices.pvc.create({ name: "Signed", language: "en" });
    const [s] = await client.voices.pvc.samples.create(voiceId, { files: [blob(sample40)] });
    const r = await apiFetch(stack, acct.apiKey, `/v1/voices/${voiceId}/samples/${s.sampleId}/signed-url`);
    expect(r.headers.get("cache-control")).toBe("private, max-age=3600");
    const { signed_url } = (await r.json()) as { signed_url: string };
    expect(new URL(signed_url).origin).toBe(new URL(stack.url).origin);
    const audio = await fetch(signed_url);
    expect(audio.status).toBe(200);
    expect(audio.headers.get("content-type")).toBe("audio/wav");
    expect(Buffer.from(await audio.arrayBuffer()).equals(Buffer.from(sample40))).toBe(true);
    const part = await fetch(signed_url, { headers: { range: "bytes=0-3" } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).toString()).toBe("RIFF");
    const tampered = signed_url.replace(/X-Amz-Signature=[0-9a-f]{4}/, "X-Amz-Signature=0000");
    expect((await fetch(tampered)).status).toBe(403);
    await client.voices.delete(voiceId);
  }, 60_000);
});
