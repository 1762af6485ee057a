import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ElevenLabsClient, ElevenLabsError } from "@elevenlabs/elevenlabs-js";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { startTestStack, createTestAccount, apiFetch } from "../support/stack.js";
import { probe, readAll, hasFfmpeg } from "../support/audio.js";
import { currentUsage } from "../../functions/platform/domain/credits.js";
import { designMessages, PREVIEW_TEXT_MAX, PREVIEW_TEXT_MIN } from "../../functions/platform/contract/voiceCreation.js";
import { encodeWav } from "../../functions/media/audio/wav.js";
import { profileFromLabels } from "../../functions/media/engine/espeak/voices.js";
import { speakPcm } from "../../functions/capabilities/voice-clone/render.js";

/**
 * Voice Design through the official SDK, unchanged, against the embedded stack and the real
 * engine: design -> three previews -> save one as a voice -> speak with it; the legacy previews
 * call, remix, preview streaming, the refusals and what is charged.
 */
let stack: EmbeddedStack;
let acct: Awaited<ReturnType<typeof createTestAccount>>;
let client: ElevenLabsClient;

beforeAll(async () => {
  stack = await startTestStack();
  acct = await createTestAccount(stack, "creator");
  client = new ElevenLabsClient({ baseUrl: stack.url, apiKey: acct.apiKey, maxRetries: 0 });
});
afterAll(async () => stack?.close());

const TEXT =
  "The lighthouse keeper climbed the stairs every evening at dusk, lit the great lamp and watched the ships pass safely through the narrow channel below.";
const used = async () => (await currentUsage(stack.ctx, acct.workspace.workspace_id)).character_count;

const errorOf = async (p: Promise<unknown>) => {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(ElevenLabsError);
  const err = e as ElevenLabsError;
  return { status: err.statusCode, body: err.body as { detail: { status: string; message: string } | Array<{ msg: string; loc: unknown[] }> } };
};

describe("design -> three previews -> a voice -> speech", () => {
  it("designs three distinct, decodable previews, saves one and speaks with it", async () => {
    const before = await used();
    const r = await client.textToVoice.design({ voiceDescription: "a deep, slow, elderly British man with a warm voice", text: TEXT, seed: 42, modelId: "eleven_multilingual_ttv_v2" });
    expect(r.text).toBe(TEXT);
    expect(r.previews).toHaveLength(3);
    expect(new Set(r.previews.map((p) => p.generatedVoiceId)).size).toBe(3);
    expect(new Set(r.previews.map((p) => p.audioBase64)).size).toBe(3);
    for (const p of r.previews) {
      expect(p.mediaType).toBe("audio/mpeg");
      expect(p.language).toBe("en");
      expect(p.durationSecs).toBeGreaterThan(5);
      if (hasFfmpeg) expect((await probe(Buffer.from(p.audioBase64, "base64"))).codec).toBe("mp3");
    }
    // The preview text is charged once per call.
    expect((await used()) - before).toBe(TEXT.length);

    const voice = await client.textToVoice.create({
      voiceName: "Lighthouse keeper",
      voiceDescription: "a deep, slow, elderly British man with a warm voice",
      generatedVoiceId: r.previews[1].generatedVoiceId,
      labels: { use_case: "narrative_story" },
      playedNotSelectedVoiceIds: [r.previews[0].generatedVoiceId],
    });
    expect(voice.name).toBe("Lighthouse keeper");
    expect(voice.category).toBe("generated");
    expect(voice.labels).toMatchObject({ language: "en", accent: "british", gender: "male", age: "old", use_case: "narrative_story", descriptive: "deep" });
    expect(voice.voiceVerification?.requiresVerification).toBe(false);
    expect(voice.previewUrl).toContain(`/v1/voices/${voice.voiceId}/preview`);

    const speech = await readAll(await client.textToSpeech.convert(voice.voiceId, { text: "Good evening. The lamp is lit." }));
    expect(speech.bytes.byteLength).toBeGreaterThan(2000);
    const listed = await client.voices.getAll();
    expect(listed.voices.map((v) => v.voiceId)).toContain(voice.voiceId);
    // A saved preview cannot be saved twice.
    const again = await errorOf(client.textToVoice.create({ voiceName: "Twice", voiceDescription: "x", generatedVoiceId: r.previews[1].generatedVoiceId }));
    expect(again.status).toBe(400);
    expect((again.body.detail as { status: string }).status).toBe("invalid_generated_voice_id");
  });

  it("is reproducible with the same seed, and differs with another", async () => {
    const a = await client.textToVoice.design({ voiceDescription: "a bright young American woman, fast and cheerful", text: TEXT, seed: 7 });
    const b = await client.textToVoice.design({ voiceDescription: "a bright young American woman, fast and cheerful", text: TEXT, seed: 7 });
    const c = await client.textToVoice.design({ voiceDescription: "a bright young American woman, fast and cheerful", text: TEXT, seed: 8 });
    expect(a.previews.map((p) => p.audioBase64)).toEqual(b.previews.map((p) => p.audioBase64));
    expect(a.previews[0].audioBase64).not.toBe(c.previews[0].audioBase64);
  });

  it("the legacy previews call works, writes its own preview text on request and streams previews", async () => {
    const r = await client.textToVoice.createPreviews({ voiceDescription: "Une voix de femme française, calme et douce, pour la méditation", autoGenerateText: true, outputFormat: "mp3_22050_32" });
    expect(r.text.length).toBeGreaterThanOrEqual(PREVIEW_TEXT_MIN);
    expect(r.text).toMatch(/[éèà]/);
    expect(r.previews.every((p) => p.language === "fr")).toBe(true);
    const streamed = await readAll(await client.textToVoice.preview.stream(r.previews[0].generatedVoiceId));
    expect(Buffer.from(streamed.bytes).toString("base64")).toBe(r.previews[0].audioBase64);
  });

  it("remixes a voice: the description moves the voice's own profile", async () => {
    const base = await client.textToVoice.design({ voiceDescription: "a calm middle-aged woman reading the news", text: TEXT, seed: 3 });
    const saved = await client.textToVoice.create({ voiceName: "Anchor", voiceDescription: "news", generatedVoiceId: base.previews[0].generatedVoiceId });
    const remix = await client.textToVoice.remix(saved.voiceId, { voiceDescription: "make her much faster and higher", text: TEXT, seed: 5 });
    expect(remix.previews).toHaveLength(3);
    const original = (await stack.ctx.stores.voices.get(acct.workspace.workspace_id, saved.voiceId))!.profile;
    for (const p of remix.previews) {
      const g = (await stack.ctx.stores.generatedVoices.get(acct.workspace.workspace_id, p.generatedVoiceId, Math.floor(Date.now() / 1000)))!;
      expect(g.kind).toBe("remix");
      expect(g.profile.rate).toBeGreaterThan(original.rate);
      expect(g.profile.pitch).toBeGreaterThan(original.pitch);
      expect(g.profile.gender).toBe(original.gender);
    }
  });
});

describe("what the engine will not do", () => {
  it("refuses to imitate a named real person with blocked_generation, and charges nothing", async () => {
    const before = await used();
    for (const voiceDescription of ["an old man who sounds exactly like Morgan Freeman", "Eine Stimme wie Angela Merkel, ruhig und sachlich", "in the voice of Jane Doe, the news anchor"]) {
      const e = await errorOf(client.textToVoice.design({ voiceDescription, text: TEXT }));
      expect(e.status).toBe(400);
      expect(e.body.detail).toEqual({ status: "blocked_generation", message: designMessages.blockedGeneration });
    }
    expect(await used()).toBe(before);
  });

  it("says so when asked for a language it does not speak", async () => {
    const e = await errorOf(client.textToVoice.design({ voiceDescription: "a young woman speaking Japanese, cheerful and bright", text: TEXT }));
    expect(e.status).toBe(400);
    const d = e.body.detail as { status: string; message: string };
    expect(d.status).toBe("unsupported_language");
    expect(d.message).toContain("Japanese");
    expect(d.message).toContain("English");
  });

  it("checks the prompt and the preview text with the spec's messages", async () => {
    const short = await errorOf(client.textToVoice.design({ voiceDescription: "a deep voice", text: TEXT }));
    expect(short.status).toBe(422);
    expect((short.body.detail as Array<{ msg: string }>)[0].msg).toBe(designMessages.promptTooShort);
    const long = await errorOf(client.textToVoice.design({ voiceDescription: "a".repeat(1000), text: TEXT }));
    expect((long.body.detail as Array<{ msg: string }>)[0].msg).toBe(designMessages.promptTooLong);
    const none = await errorOf(client.textToVoice.design({ voiceDescription: "a deep, slow, elderly British man" }));
    expect((none.body.detail as Array<{ msg: string }>)[0].msg).toBe(designMessages.previewTextRequired);
    const tooShort = await errorOf(client.textToVoice.design({ voiceDescription: "a deep, slow, elderly British man", text: "Too short." }));
    expect((tooShort.body.detail as Array<{ msg: string }>)[0].msg).toBe(designMessages.previewTextRange(PREVIEW_TEXT_MIN, PREVIEW_TEXT_MAX));
  });

  it("refuses reference audio outside the newer model, and too short or someone else's reference voice", async () => {
    const wav = (seconds: number) => Buffer.from(encodeWav(new Int16Array(Math.round(seconds * 16000)).map((_, i) => Math.round(6000 * Math.sin(i / 9))), 16000)).toString("base64");
    const old = await errorOf(client.textToVoice.design({ voiceDescription: "a deep, slow, elderly British man", text: TEXT, referenceAudioBase64: wav(5) }));
    expect((old.body.detail as { status: string }).status).toBe("reference_needs_v3");
    const short = await errorOf(client.textToVoice.design({ voiceDescription: "a deep, slow, elderly British man", text: TEXT, modelId: "eleven_ttv_v3", referenceAudioBase64: wav(2) }));
    expect((short.body.detail as { message: string }).message).toBe(designMessages.referenceTooShort);
    const other = await createTestAccount(stack, "creator");
    const res = await apiFetch(stack, other.apiKey, "/v1/text-to-voice/design", {
      method: "POST",
      body: JSON.stringify({ voice_description: "a deep, slow, elderly British man", text: TEXT, model_id: "eleven_ttv_v3", reference_voice_id: "AAAAAAAAAAAAAAAAAAAA" }),
    });
    expect(res.status).toBe(403);
  });
});

describe("reference voice (eleven_ttv_v3)", () => {
  it("blends an analysed recording with the prompt by prompt_strength", async () => {
    // A high female voice as the reference recording.
    const refProfile = profileFromLabels({ language: "en", gender: "female", age: "young" }, 11);
    const { samples, sampleRate } = await speakPcm(stack.ctx, { ...refProfile, pitch: 75 }, TEXT + " " + TEXT);
    const pcm = Int16Array.from(samples, (v) => Math.round(v * 32767));
    const referenceAudioBase64 = Buffer.from(encodeWav(pcm, sampleRate)).toString("base64");
    const prompt = "a deep, slow, elderly man";
    const mostlyReference = await client.textToVoice.design({ voiceDescription: prompt, text: TEXT, modelId: "eleven_ttv_v3", referenceAudioBase64, promptStrength: 0, seed: 1 });
    const mostlyPrompt = await client.textToVoice.design({ voiceDescription: prompt, text: TEXT, modelId: "eleven_ttv_v3", referenceAudioBase64, promptStrength: 1, seed: 1 });
    const ws = acct.workspace.workspace_id;
    const now = Math.floor(Date.now() / 1000);
    const profileOf = async (id: string) => (await stack.ctx.stores.generatedVoices.get(ws, id, now))!.profile;
    const ref = await profileOf(mostlyReference.previews[0].generatedVoiceId);
    const pr = await profileOf(mostlyPrompt.previews[0].generatedVoiceId);
    expect(ref.gender).toBe("female");
    expect(pr.gender).toBe("male");
    expect(pr.age).toBe("old");
    expect(pr.rate).toBeLessThan(ref.rate);
  });
});

describe("Timbre's helpers for the dialog", () => {
  it("answers the text limits and writes preview text in the description's language", async () => {
    const limits = await (await apiFetch(stack, acct.apiKey, "/v1/text-to-voice/text-limits")).json();
    expect(limits).toEqual({ minimum_characters: PREVIEW_TEXT_MIN, maximum_characters: PREVIEW_TEXT_MAX });
    const res = await apiFetch(stack, acct.apiKey, "/v1/text-to-voice/generate-preview-text", {
      method: "POST",
      body: JSON.stringify({ voice_description: "Eine ruhige, tiefe Männerstimme für Hörbücher", model_id: "eleven_ttv_v3" }),
    });
    const body = (await res.json()) as { text: string };
    expect(res.status).toBe(200);
    expect(body.text.length).toBeGreaterThanOrEqual(PREVIEW_TEXT_MIN);
    expect(body.text).toMatch(/\b(und|der|die|das)\b/);
  });
});
