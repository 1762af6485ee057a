import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ElevenLabsClient, ElevenLabsError } from "@elevenlabs/elevenlabs-js";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { apiFetch, createTestAccount, startTestStack } from "../support/stack.js";
import { EspeakEngine } from "../../functions/media/engine/espeak/engine.js";
import { premadeVoices } from "../../functions/media/voice-analysis/fixtures/voices.js";
import { encodeWav } from "../../functions/media/audio/wav.js";
import { pvcMessages } from "../../functions/platform/contract/pvc.js";
import { speechWav } from "./support.js";

/**
 * A professional clone's samples keep their language (professional-voice-clone.md §3 'Local file
 * item' language, §5 'All audio samples must be in the same language' and rule 2, language-mismatch):
 * a sample's language is the voice's when it was added; a sample added in another language than
 * the others is refused, after the duration check (rule 1) and before the duplicate warning
 * (rule 3). Through the official SDK and the raw wire (the language is Timbre's own field).
 */
let stack: EmbeddedStack;
let engine: EspeakEngine;
let client: ElevenLabsClient;
let acct: Awaited<ReturnType<typeof createTestAccount>>;
let first: Uint8Array;
let second: Uint8Array;

beforeAll(async () => {
  [stack, engine] = await Promise.all([startTestStack(), new EspeakEngine()]);
  acct = await createTestAccount(stack, "creator");
  client = new ElevenLabsClient({ baseUrl: stack.url, apiKey: acct.apiKey, maxRetries: 0 });
  const voice = premadeVoices().find((v) => v.name === "Marcus")!.profile;
  first = await speechWav(engine, voice, 32, 11);
  second = await speechWav(engine, voice, 32, 12);
}, 120_000);
afterAll(async () => {
  await engine?.close();
  await stack?.close();
});

const file = (b: Uint8Array, name = "take.wav") => new File([Buffer.from(b)], name, { type: "audio/wav" });
const errorOf = async (p: Promise<unknown>) => {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(ElevenLabsError);
  const err = e as ElevenLabsError;
  return { status: err.statusCode, detail: (err.body as { detail: { status: string; message: string } }).detail };
};
const wireSamples = async (voiceId: string) =>
  ((await (await apiFetch(stack, acct.apiKey, `/v1/voices/${voiceId}`)).json()) as { samples: Array<{ sample_id: string; language: string | null }> }).samples;

describe("professional clone samples keep their language", () => {
  it("stores the voice's language on each sample and refuses a sample in another language, in the spec's order", async () => {
    const { voiceId } = await client.voices.pvc.create({ name: "Languages", language: "en" });
    await client.voices.pvc.samples.create(voiceId, { files: [file(first)] });
    // Timbre's own field on the voice's samples.
    expect((await wireSamples(voiceId)).map((s) => s.language)).toEqual(["en"]);

    // The voice now says German: a new sample would be German, unlike the English one.
    await client.voices.pvc.update(voiceId, { language: "de" });
    const mismatch = await errorOf(client.voices.pvc.samples.create(voiceId, { files: [file(second)] }));
    expect(mismatch).toEqual({ status: 400, detail: { status: "language-mismatch", message: pvcMessages.sameLanguage } });
    expect(pvcMessages.sameLanguage).toBe("All audio samples must be in the same language");

    // Rule 1 before rule 2: a short file says it is too short, whatever its language.
    const short = encodeWav(new Int16Array(16_000 * 20).map((_, i) => Math.round(3000 * Math.sin(i / 7))), 16_000);
    expect((await errorOf(client.voices.pvc.samples.create(voiceId, { files: [file(short)] }))).detail.status).toBe("min-duration");
    // Rule 2 before rule 3: the English sample again is a language mismatch first, skipped duplicate warning or not.
    expect((await errorOf(client.voices.pvc.samples.create(voiceId, { files: [file(first)] }))).detail.status).toBe("language-mismatch");
    const skip = await apiFetch(stack, acct.apiKey, `/v1/voices/pvc/${voiceId}/samples?skip_warnings=duplicate_file`, { method: "POST", body: formOf(first) });
    expect(skip.status).toBe(400);
    expect(((await skip.json()) as { detail: { status: string } }).detail.status).toBe("language-mismatch");
    expect(await wireSamples(voiceId)).toHaveLength(1);

    // Back in English, the second sample is taken, and in English the duplicate is only the skippable warning.
    await client.voices.pvc.update(voiceId, { language: "en" });
    await client.voices.pvc.samples.create(voiceId, { files: [file(second)] });
    expect((await errorOf(client.voices.pvc.samples.create(voiceId, { files: [file(first)] }))).detail.status).toBe("duplicate_file");
    expect((await wireSamples(voiceId)).map((s) => s.language)).toEqual(["en", "en"]);

    // With no samples left, any language goes, and the new sample is in it.
    for (const s of await wireSamples(voiceId)) await client.voices.pvc.samples.delete(voiceId, s.sample_id);
    await client.voices.pvc.update(voiceId, { language: "de" });
    await client.voices.pvc.samples.create(voiceId, { files: [file(first)] });
    expect((await wireSamples(voiceId)).map((s) => s.language)).toEqual(["de"]);
    await client.voices.delete(voiceId);
  }, 120_000);

  it("checks a presigned upload's language when it completes, like the SDK's call", async () => {
    const { voiceId } = await client.voices.pvc.create({ name: "Presigned", language: "fr" });
    await client.voices.pvc.samples.create(voiceId, { files: [file(first)] });
    await client.voices.pvc.update(voiceId, { language: "it" });
    const start = await apiFetch(stack, acct.apiKey, `/v1/voices/pvc/${voiceId}/uploads`, {
      method: "POST",
      body: JSON.stringify({ file_name: "second.wav", content_type: "audio/wav", size_bytes: second.byteLength }),
    });
    expect(start.status).toBe(200);
    const ticket = (await start.json()) as { upload_id: string; url: string; headers: Record<string, string> };
    const put = await fetch(ticket.url, { method: "PUT", headers: ticket.headers, body: Buffer.from(second) });
    expect(put.ok).toBe(true);
    const done = await apiFetch(stack, acct.apiKey, `/v1/voices/pvc/${voiceId}/uploads/${ticket.upload_id}/complete`, { method: "POST" });
    expect(done.status).toBe(400);
    expect(((await done.json()) as { detail: { status: string; message: string } }).detail).toEqual({ status: "language-mismatch", message: pvcMessages.sameLanguage });
    expect((await wireSamples(voiceId)).map((s) => s.language)).toEqual(["fr"]);
    await client.voices.delete(voiceId);
  }, 60_000);
});

function formOf(bytes: Uint8Array): FormData {
  const form = new FormData();
  form.append("files", file(bytes));
  return form;
}
