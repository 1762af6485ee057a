import { randomInt } from "node:crypto";
import type { AppContext } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import type { ModelInfo } from "../../platform/domain/models.js";
import type { StoredVoiceSettings, VoiceRecord } from "../../platform/stores/voices.js";
import type { HistoryRecord } from "../../platform/stores/history.js";
import { workspaceKey } from "../../platform/adapters/s3.js";
import { newId } from "../../platform/adapters/ids.js";
import { CHARGE_RECORD_TTL_SECONDS, charge, currentUsage, refund, refundPart, requireUsablePlan, spendingCaps } from "../../platform/domain/credits.js";
import { isolationCredits, speechToSpeechCredits } from "../../platform/domain/audioCredits.js";
import { ApiError } from "../../platform/http/errors.js";
import type { OutputFormat } from "../../media/audio/formats.js";
import { wholeFile } from "../../media/audio/encoder.js";
import { AudioDecodeError, AudioLimitError } from "../../media/audio/decode/errors.js";
import { ISOLATION_MAX_BYTES, ISOLATION_MAX_SECONDS, STS_MAX_BYTES, STS_MAX_SECONDS, stsMessages } from "../../platform/contract/sts.js";
import type { DecodedInfo, InputFormat, JobHandle } from "../../media/voice-conversion/port.js";
import { generationMessages } from "./generate.js";
import { releaseSlot, takeSlot } from "./slots.js";
import { voiceTarget } from "./voiceTargets.js";
import { conversionTarget, remoteConversion } from "../engines/sts.js";

/**
 * Speech to speech and the voice isolator: audio in, audio out, metered by the input's decoded
 * duration. The flow is text to speech's (generate.ts): a concurrency slot of the plan, the
 * idempotency binding, one atomic charge before any audio is handed out, a refund when the work
 * fails, and on an early stop only the share of the input already delivered stays charged.
 * Speech to speech keeps a history item (source STS) with its input, for regeneration.
 */
export interface AudioUpload {
  bytes: Uint8Array;
  fileName: string;
  fileFormat: InputFormat;
  /** From the bytes (sniffed), or audio/pcm for raw input. */
  contentType: string;
}

interface Common {
  upload: AudioUpload;
  format: OutputFormat;
  requestId: string;
  idempotency: { key: string; fingerprint: string } | null;
  receivedAt: number;
  /** Seconds of audio in the first streamed chunk. */
  firstBlockSeconds: number;
}

export interface SpeechToSpeechRequest extends Common {
  voice: VoiceRecord;
  /** Credit multiplier of the voice (a library voice's rate). */
  rate: number;
  model: ModelInfo;
  settings: StoredVoiceSettings;
  seed: number | null;
  removeBackgroundNoise: boolean;
  enableLogging: boolean;
}

export type IsolationRequest = Common;

export interface AudioResult {
  cost: number;
  contentType: string;
  headers: Record<string, string>;
  /** The encoded audio as it is produced; consume once. */
  chunks: AsyncIterable<Uint8Array>;
  /**
   * The chunks, once all consumed, as one file to hand out whole: an MP3 gets its Info frame
   * (audio/encoder.ts wholeFile). A stream is sent as it is made and has none.
   */
  whole(chunks: readonly Uint8Array[]): Uint8Array;
}

/** Decoder refusals as the wire shows them. */
export function uploadError(e: unknown, maxBytes: number, maxSeconds: number): unknown {
  if (e instanceof AudioLimitError) {
    return e.limit === "bytes"
      ? new ApiError(413, "audio_too_large", stsMessages.audioTooLarge(Math.round(maxBytes / 1024 / 1024)))
      : new ApiError(400, "audio_too_long", stsMessages.audioTooLong(maxSeconds / 60));
  }
  if (e instanceof AudioDecodeError) return new ApiError(400, "invalid_audio", stsMessages.audioUnreadable);
  return e;
}

interface Metered {
  kind: "sts" | "isolation";
  maxBytes: number;
  maxSeconds: number;
  start(): JobHandle;
  cost(info: DecodedInfo): number;
  /** After the last chunk (the job is done): store what should be kept (`audio`: the whole file). */
  finished?(audio: Uint8Array, info: DecodedInfo, usage: { before: number; after: number }): Promise<void>;
}

async function runMetered(
  ctx: AppContext,
  caller: Caller,
  req: Common,
  m: Metered,
): Promise<{ cost: number; chunks: AsyncIterable<Uint8Array>; info: DecodedInfo; whole(chunks: readonly Uint8Array[]): Uint8Array }> {
  const nowSec = Math.floor(ctx.now() / 1000);
  if (req.idempotency) {
    const bound = await ctx.stores.ledger.bindIdempotencyKey(caller.workspaceId, req.idempotency.key, req.idempotency.fingerprint, nowSec, CHARGE_RECORD_TTL_SECONDS);
    if (bound === "mismatch") throw new ApiError(409, "idempotency_key_reused", generationMessages.idempotencyKeyReused);
  }
  const chargeKey = req.idempotency ? `idem:${req.idempotency.key}` : `req:${req.requestId}`;
  const owner = req.requestId;
  let slot: number | undefined = await takeSlot(ctx, caller, owner);
  const release = async () => {
    if (slot === undefined) return;
    const n = slot;
    slot = undefined;
    await releaseSlot(ctx, caller.workspaceId, n, owner);
  };
  let job: JobHandle | undefined;
  let charged = false;
  let info: DecodedInfo;
  let cost: number;
  let usageBefore = 0;
  let usageAfter = 0;
  try {
    job = m.start();
    try {
      info = await job.decoded;
    } catch (e) {
      throw uploadError(e, m.maxBytes, m.maxSeconds);
    }
    cost = m.cost(info);
    if (cost > 0) {
      await requireUsablePlan(caller);
      const result = await charge(ctx, { workspaceId: caller.workspaceId, key: chargeKey, amount: cost, caps: await spendingCaps(caller) });
      charged = result.charged;
      usageAfter = result.usage.character_count;
      usageBefore = result.charged ? usageAfter - result.amount : usageAfter;
    } else {
      usageBefore = usageAfter = (await currentUsage(ctx, caller.workspaceId)).character_count;
    }
  } catch (e) {
    job?.cancel();
    await release();
    throw e;
  }

  const handle = job;
  const decoded = info;
  const total = cost;
  // Samples at the format's rate the audio encodes, while every part says (a whole MP3's Info frame).
  let samples: number | undefined = 0;
  const whole = (audio: readonly Uint8Array[]) => wholeFile(req.format, audio, samples);
  async function* chunks(): AsyncGenerator<Uint8Array> {
    const audio: Uint8Array[] = [];
    let delivered = 0;
    let finished = false;
    let failed = false;
    try {
      for await (const part of handle.chunks) {
        samples = samples === undefined || part.samples === undefined ? undefined : samples + part.samples;
        delivered = part.seconds;
        if (!part.audio.length) continue;
        audio.push(part.audio);
        yield part.audio;
      }
      finished = true;
      await m.finished?.(whole(audio), decoded, { before: usageBefore, after: usageAfter });
    } catch (e) {
      failed = true;
      handle.cancel();
      if (!finished && charged) await refund(ctx, caller.workspaceId, chargeKey).catch((err: unknown) => ctx.log.error("refund failed", { error: err, key: chargeKey }));
      ctx.log.error(`${m.kind} failed`, { error: e });
      throw e;
    } finally {
      if (!finished && !failed) {
        // The client left early: the share of the input delivered stays charged, the rest returns.
        handle.cancel();
        if (charged && decoded.durationSecs > 0) {
          const keep = Math.ceil(total * Math.min(1, delivered / decoded.durationSecs));
          await refundPart(ctx, caller.workspaceId, chargeKey, keep).catch((err: unknown) => ctx.log.error("early stop settlement failed", { error: err }));
        }
      }
      await release();
    }
  }
  return { cost, chunks: chunks(), info, whole };
}

const EXTENSIONS: Record<string, string> = { "audio/wav": "wav", "audio/mpeg": "mp3", "audio/ogg": "ogg", "audio/flac": "flac", "audio/webm": "webm", "audio/mp4": "m4a", "audio/pcm": "pcm" };
const extensionOf = (format: OutputFormat) => (format.codec === "opus" ? "ogg" : format.codec);

export async function startSpeechToSpeech(ctx: AppContext, caller: Caller, req: SpeechToSpeechRequest): Promise<AudioResult> {
  const ws = await caller.workspace();
  const multiplier = ws.custom_model_rates[req.model.model_id] ?? req.model.character_cost_multiplier;
  // A workspace engine's voice converts on that engine (or is refused, naming it); the others on the embedded converter.
  const remote = await conversionTarget(ctx, caller.workspaceId, req.voice);
  const target = remote ? null : await voiceTarget(ctx, caller.workspaceId, req.voice);
  const seed = req.seed ?? randomInt(0, 2 ** 32 - 1);
  const conversion = { stability: req.settings.stability, similarity_boost: req.settings.similarity_boost, style: req.settings.style, use_speaker_boost: req.settings.use_speaker_boost };
  const logging = req.enableLogging && !ws.force_logging_disabled;
  const historyItemId = logging ? newId() : null;
  const latencyMs = Math.max(0, Date.now() - req.receivedAt);
  const { cost, chunks, whole } = await runMetered(ctx, caller, req, {
    kind: "sts",
    maxBytes: STS_MAX_BYTES,
    maxSeconds: STS_MAX_SECONDS,
    start: () =>
      remote
        ? remoteConversion(ctx, remote, {
            input: { ...req.upload, modelId: req.model.model_id, settings: conversion, seed, removeBackgroundNoise: req.removeBackgroundNoise },
            format: req.format,
            maxBytes: STS_MAX_BYTES,
            maxSeconds: STS_MAX_SECONDS,
          })
        : ctx.converter().convert({
            bytes: req.upload.bytes,
            fileFormat: req.upload.fileFormat,
            maxBytes: STS_MAX_BYTES,
            maxSeconds: STS_MAX_SECONDS,
            target: target!,
            settings: conversion,
            seed,
            removeBackgroundNoise: req.removeBackgroundNoise,
            format: req.format.id,
            firstBlockSeconds: req.firstBlockSeconds,
          }),
    cost: (info) => speechToSpeechCredits(info.durationSecs, multiplier, req.rate),
    finished: historyItemId
      ? async (audio, info, usage) => {
          const audioKey = workspaceKey(caller.workspaceId, "history", `${historyItemId}.${extensionOf(req.format)}`);
          const inputKey = workspaceKey(caller.workspaceId, "history", `${historyItemId}.input.${EXTENSIONS[req.upload.contentType] ?? "bin"}`);
          await Promise.all([ctx.blobs.put(audioKey, audio, req.format.contentType), ctx.blobs.put(inputKey, req.upload.bytes, req.upload.contentType)]);
          const now = ctx.now();
          const record: HistoryRecord = {
            history_item_id: historyItemId,
            request_id: req.requestId,
            workspace_id: caller.workspaceId,
            user_id: caller.userId,
            source: "STS",
            voice_id: req.voice.voice_id,
            voice_name: req.voice.name,
            voice_category: req.voice.category,
            model_id: req.model.model_id,
            text: "",
            dialogue: null,
            date_unix: Math.floor(now / 1000),
            created_ms: now,
            character_count_change_from: usage.before,
            character_count_change_to: usage.after,
            content_type: req.format.contentType,
            output_format: req.format.id,
            audio_key: audioKey,
            alignment_key: null,
            // The converted speech keeps the input's timing.
            duration_secs: Math.round(info.durationSecs * 1000) / 1000,
            sts_input: {
              key: inputKey,
              content_type: req.upload.contentType,
              file_name: req.upload.fileName.slice(0, 255),
              file_format: req.upload.fileFormat,
              duration_secs: Math.round(info.durationSecs * 1000) / 1000,
              remove_background_noise: req.removeBackgroundNoise,
            },
            replay: {
              engine: remote ? "remote" : "timbre-vocoder",
              voice_versions: { [req.voice.voice_id]: req.voice.version },
              settings: { ...req.settings },
              seed,
              language_code: null,
              apply_text_normalization: "off",
              previous_text: null,
              next_text: null,
              pronunciation_dictionary_locators: [],
            },
          };
          await ctx.stores.history.put(record);
        }
      : undefined,
  });
  const headers: Record<string, string> = {
    "character-cost": String(cost),
    "regeneration-count": "0",
    "generation-info": Buffer.from(JSON.stringify({ request_id: req.requestId, model_id: req.model.model_id, seed, generation: 1 })).toString("base64"),
    "tts-latency-ms": String(latencyMs),
  };
  if (historyItemId) headers["history-item-id"] = historyItemId;
  return { cost, contentType: req.format.contentType, headers, chunks, whole };
}

export async function startIsolation(ctx: AppContext, caller: Caller, req: IsolationRequest): Promise<AudioResult> {
  const { cost, chunks, whole } = await runMetered(ctx, caller, req, {
    kind: "isolation",
    maxBytes: ISOLATION_MAX_BYTES,
    maxSeconds: ISOLATION_MAX_SECONDS,
    start: () =>
      ctx.converter().isolate({
        bytes: req.upload.bytes,
        fileFormat: req.upload.fileFormat,
        maxBytes: ISOLATION_MAX_BYTES,
        maxSeconds: ISOLATION_MAX_SECONDS,
        format: req.format.id,
        firstBlockSeconds: req.firstBlockSeconds,
      }),
    cost: (info) => isolationCredits(info.durationSecs),
  });
  return { cost, contentType: req.format.contentType, headers: { "character-cost": String(cost) }, chunks, whole };
}
