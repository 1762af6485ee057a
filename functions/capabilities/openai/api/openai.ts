import type { AppContext } from "../../../platform/context.js";
import type { Caller } from "../../../platform/domain/caller.js";
import type { ModelInfo } from "../../../platform/domain/models.js";
import type { VoiceRecord } from "../../../platform/stores/voices.js";
import type { ApiRouter, RouteContext } from "../../../platform/http/app.js";
import { bytes, json, stream, type ApiRequest, type ApiResponse } from "../../../platform/http/types.js";
import { jsonBody } from "../../../platform/http/validate.js";
import { PATH_ID } from "../../../platform/contract/ids.js";
import { codePointLength } from "../../../platform/contract/text.js";
import { assertOutputFormat, assertVoiceUsable } from "../../../platform/domain/speechRules.js";
import {
  OPENAI_BASE_PATH,
  OPENAI_MAX_INPUT,
  OPENAI_MAX_INSTRUCTIONS,
  OPENAI_RESPONSE_FORMATS,
  OPENAI_SPEED_MAX,
  OPENAI_SPEED_MIN,
  OpenAISpeechBody,
  openaiMessages,
  type OpenAIResponseFormat,
} from "../../../platform/contract/openai.js";
import { parseOutputFormat } from "../../../media/audio/formats.js";
import { wholeAudio } from "../../../media/audio/encoder.js";
import { runCpu } from "../../../platform/offload/index.js";
import { accessibleVoice } from "../../voices/access.js";
import { visibleVoices } from "../../voices/manage.js";
import { settingsFor } from "../../voices/api/voices.js";
import { libraryTerms, recordLibraryUsage } from "../../voices/library.js";
import { dictionaryPronunciation } from "../../dictionaries/speech.js";
import { idempotency, voiceFor } from "../../speech/api/tts.js";
import { admit, refuseKnownKeyWhenQueueFull, rememberKey } from "../../speech/slots.js";
import { startGeneration, type GenerationChunk, type GenerationRequest } from "../../speech/generate.js";
import { inOpenAIShape, invalidRequest, OpenAIError } from "../errors.js";
import {
  acceptedModelNames,
  blendConflict,
  blendName,
  blendProfiles,
  clampSpeed,
  OPENAI_MODELS,
  OPENAI_VOICES,
  openaiVoiceId,
  parseBlend,
  readInstructions,
  RESPONSE_FORMATS,
  SUPPORTED_RESPONSE_FORMATS,
  timbreModel,
} from "../mapping.js";

/**
 * OpenAI's speech API on Timbre (issue 25 §4): `POST /openai/v1/audio/speech` speaks through the
 * same generation as /v1/text-to-speech (permission, plan formats, concurrency slots, credits,
 * dictionaries, history), with OpenAI's request, streaming and error shapes.
 */

/** The API key: `Authorization: Bearer sk_...` as OpenAI clients send it, or Timbre's xi-api-key. */
function apiKeyOf(req: ApiRequest): string | undefined {
  return req.headers["xi-api-key"]?.trim() || /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
}

async function authenticated(req: ApiRequest, rc: RouteContext): Promise<Caller> {
  if (!req.headers["xi-api-key"] && !req.headers.authorization) throw new OpenAIError(401, "invalid_request_error", openaiMessages.missingKey, null, "invalid_api_key");
  return rc.caller();
}

interface ResolvedVoice {
  voice: VoiceRecord;
  rate: number;
  /** The voice whose workspace settings apply (the heaviest of a blend). */
  base: VoiceRecord;
}

/** Resolves the `voice` field: an id, a name (the workspace's own first), an OpenAI voice name, or a blend. */
class VoiceResolver {
  private visible?: Promise<VoiceRecord[]>;
  constructor(
    private readonly ctx: AppContext,
    private readonly caller: Caller,
    private readonly model: ModelInfo,
  ) {}

  /** One voice by id, name or OpenAI name; undefined when none matches. */
  async one(ref: string): Promise<VoiceRecord | undefined> {
    if (PATH_ID.test(ref)) {
      const byId = await accessibleVoice(this.ctx, this.caller, ref);
      if (byId) return byId;
    }
    this.visible ??= visibleVoices(this.ctx, this.caller);
    const all = await this.visible;
    const name = ref.toLowerCase();
    const named = all.filter((v) => v.name.toLowerCase() === name);
    const own = named.find((v) => v.workspace_id !== null) ?? named[0];
    if (own) return own;
    const alias = openaiVoiceId(ref);
    return alias ? accessibleVoice(this.ctx, this.caller, alias) : undefined;
  }

  async resolve(voice: string | { id: string }): Promise<ResolvedVoice> {
    const ref = (typeof voice === "string" ? voice : voice.id).trim();
    const single = await this.one(ref);
    if (single) {
      const { voice: v, rate } = await voiceFor(this.ctx, this.caller, single.voice_id, this.model);
      return { voice: v, rate, base: v };
    }
    let terms;
    try {
      terms = parseBlend(ref);
    } catch {
      throw invalidRequest(openaiMessages.blendSyntax(ref), "voice", "invalid_voice_blend");
    }
    if (!terms) throw new OpenAIError(404, "invalid_request_error", openaiMessages.unknownVoice(ref), "voice", "voice_not_found");
    const found: Array<{ voice: VoiceRecord; weight: number; rate: number }> = [];
    for (const t of terms) {
      const v = await this.one(t.ref);
      if (!v) throw new OpenAIError(404, "invalid_request_error", openaiMessages.unknownVoice(t.ref), "voice", "voice_not_found");
      assertVoiceUsable(v, this.model);
      found.push({ voice: v, weight: t.weight, rate: (await libraryTerms(this.ctx, this.caller, v)).rate });
    }
    // A remote engine's voice is a name on another server: there is no profile here to average.
    if (found.some((f) => f.voice.profile.engine === "remote")) throw invalidRequest(openaiMessages.blendRemote(found.map((f) => f.voice.name)), "voice", "voice_blend_mismatch");
    const conflict = blendConflict(found.map((f) => f.voice.profile));
    if (conflict) throw invalidRequest(openaiMessages.blendMixedLanguages(found.map((f) => f.voice.name), conflict.field, conflict.values), "voice", "voice_blend_mismatch");
    const heaviest = found.reduce((a, b) => (b.weight > a.weight ? b : a));
    const blended: VoiceRecord = {
      ...heaviest.voice,
      name: blendName(found),
      profile: blendProfiles(found.map((f) => ({ profile: f.voice.profile, weight: f.weight }))),
    };
    // A blend is charged at the dearest rate among its voices: never cheaper than speaking with any of them.
    return { voice: blended, rate: Math.max(...found.map((f) => f.rate)), base: heaviest.voice };
  }
}

function checkFormat(name: string | null | undefined): { format: OpenAIResponseFormat; id: NonNullable<(typeof RESPONSE_FORMATS)[OpenAIResponseFormat]> } {
  const f = (name ?? "mp3").toLowerCase();
  const known = (OPENAI_RESPONSE_FORMATS as readonly string[]).includes(f);
  const mapped = known ? RESPONSE_FORMATS[f as OpenAIResponseFormat] : null;
  if (!mapped) throw invalidRequest(openaiMessages.unsupportedFormat(name ?? "", SUPPORTED_RESPONSE_FORMATS), "response_format", "unsupported_response_format");
  return { format: f as OpenAIResponseFormat, id: mapped };
}

async function speech(req: ApiRequest, rc: RouteContext): Promise<ApiResponse> {
  const ctx = rc.app;
  const key = apiKeyOf(req);
  // Over the plan's concurrency with its queue full: refused before any other read (slots.ts).
  const paused = await refuseKnownKeyWhenQueueFull(ctx, key);
  const caller = await authenticated(req, rc);
  if (caller.principal.via === "api_key") rememberKey(ctx, key, caller.workspaceId);
  // Admitted, it holds a place in the queue until it takes a slot (or fails before).
  const admission = await admit(ctx, caller, paused);
  try {
    return await speechAdmitted(req, ctx, caller);
  } finally {
    admission.done();
  }
}

async function speechAdmitted(req: ApiRequest, ctx: AppContext, caller: Caller): Promise<ApiResponse> {
  const tier = caller.tier();
  tier.catch(() => undefined);
  await caller.require("text_to_speech");

  // Every bound before any work: the body's fields, the input's length, the format, the speed.
  const body = jsonBody(req, OpenAISpeechBody);
  const input = body.input.trim();
  if (!input) throw invalidRequest(openaiMessages.inputEmpty, "input", "empty_input");
  const length = codePointLength(input);
  if (length > OPENAI_MAX_INPUT) throw invalidRequest(openaiMessages.inputTooLong(length), "input", "string_above_max_length");
  const instructions = body.instructions ?? null;
  if (instructions && codePointLength(instructions) > OPENAI_MAX_INSTRUCTIONS) {
    throw invalidRequest(openaiMessages.instructionsTooLong(codePointLength(instructions)), "instructions", "string_above_max_length");
  }
  if (body.speed != null && !(body.speed >= OPENAI_SPEED_MIN && body.speed <= OPENAI_SPEED_MAX)) {
    throw invalidRequest(openaiMessages.speedOutOfRange(body.speed), "speed", "invalid_value");
  }
  const { id: formatId } = checkFormat(body.response_format);
  const model = timbreModel(body.model);
  if (!model) throw invalidRequest(openaiMessages.unknownModel(body.model, acceptedModelNames()), "model", "model_not_found");
  assertOutputFormat(await tier, formatId.id);

  const { voice, rate, base } = await new VoiceResolver(ctx, caller, model).resolve(body.voice);
  const direction = readInstructions(instructions);
  const stored = await settingsFor(ctx, caller, base);
  const settings = {
    ...stored,
    ...direction.settings,
    speed: clampSpeed((body.speed ?? stored.speed) * direction.speedFactor),
  };
  const spoken: VoiceRecord = Object.keys(direction.profile).length ? { ...voice, profile: { ...voice.profile, ...direction.profile } } : voice;

  const sse = body.stream_format === "sse";
  const whole = formatId.whole;
  const g: GenerationRequest = {
    kind: "tts",
    parts: [{ voice: spoken, text: body.input, settings, rate }],
    model,
    seed: null,
    languageCode: null,
    normalization: "auto",
    previousText: null,
    nextText: null,
    locators: [],
    format: parseOutputFormat(formatId.id),
    enableLogging: true,
    requestId: req.requestId,
    idempotency: idempotency(req, caller),
    receivedAt: req.receivedAt,
    signal: req.signal,
    wholeAnswer: whole,
    optimizeStreamingLatency: null,
  };
  const gen = await startGeneration(ctx, caller, g, { pronunciation: dictionaryPronunciation(caller), onGenerated: recordLibraryUsage });
  const headers = { ...gen.headers };
  if (direction.applied.length) headers["x-timbre-instructions-applied"] = direction.applied.join(", ");

  // The audio as it should leave: chunk by chunk, or once whole for formats whose header needs the length.
  const audio = async function* (): AsyncGenerator<Uint8Array> {
    if (!whole) {
      for await (const c of gen.chunks) if (c.audio.byteLength) yield c.audio;
      return;
    }
    const parts: GenerationChunk[] = [];
    for await (const c of gen.chunks) parts.push(c);
    const file = wholeAudio(gen.format, parts);
    yield formatId.flac ? await runCpu("flac", { wav: file }) : file;
  };

  if (sse) {
    return stream(
      (async function* () {
        for await (const a of audio()) {
          // A whole file is sent in deltas of at most 48 KiB so no event grows without bound.
          for (let at = 0; at < a.byteLength; at += 48 * 1024) {
            const delta = { type: "speech.audio.delta", audio: Buffer.from(a.subarray(at, at + 48 * 1024)).toString("base64") };
            yield Buffer.from(`data: ${JSON.stringify(delta)}\n\n`);
          }
        }
        // Timbre bills characters: they are the input tokens; it has no output tokens to count.
        const done = { type: "speech.audio.done", usage: { input_tokens: length, output_tokens: 0, total_tokens: length } };
        yield Buffer.from(`data: ${JSON.stringify(done)}\n\n`);
      })(),
      "text/event-stream",
      { ...headers, "cache-control": "no-cache" },
    );
  }
  if (whole) {
    const chunks: Uint8Array[] = [];
    for await (const a of audio()) chunks.push(a);
    return bytes(chunks[0] ?? new Uint8Array(0), formatId.flac ? "audio/flac" : gen.contentType, headers);
  }
  // The first audio before the status goes out: an engine that fails before any (a remote server's
  // 401, 429, timeout) is answered with its error, not a 200 with an empty body.
  const chunks = audio();
  const first = await chunks.next();
  return stream(
    (async function* () {
      if (!first.done) yield first.value;
      yield* chunks;
    })(),
    gen.contentType,
    headers,
  );
}

const CREATED = 1_735_689_600; // 2025-01-01, the premade catalogue's epoch: stable across installs

function modelList() {
  return acceptedModelNames().map((id) => ({ id, object: "model", created: CREATED, owned_by: "timbre" }));
}

async function voices(req: ApiRequest, rc: RouteContext): Promise<ApiResponse> {
  const caller = await authenticated(req, rc);
  const all = (await visibleVoices(rc.app, caller)).filter((v) => !v.is_legacy);
  all.sort((a, b) => a.name.localeCompare(b.name));
  const ids = new Set(all.map((v) => v.voice_id));
  const own = all.map((v) => ({ id: v.voice_id, name: v.name, language: v.profile.language, category: v.category }));
  // OpenAI's names, for clients that offer only those; each says which voice it speaks with.
  const aliases = Object.entries(OPENAI_VOICES)
    .filter(([name]) => ids.has(openaiVoiceId(name)!))
    .map(([name, premade]) => ({ id: name, name, language: "en", category: "premade", speaks_as: premade }));
  return json({ voices: [...aliases, ...own] });
}

export function registerOpenAI(r: ApiRouter): void {
  const wrap = (h: (req: ApiRequest, rc: RouteContext) => Promise<ApiResponse>) => (req: ApiRequest, rc: RouteContext) => inOpenAIShape(rc.log, () => h(req, rc));
  r.post(`${OPENAI_BASE_PATH}/audio/speech`, wrap(speech));
  r.get(`${OPENAI_BASE_PATH}/audio/voices`, wrap(voices));
  r.get(
    `${OPENAI_BASE_PATH}/models`,
    wrap(async (req, rc) => {
      await authenticated(req, rc);
      return json({ object: "list", data: modelList() });
    }),
  );
  r.get(
    `${OPENAI_BASE_PATH}/models/:model`,
    wrap(async (req, rc) => {
      await authenticated(req, rc);
      const m = modelList().find((x) => x.id === req.params.model);
      if (!m) throw new OpenAIError(404, "invalid_request_error", openaiMessages.unknownModel(req.params.model, acceptedModelNames()), "model", "model_not_found");
      return json(m);
    }),
  );
  // Open WebUI reads the models a speech server offers here.
  r.get(
    `${OPENAI_BASE_PATH}/audio/models`,
    wrap(async (req, rc) => {
      await authenticated(req, rc);
      return json({ models: modelList().map((m) => ({ id: m.id, name: m.id })) });
    }),
  );
}
