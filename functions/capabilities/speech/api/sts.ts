import type { ApiRouter, RouteContext } from "../../../platform/http/app.js";
import { ApiError, ValidationError } from "../../../platform/http/errors.js";
import { field, parseMultipart, type MultipartForm } from "../../../platform/http/multipart.js";
import { bytes, stream, type ApiRequest, type ApiResponse } from "../../../platform/http/types.js";
import { parseWith, queryParams } from "../../../platform/http/validate.js";
import { parseOutputFormat } from "../../../media/audio/formats.js";
import { sniffAudioType, type SniffedAudioType } from "../../../media/audio/sniff.js";
import { findModel, type ModelInfo } from "../../../platform/domain/models.js";
import { assertOutputFormat } from "../../../platform/domain/speechRules.js";
import { mergeSettings, VoiceSettingsInput } from "../../../platform/domain/voiceSettings.js";
import {
  AudioIsolationForm,
  AudioQuery,
  DEFAULT_STS_MODEL_ID,
  ISOLATION_MAX_BYTES,
  SpeechToSpeechForm,
  STS_MAX_BYTES,
  stsMessages,
} from "../../../platform/contract/sts.js";
import { startIsolation, startSpeechToSpeech, type AudioResult, type AudioUpload } from "../audioJobs.js";
import { webcrypto } from "node:crypto";
import type { Caller } from "../../../platform/domain/caller.js";
import { idempotency, voiceFor } from "./tts.js";
import { historyNotFound } from "./history.js";
import type { InputFormat } from "../../../media/voice-conversion/port.js";
import { settingsFor } from "../../voices/api/voices.js";

/**
 * POST /v1/speech-to-speech/{voice_id}[/stream] and POST /v1/audio-isolation[/stream]: multipart
 * uploads (contract §6, §A4), checked here (size, type by content, form fields) before the work;
 * the duration is checked on the decoded audio in the worker.
 */
const MIME: Record<SniffedAudioType, string> = { wav: "audio/wav", mp3: "audio/mpeg", ogg: "audio/ogg", flac: "audio/flac", webm: "audio/webm", mp4: "audio/mp4" };

interface Mode {
  streaming: boolean;
}

/** The form's single `audio` file, checked by size and (unless raw PCM) by its first bytes. */
function audioUpload(form: MultipartForm, fileFormat: "pcm_s16le_16" | "other", maxBytes: number): AudioUpload {
  const files = form.files.filter((f) => f.field === "audio");
  if (!files.length) throw new ValidationError([{ loc: ["body", "audio"], msg: "Field required", type: "missing" }]);
  const file = files[0];
  if (file.truncated || file.data.byteLength > maxBytes) throw new ApiError(413, "audio_too_large", stsMessages.audioTooLarge(Math.round(maxBytes / 1024 / 1024)));
  if (!file.data.byteLength) throw new ApiError(400, "invalid_audio", stsMessages.audioUnreadable);
  if (fileFormat === "pcm_s16le_16") return { bytes: file.data, fileName: file.filename, fileFormat, contentType: "audio/pcm" };
  const type = sniffAudioType(file.data.subarray(0, 64));
  if (!type) throw new ApiError(400, "invalid_audio", stsMessages.audioUnreadable);
  return { bytes: file.data, fileName: file.filename, fileFormat, contentType: MIME[type] };
}

function stsModel(id: string | undefined): ModelInfo {
  const modelId = id ?? DEFAULT_STS_MODEL_ID;
  const model = findModel(modelId);
  if (!model) throw new ApiError(400, "model_not_found", stsMessages.modelNotFound(modelId));
  if (!model.can_do_voice_conversion) throw new ApiError(400, "model_can_not_do_voice_conversion", stsMessages.modelCannotConvert(modelId));
  return model;
}

function voiceSettingsField(raw: string | undefined): VoiceSettingsInput | null {
  if (raw === undefined || raw.trim() === "" || raw.trim() === "null") return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new ValidationError([{ loc: ["body", "voice_settings"], msg: "voice_settings must be a JSON-encoded object", type: "json_invalid" }]);
  }
  return parseWith("body", VoiceSettingsInput, value);
}

function respond(result: AudioResult, mode: Mode): Promise<ApiResponse> | ApiResponse {
  if (mode.streaming) return stream(result.chunks, result.contentType, result.headers);
  return (async () => {
    const parts: Uint8Array[] = [];
    for await (const c of result.chunks) parts.push(c);
    return bytes(result.whole(parts), result.contentType, result.headers);
  })();
}

/**
 * The client's Idempotency-Key bound to the request's content: a multipart body differs on every
 * send (its boundary is random), so the fingerprint covers the fields and a hash of each file
 * instead of the raw body. The hash runs on libuv's thread pool (WebCrypto), not on the request loop.
 */
async function multipartIdempotency(req: ApiRequest, caller: Caller, form: MultipartForm) {
  const base = idempotency(req, caller);
  if (!base) return null;
  const files = await Promise.all(
    form.files.map(async (f) => [f.field, f.filename, Buffer.from(await webcrypto.subtle.digest("SHA-256", f.data)).toString("hex")]),
  );
  const fields = Object.keys(form.fields).sort().map((k) => [k, form.fields[k]]);
  const query = [...req.query.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const content = JSON.stringify([caller.workspaceId, caller.userId, req.method, req.path, query, fields, files]);
  const digest = Buffer.from(await webcrypto.subtle.digest("SHA-256", new TextEncoder().encode(content))).toString("hex");
  return { key: base.key, fingerprint: digest };
}

/** Form fields as single values (the last one when repeated), for zod. */
const textFields = (form: MultipartForm) => Object.fromEntries(Object.keys(form.fields).map((k) => [k, field(form, k)]));

async function speechToSpeech(req: ApiRequest, rc: RouteContext, mode: Mode): Promise<ApiResponse> {
  const ctx = rc.app;
  const caller = await rc.caller();
  await caller.require("speech_to_speech");
  const query = queryParams(req, AudioQuery(mode.streaming));
  assertOutputFormat(await caller.tier(), query.output_format);
  const form = await parseMultipart(req, { maxFileBytes: STS_MAX_BYTES, maxFiles: 1, maxFields: 20, maxFieldBytes: 8192 });
  const fields = parseWith("body", SpeechToSpeechForm, textFields(form));
  const model = stsModel(fields.model_id);
  const upload = audioUpload(form, fields.file_format ?? "other", STS_MAX_BYTES);
  const voiceSettings = voiceSettingsField(fields.voice_settings);
  const { voice, rate } = await voiceFor(ctx, caller, req.params.voice_id);
  const settings = mergeSettings(await settingsFor(ctx, caller, voice), voiceSettings);
  const latency = query.optimize_streaming_latency ?? 0;
  const result = await startSpeechToSpeech(ctx, caller, {
    voice,
    rate,
    model,
    settings,
    seed: fields.seed ?? null,
    removeBackgroundNoise: fields.remove_background_noise ?? false,
    upload,
    format: parseOutputFormat(query.output_format),
    enableLogging: query.enable_logging,
    requestId: req.requestId,
    idempotency: await multipartIdempotency(req, caller, form),
    receivedAt: req.receivedAt,
    firstBlockSeconds: mode.streaming ? (latency >= 3 ? 0.25 : 0.5) : 2,
  });
  return respond(result, mode);
}

async function audioIsolation(req: ApiRequest, rc: RouteContext, mode: Mode): Promise<ApiResponse> {
  const ctx = rc.app;
  const caller = await rc.caller();
  await caller.require("voice_isolator");
  const query = queryParams(req, AudioQuery(mode.streaming));
  assertOutputFormat(await caller.tier(), query.output_format);
  const form = await parseMultipart(req, { maxFileBytes: ISOLATION_MAX_BYTES, maxFiles: 1, maxFields: 10, maxFieldBytes: 1024 * 1024 });
  const fields = parseWith("body", AudioIsolationForm, textFields(form));
  const upload = audioUpload(form, fields.file_format ?? "other", ISOLATION_MAX_BYTES);
  const result = await startIsolation(ctx, caller, {
    upload,
    format: parseOutputFormat(query.output_format),
    requestId: req.requestId,
    idempotency: await multipartIdempotency(req, caller, form),
    receivedAt: req.receivedAt,
    firstBlockSeconds: mode.streaming ? 0.5 : 5,
  });
  return respond(result, mode);
}

/**
 * Timbre's extension, for the Voice Changer's history: POST /v1/history/{id}/regenerate converts
 * the input kept with a speech-to-speech history item again, with the item's voice, model,
 * settings, noise removal and output format and a new seed. A new conversion in every way:
 * charged, and kept as a new history item.
 */
async function regenerateFromHistory(req: ApiRequest, rc: RouteContext): Promise<ApiResponse> {
  const ctx = rc.app;
  const caller = await rc.caller();
  await caller.require("speech_to_speech");
  const id = req.params.history_item_id;
  const item = await ctx.stores.history.ownedBy(caller.workspaceId, caller.userId, id);
  if (!item) throw historyNotFound(id);
  const input = item.sts_input ? await ctx.blobs.getBytes(item.sts_input.key) : undefined;
  if (!item.sts_input || !input) throw new ApiError(400, "history_item_not_regenerable", stsMessages.notRegenerable);
  assertOutputFormat(await caller.tier(), item.output_format);
  const model = stsModel(item.model_id);
  const { voice, rate } = await voiceFor(ctx, caller, item.voice_id);
  const settings = mergeSettings(await settingsFor(ctx, caller, voice), parseWith("body", VoiceSettingsInput, item.replay.settings));
  const result = await startSpeechToSpeech(ctx, caller, {
    voice,
    rate,
    model,
    settings,
    seed: null,
    removeBackgroundNoise: item.sts_input.remove_background_noise,
    upload: { bytes: input.bytes, fileName: item.sts_input.file_name, fileFormat: item.sts_input.file_format as InputFormat, contentType: item.sts_input.content_type },
    format: parseOutputFormat(item.output_format),
    enableLogging: true,
    requestId: req.requestId,
    idempotency: idempotency(req, caller),
    receivedAt: req.receivedAt,
    firstBlockSeconds: 2,
  });
  return respond(result, { streaming: false });
}

export function registerSpeechToSpeech(r: ApiRouter): void {
  r.post("/v1/history/:history_item_id/regenerate", regenerateFromHistory);
  const sts = (mode: Mode) => (req: ApiRequest, rc: RouteContext) => speechToSpeech(req, rc, mode);
  r.post("/v1/speech-to-speech/:voice_id", sts({ streaming: false }));
  r.post("/v1/speech-to-speech/:voice_id/stream", sts({ streaming: true }));
  const isolation = (mode: Mode) => (req: ApiRequest, rc: RouteContext) => audioIsolation(req, rc, mode);
  r.post("/v1/audio-isolation", isolation({ streaming: false }));
  r.post("/v1/audio-isolation/stream", isolation({ streaming: true }));
}
