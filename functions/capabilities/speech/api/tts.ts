import { createHash } from "node:crypto";
import { accessibleVoice } from "../../voices/access.js";
import type { z } from "zod";
import type { AppContext } from "../../../platform/context.js";
import type { Caller } from "../../../platform/domain/caller.js";
import { TextToSpeechBody, DialogueBody, SpeechQuery } from "../../../platform/contract/speech.js";
import { parseOutputFormat } from "../../../media/audio/formats.js";
import { mergeSettings } from "../../../platform/domain/voiceSettings.js";
import {
  assertLanguage,
  assertOutputFormat,
  assertVoiceUsable,
  maxTextLength,
  resolveTtsModel,
  DEFAULT_DIALOGUE_MODEL_ID,
  DIALOGUE_MAX_BLOCKS,
  dialogueMessages,
} from "../../../platform/domain/speechRules.js";
import { wholeAudio } from "../../../media/audio/encoder.js";
import { admit, refuseKnownKeyWhenQueueFull, rememberKey } from "../slots.js";
import { startGeneration, type Generation, type GenerationChunk, type GenerationRequest, type SpeechPart } from "../generate.js";
import { dictionaryPronunciation } from "../../dictionaries/speech.js";
import { ApiError, ValidationError } from "../../../platform/http/errors.js";
import { codePointLength } from "../../../platform/contract/text.js";
import type { ApiRouter, RouteContext } from "../../../platform/http/app.js";
import { bytes, json, stream, type ApiRequest, type ApiResponse } from "../../../platform/http/types.js";
import { jsonBody, queryParams } from "../../../platform/http/validate.js";
import { settingsFor, voiceNotFound } from "../../voices/api/voices.js";
import type { VoiceRecord } from "../../../platform/stores/voices.js";
import type { ModelInfo } from "../../../platform/domain/models.js";
import { libraryTerms, recordLibraryUsage } from "../../voices/library.js";

interface Mode {
  streaming: boolean;
  timestamps: boolean;
}

/**
 * A voice the caller may speak with now, and its credit rate (a library voice's custom rate).
 * `model`: text to speech checks that a professional voice is fine-tuned for it; speech to speech passes none.
 */
export async function voiceFor(ctx: AppContext, caller: Caller, voiceId: string, model?: ModelInfo): Promise<{ voice: VoiceRecord; rate: number }> {
  const v = await accessibleVoice(ctx, caller, voiceId);
  if (!v) throw voiceNotFound(voiceId);
  assertVoiceUsable(v, model);
  return { voice: v, rate: (await libraryTerms(ctx, caller, v)).rate };
}

const generationDeps = (caller: Caller) => ({ pronunciation: dictionaryPronunciation(caller), onGenerated: recordLibraryUsage });

/**
 * The client's Idempotency-Key and what it is bound to: who asked, at which endpoint, with
 * which query and body. A retry sends all of these again unchanged; anything else is another
 * request and may not borrow the key.
 */
export function idempotency(req: ApiRequest, caller: Caller): { key: string; fingerprint: string } | null {
  const raw = req.headers["idempotency-key"];
  if (raw === undefined) return null;
  const key = raw.trim();
  if (!/^[\w.:-]{8,128}$/.test(key)) {
    throw new ValidationError([{ loc: ["header", "idempotency-key"], msg: "An idempotency key is 8 to 128 letters, digits, or . _ : -", type: "value_error" }]);
  }
  const query = [...req.query.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const fingerprint = createHash("sha256")
    .update(JSON.stringify([caller.workspaceId, caller.userId, req.method, req.path, query]))
    .update(req.body)
    .digest("hex");
  return { key, fingerprint };
}

/** The request fields text to speech and dialogue share, as the generation wants them. */
function sharedFields(
  req: ApiRequest,
  caller: Caller,
  body: Pick<TextToSpeechBody, "seed" | "language_code" | "apply_text_normalization" | "previous_text" | "pronunciation_dictionary_locators">,
  query: { output_format: string; enable_logging: boolean },
) {
  return {
    seed: body.seed ?? null,
    languageCode: body.language_code ?? null,
    normalization: body.apply_text_normalization ?? "auto",
    previousText: body.previous_text ?? null,
    locators: (body.pronunciation_dictionary_locators ?? []).map((l) => ({ pronunciation_dictionary_id: l.pronunciation_dictionary_id, version_id: l.version_id ?? null })),
    format: parseOutputFormat(query.output_format),
    enableLogging: query.enable_logging,
    requestId: req.requestId,
    idempotency: idempotency(req, caller),
    receivedAt: req.receivedAt,
    signal: req.signal,
  };
}

/** Shapes a generation into the four response forms: raw or NDJSON, streamed or whole. */
async function respond(gen: Generation, mode: Mode, dialogue: boolean): Promise<ApiResponse> {
  const headers = gen.headers;
  if (!mode.timestamps) {
    // A stream cannot know its length when its first frame goes out, so a streamed MP3 has no
    // Info frame (decoders play LAME's delay and padding); whole answers are files with one.
    if (mode.streaming) {
      return stream((async function* () {
        for await (const c of gen.chunks) if (c.audio.byteLength) yield c.audio;
      })(), gen.contentType, headers);
    }
    const parts: GenerationChunk[] = [];
    for await (const c of gen.chunks) parts.push(c);
    return bytes(wholeAudio(gen.format, parts), gen.contentType, headers);
  }
  if (mode.streaming) {
    return stream((async function* () {
      for await (const c of gen.chunks) {
        if (!c.audio.byteLength && !c.alignment.characters.length) continue;
        const line: Record<string, unknown> = { audio_base64: Buffer.from(c.audio).toString("base64"), alignment: c.alignment, normalized_alignment: c.normalizedAlignment };
        if (dialogue) line.voice_segments = [];
        yield Buffer.from(JSON.stringify(line) + "\n");
      }
      if (dialogue) {
        const last = { audio_base64: "", alignment: null, normalized_alignment: null, voice_segments: gen.voiceSegments() };
        yield Buffer.from(JSON.stringify(last) + "\n");
      }
    })(), "application/x-ndjson", headers);
  }
  const audio: GenerationChunk[] = [];
  const align = { characters: [] as string[], character_start_times_seconds: [] as number[], character_end_times_seconds: [] as number[] };
  const norm = { characters: [] as string[], character_start_times_seconds: [] as number[], character_end_times_seconds: [] as number[] };
  for await (const c of gen.chunks) {
    audio.push(c);
    for (const [into, from] of [[align, c.alignment], [norm, c.normalizedAlignment]] as const) {
      into.characters.push(...from.characters);
      into.character_start_times_seconds.push(...from.character_start_times_seconds);
      into.character_end_times_seconds.push(...from.character_end_times_seconds);
    }
  }
  const body: Record<string, unknown> = { audio_base64: Buffer.from(wholeAudio(gen.format, audio)).toString("base64"), alignment: align, normalized_alignment: norm };
  if (dialogue) body.voice_segments = gen.voiceSegments();
  return json(body, 200, headers);
}

/** A known API key whose workspace's queue is full: 429 before its credentials are read (slots.ts). */
const refuseEarly = (req: ApiRequest, rc: RouteContext) => refuseKnownKeyWhenQueueFull(rc.app, req.headers["xi-api-key"]);

/**
 * What both endpoints do first: a known key whose workspace's queue is full is refused from
 * memory; then the credentials (the key remembered for that), and the queue's room, again from
 * memory once the workspace's plan is known here (slots.ts `admit`). Admitted, `handle` runs holding a place in the queue until it takes a slot.
 */
async function admitted(req: ApiRequest, rc: RouteContext, handle: () => Promise<ApiResponse>): Promise<ApiResponse> {
  const paused = await refuseEarly(req, rc);
  const caller = await rc.caller();
  if (caller.principal.via === "api_key") rememberKey(rc.app, req.headers["xi-api-key"], caller.workspaceId);
  const admission = await admit(rc.app, caller, paused);
  try {
    return await handle();
  } finally {
    admission.done();
  }
}

/** What both endpoints check first: permission, query, body, model, language and the plan's formats. */
async function checkRequest<S extends typeof TextToSpeechBody | typeof DialogueBody>(req: ApiRequest, rc: RouteContext, mode: Mode, schema: S, defaultModel?: string) {
  const caller = await rc.caller();
  // The permission and the plan are separate reads: one round trip instead of two before the audio.
  const tier = caller.tier();
  tier.catch(() => undefined);
  await caller.require("text_to_speech");
  const query = queryParams(req, SpeechQuery(mode.streaming));
  const body: z.infer<S> = jsonBody(req, schema);
  const model = resolveTtsModel(body.model_id, defaultModel);
  assertLanguage(model, body.language_code);
  assertOutputFormat(await tier, query.output_format);
  return { caller, query, body, model };
}

const textToSpeech = (req: ApiRequest, rc: RouteContext, mode: Mode) => admitted(req, rc, () => textToSpeechAdmitted(req, rc, mode));

async function textToSpeechAdmitted(req: ApiRequest, rc: RouteContext, mode: Mode): Promise<ApiResponse> {
  const ctx = rc.app;
  // The workspace's settings for the voice are read while the permission and the plan are
  // checked (one round trip less before the audio); they are used only once those pass.
  const voiceId = req.params.voice_id;
  const early = { voiceId, settings: rc.caller().then((c) => ctx.stores.voices.workspaceSettings(c.workspaceId, voiceId)) };
  early.settings.catch(() => undefined);
  const { caller, query, body, model } = await checkRequest(req, rc, mode, TextToSpeechBody);
  if (!body.text.trim()) throw new ValidationError([{ loc: ["body", "text"], msg: "Text must not be empty", type: "value_error" }]);
  const limit = maxTextLength(model);
  const length = codePointLength(body.text.trim());
  if (length > limit) {
    throw new ApiError(400, "max_character_limit_exceeded", `The text is ${length} characters long; ${model.model_id} accepts at most ${limit} per request.`);
  }
  const { voice, rate } = await voiceFor(ctx, caller, req.params.voice_id, model);
  const settings = mergeSettings(await settingsFor(ctx, caller, voice, early), body.voice_settings);
  const g: GenerationRequest = {
    kind: "tts",
    parts: [{ voice, text: body.text, settings, rate }],
    model,
    ...sharedFields(req, caller, body, query),
    wholeAnswer: !mode.streaming,
    nextText: body.next_text ?? null,
    optimizeStreamingLatency: query.optimize_streaming_latency ?? null,
  };
  return respond(await startGeneration(ctx, caller, g, generationDeps(caller)), mode, false);
}

/** Stability in dialogue moves in steps of 0.5 (speech-generation.md §5). */
const roundHalf = (x: number) => Math.round(x * 2) / 2;

const textToDialogue = (req: ApiRequest, rc: RouteContext, mode: Mode) => admitted(req, rc, () => textToDialogueAdmitted(req, rc, mode));

async function textToDialogueAdmitted(req: ApiRequest, rc: RouteContext, mode: Mode): Promise<ApiResponse> {
  const ctx = rc.app;
  const { caller, query, body, model } = await checkRequest(req, rc, mode, DialogueBody, DEFAULT_DIALOGUE_MODEL_ID);
  // Empty blocks are ignored.
  const inputs = body.inputs.map((input, index) => ({ ...input, index })).filter((i) => i.text.trim());
  if (!inputs.length) throw new ValidationError([{ loc: ["body", "inputs"], msg: "Text must not be empty", type: "value_error" }]);
  if (inputs.length > DIALOGUE_MAX_BLOCKS) throw new ValidationError([{ loc: ["body", "inputs"], msg: dialogueMessages.tooManyBlocks, type: "too_long" }]);
  const limit = maxTextLength(model);
  const total = inputs.reduce((n, i) => n + codePointLength(i.text.trim()), 0);
  if (total > limit) throw new ApiError(400, "max_character_limit_exceeded", dialogueMessages.tooManyCharacters(limit));

  const voices = new Map<string, { voice: VoiceRecord; rate: number }>();
  for (const id of new Set(inputs.map((i) => i.voice_id))) voices.set(id, await voiceFor(ctx, caller, id, model));
  const parts: SpeechPart[] = [];
  for (const input of inputs) {
    const { voice, rate } = voices.get(input.voice_id)!;
    const base = await settingsFor(ctx, caller, voice);
    const stability = body.settings?.stability;
    parts.push({
      voice,
      rate,
      text: input.text,
      settings: mergeSettings(base, {
        stability: roundHalf(stability ?? base.stability),
        similarity_boost: body.settings?.similarity ?? undefined,
        volume: body.settings?.volume ?? undefined,
      }),
    });
  }
  const g: GenerationRequest = {
    kind: "dialogue",
    parts,
    model,
    ...sharedFields(req, caller, body, query),
    wholeAnswer: !mode.streaming,
    nextText: body.future_text ?? null,
    optimizeStreamingLatency: null,
  };
  return respond(await startGeneration(ctx, caller, g, generationDeps(caller)), mode, true);
}

export function registerTextToSpeech(r: ApiRouter): void {
  const tts = (mode: Mode) => (req: ApiRequest, rc: RouteContext) => textToSpeech(req, rc, mode);
  r.post("/v1/text-to-speech/:voice_id", tts({ streaming: false, timestamps: false }));
  r.post("/v1/text-to-speech/:voice_id/stream", tts({ streaming: true, timestamps: false }));
  r.post("/v1/text-to-speech/:voice_id/with-timestamps", tts({ streaming: false, timestamps: true }));
  r.post("/v1/text-to-speech/:voice_id/stream/with-timestamps", tts({ streaming: true, timestamps: true }));

  const dialogue = (mode: Mode) => (req: ApiRequest, rc: RouteContext) => textToDialogue(req, rc, mode);
  r.post("/v1/text-to-dialogue", dialogue({ streaming: false, timestamps: false }));
  r.post("/v1/text-to-dialogue/stream", dialogue({ streaming: true, timestamps: false }));
  r.post("/v1/text-to-dialogue/with-timestamps", dialogue({ streaming: false, timestamps: true }));
  r.post("/v1/text-to-dialogue/stream/with-timestamps", dialogue({ streaming: true, timestamps: true }));
}
