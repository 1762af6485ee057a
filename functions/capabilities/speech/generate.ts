import { createHash, randomInt } from "node:crypto";
import type { AppContext } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import type { ModelInfo } from "../../platform/domain/models.js";
import type { StoredVoiceSettings, VoiceRecord } from "../../platform/stores/voices.js";
import type { HistoryRecord } from "../../platform/stores/history.js";
import { workspaceKey } from "../../platform/adapters/s3.js";
import { newId } from "../../platform/adapters/ids.js";
import { CHARGE_RECORD_TTL_SECONDS, charge, currentUsage, refund, refundPart, requireUsablePlan, spendingCaps } from "../../platform/domain/credits.js";
import { maxTextLength } from "../../platform/domain/speechRules.js";
import { ApiError } from "../../platform/http/errors.js";
import { pausedBeforeAdmission, releaseSlot, takeSlot } from "./slots.js";
import { codePointLength } from "../../platform/contract/text.js";
import { parseOutputFormat, type OutputFormat } from "../../media/audio/formats.js";
import { wholeAudio } from "../../media/audio/encoder.js";
import { wavHeader } from "../../media/audio/wav.js";
import { concatBytes } from "../../media/audio/bytes.js";
import { AudioLimitError } from "../../media/audio/decode/errors.js";
import { ISOLATION_MAX_BYTES } from "../../platform/contract/sts.js";
import { RemoteEngineError } from "../../media/engine/remote/engine.js";
import { EngineVoiceUnavailableError, type EngineModel, type SynthesisRequest } from "../../media/engine/port.js";
import { MappedText, type CharTimes } from "./textmap.js";
import { normalizationReplacements, type NormalizationMode } from "./normalize.js";
import { AlignmentTracker, concatTimes } from "./alignment.js";
import { noPronunciationRules, type Locator, type PronunciationHook } from "./pronunciation.js";
import { audioTagReplacements } from "./audioTags.js";
import { resolveRemoteParts } from "../engines/speak.js";

/**
 * One generation, from validated input to audio: text preparation, free regeneration, a
 * concurrency slot, the charge, synthesis and encoding (in the engine's workers), history.
 * A failed generation is refunded and its slot released; it never stays charged.
 */
export const REGENERATION_WINDOW_SECONDS = 2 * 3600;
export const FREE_REGENERATIONS = { tts: 3, dialogue: 6, ttsZeroRetention: 1, dialogueZeroRetention: 2 };
export { SLOT_LEASE_SECONDS, SLOT_WAIT_MS, takeSlot } from "./slots.js";
/** Pronunciation rules may lengthen the text, up to this many times the model's limit. */
export const MAX_EXPANSION = 2;

/**
 * voice_settings.remove_background_noise: the engine speaks into 24 kHz PCM (every embedded engine
 * speaks at 22.05 kHz or less), and the voice isolator (the converter's worker, never the request
 * loop) turns the whole of it into the caller's format. The isolator needs the whole audio (its
 * noise estimate comes from the quietest frames), so the answer starts once synthesis is done.
 * Bounded: 15 minutes of speech (43 MB of PCM, under the isolator's 50 MB).
 */
export const ISOLATED_SYNTH_FORMAT = "pcm_24000";
export const ISOLATED_MAX_SECONDS = 15 * 60;

export const generationMessages = {
  tooLongToIsolate: `Remove background noise works on up to ${ISOLATED_MAX_SECONDS / 60} minutes of speech. Turn it off or shorten the text.`,
  idempotencyKeyReused: "This Idempotency-Key was already used for a different request. Send a new key with a new request.",
  expandedTooLong: (limit: number) =>
    `With your pronunciation rules applied, the text would be longer than ${limit} characters (twice the model's limit). Shorten the text or the aliases.`,
};

export interface SpeechPart {
  voice: VoiceRecord;
  /** The text exactly as the caller sent it. */
  text: string;
  settings: StoredVoiceSettings;
  /** Credit multiplier of the voice (a library voice's custom rate); 1 when absent. */
  rate?: number;
}

export interface GenerationRequest {
  kind: "tts" | "dialogue";
  parts: SpeechPart[];
  model: ModelInfo;
  seed: number | null;
  languageCode: string | null;
  normalization: NormalizationMode;
  previousText: string | null;
  nextText: string | null;
  locators: Locator[];
  format: OutputFormat;
  enableLogging: boolean;
  optimizeStreamingLatency: number | null;
  requestId: string;
  /**
   * The client's Idempotency-Key, bound to a fingerprint of the whole request (caller, endpoint,
   * body): the same key with another request is refused, a replay is never charged twice.
   */
  idempotency: { key: string; fingerprint: string } | null;
  receivedAt: number;
  /** Aborts when the client went away (its connection closed before the answer was written). */
  signal?: AbortSignal;
  /**
   * The answer is sent whole once the audio is complete (not streamed): a client that leaves
   * before then got nothing, so nothing is charged or kept.
   */
  wholeAnswer?: boolean;
}

export interface GenerationChunk {
  audio: Uint8Array;
  partIndex: number;
  /** Timings of the caller's characters newly covered by this chunk (indices into the joined text). */
  alignment: CharTimes;
  /** Timings of the spoken (normalised) characters of this chunk. */
  normalizedAlignment: CharTimes;
  /** Samples at the format's rate of the PCM this chunk encodes, when the engine says (EncodedChunk.samples). */
  samples?: number;
}


export interface VoiceSegment {
  voice_id: string;
  start_time_seconds: number;
  end_time_seconds: number;
  character_start_index: number;
  character_end_index: number;
  dialogue_input_index: number;
}

export interface Generation {
  historyItemId: string | null;
  cost: number;
  charged: boolean;
  /** 1 for a new request, 2.. for identical requests within the regeneration window. */
  generationNumber: number;
  freeRegenerationsLeft: number;
  seed: number;
  warnings: string[];
  headers: Record<string, string>;
  contentType: string;
  format: OutputFormat;
  /** The audio as it is produced; consume once. */
  chunks: AsyncIterable<GenerationChunk>;
  /** Available after `chunks` is consumed. */
  voiceSegments(): VoiceSegment[];
}

export type { Locator };

interface PreparedPart {
  part: SpeechPart;
  mapped: MappedText;
  phonemeSpans: SynthesisRequest["phonemeSpans"];
  originalOffset: number;
}

export interface GenerationDeps {
  pronunciation?: PronunciationHook;
  /** Told the parts of every finished, charged generation (the voice library's usage counters). */
  onGenerated?: (ctx: AppContext, parts: SpeechPart[]) => Promise<void>;
}

/** An engine's failure as the caller's error: a voice it cannot speak here is a 400, a remote engine's failure its 502/503/504. */
function engineFailure(e: unknown): unknown {
  if (e instanceof EngineVoiceUnavailableError) return new ApiError(400, "voice_unavailable", e.message);
  if (e instanceof RemoteEngineError) return new ApiError(e.statusCode, e.code, e.message, e.retryAfterSeconds ? { "retry-after": String(e.retryAfterSeconds) } : {});
  return e;
}

function engineModel(m: ModelInfo, optimizeStreamingLatency: number | null): EngineModel {
  return {
    id: m.model_id,
    quality: optimizeStreamingLatency !== null && optimizeStreamingLatency >= 3 ? "fast" : m.engine.quality,
    supportsPhonemes: m.engine.supportsPhonemes,
  };
}

/** The fingerprint of "the same request": what the caller asked for, not when. */
function fingerprint(req: GenerationRequest): string {
  const h = createHash("sha256");
  h.update(
    JSON.stringify({
      kind: req.kind,
      // The profile too: a blend or a direction (/openai/v1) speaks one stored voice differently.
      parts: req.parts.map((p) => [p.voice.voice_id, p.voice.version, p.text, p.settings, p.voice.profile]),
      model: req.model.model_id,
      seed: req.seed,
      language: req.languageCode,
      normalization: req.normalization,
      previous: req.previousText,
      next: req.nextText,
      locators: req.locators,
      format: req.format.id,
    }),
  );
  return h.digest("hex").slice(0, 40);
}

export async function startGeneration(ctx: AppContext, caller: Caller, req: GenerationRequest, deps: GenerationDeps = {}): Promise<Generation> {
  // 0. A concurrency slot before any work that costs more than a lookup: a refused request
  //    (429) has prepared no text, started no synthesis and written nothing.
  //    A plan that cannot spend (a disabled free tier) is refused before that.
  await requireUsablePlan(caller);
  const owner = req.requestId;
  const asked = Date.now();
  let slot: number | undefined = await takeSlot(ctx, caller, owner, req.signal);
  const granted = Date.now();
  // With the time it was held back before its admission: all of it waiting for a slot.
  const paused = pausedBeforeAdmission(caller);
  const slotWaitMs = granted - asked + paused;
  // Arrival to the slot asked for (credentials, voice, settings), less that pause.
  const beforeSlotMs = Math.max(0, asked - req.receivedAt - paused);
  const release = async () => {
    if (slot === undefined) return;
    const n = slot;
    slot = undefined;
    await releaseSlot(ctx, caller.workspaceId, n, owner);
  };
  try {
    return await generateHoldingSlot(ctx, caller, req, deps, release, { beforeSlotMs, slotWaitMs, granted });
  } catch (e) {
    await release();
    throw e;
  }
}

async function generateHoldingSlot(
  ctx: AppContext,
  caller: Caller,
  req: GenerationRequest,
  deps: GenerationDeps,
  release: () => Promise<void>,
  timing: { beforeSlotMs: number; slotWaitMs: number; granted: number },
): Promise<Generation> {
  const { slotWaitMs } = timing;
  const ws = await caller.workspace();
  const pronunciation = deps.pronunciation ?? noPronunciationRules;

  // 1. Text: the caller's characters stay the reference; trimming, dictionaries and
  //    normalisation are replacements on top, so timings map back to them.
  const warnings: string[] = [];
  const applied: Locator[] = [];
  const prepared: PreparedPart[] = [];
  let offset = 0;
  let expanded = 0;
  for (const part of req.parts) {
    let mapped = MappedText.identity(part.text);
    const lead = /^\s*/.exec(part.text)![0].length;
    const trail = /\s*$/.exec(part.text.slice(lead))![0].length;
    const trims = [];
    if (lead) trims.push({ start: 0, end: lead, text: "", tag: "trim" });
    if (trail && part.text.length - trail > lead) trims.push({ start: part.text.length - trail, end: part.text.length, text: "", tag: "trim" });
    mapped = mapped.replace(trims);
    if (req.model.engine.audioTags) mapped = mapped.replace(audioTagReplacements(mapped.text));
    const language = req.languageCode ?? part.voice.profile.language;
    const dict = await pronunciation(ctx, { workspaceId: caller.workspaceId, text: mapped, locators: req.locators, model: req.model, language });
    warnings.push(...dict.warnings);
    for (const a of dict.applied) if (!applied.some((x) => x.pronunciation_dictionary_id === a.pronunciation_dictionary_id)) applied.push(a);
    mapped = dict.text;
    // Billing counts what the caller sent, so what aliases add must stay bounded.
    expanded += codePointLength(mapped.text);
    if (expanded > MAX_EXPANSION * maxTextLength(req.model)) {
      throw new ApiError(400, "expanded_text_too_long", generationMessages.expandedTooLong(MAX_EXPANSION * maxTextLength(req.model)));
    }
    const spans = dict.phonemeSpans;
    const normalization = req.optimizeStreamingLatency === 4 ? "off" : req.normalization;
    // Phoneme spans must keep their positions: normalise only outside them.
    const reps = normalizationReplacements(mapped.text, language, normalization).filter((r) => !spans.some((s) => r.start < s.end && r.end > s.start));
    if (reps.length) {
      mapped = mapped.replace(reps);
      // Shift phoneme spans by what normalisation inserted before them.
      for (const s of spans) {
        const delta = reps.filter((r) => r.end <= s.start).reduce((d, r) => d + r.text.length - (r.end - r.start), 0);
        s.start += delta;
        s.end += delta;
      }
    }
    prepared.push({ part, mapped, phonemeSpans: spans, originalOffset: offset });
    offset += codePointLength(part.text);
  }

  // 2. Cost: characters the caller sent (trimmed) times the model's rate, or the workspace's own
  //    rate, times each voice's rate (library voices may set one).
  const rate = ws.custom_model_rates[req.model.model_id] ?? req.model.character_cost_multiplier;
  const characters = req.parts.reduce((n, p) => n + codePointLength(p.text.trim()), 0);
  const weighted = req.parts.reduce((n, p) => n + codePointLength(p.text.trim()) * (p.rate ?? 1), 0);
  // Rounded to a millionth first: 10 characters at 1.1 are 11 credits, not 11.000000000000002 -> 12.
  const cost = Math.ceil(Math.round(weighted * rate * 1e6) / 1e6);

  // 3. Free regeneration of an identical request.
  const zeroRetention = !req.enableLogging || ws.force_logging_disabled;
  const maxFree =
    req.kind === "dialogue"
      ? zeroRetention ? FREE_REGENERATIONS.dialogueZeroRetention : FREE_REGENERATIONS.dialogue
      : zeroRetention ? FREE_REGENERATIONS.ttsZeroRetention : FREE_REGENERATIONS.tts;
  const fp = fingerprint(req);
  const nowSec = Math.floor(ctx.now() / 1000);
  const seed = req.seed ?? randomInt(0, 2 ** 32 - 1);
  const logging = !zeroRetention;
  const historyItemId = logging ? newId() : null;
  const format = req.format;
  const voiceSegments: VoiceSegment[] = [];

  const engine = await ctx.engine();
  const model = engineModel(req.model, req.optimizeStreamingLatency);
  // A workspace's own remote engines (and its clones on a reference-audio engine): from its store only.
  const remote = await resolveRemoteParts(ctx, caller.workspaceId, prepared.map((p) => p.part.voice));
  const synthRequests: SynthesisRequest[] = prepared.map((p, i) => ({
    text: p.mapped.text,
    voice: remote[i].profile,
    ...(remote[i].remote ? { remote: remote[i].remote } : {}),
    settings: p.part.settings,
    // Each dialogue line gets its own seed derived from the request's, so lines differ but replay exactly.
    seed: i === 0 ? seed : (seed + i * 0x9e3779b1) >>> 0,
    model,
    languageCode: req.languageCode,
    previousText: i === 0 ? req.previousText : prepared[i - 1].part.text,
    nextText: i === prepared.length - 1 ? req.nextText : prepared[i + 1].part.text,
    phonemeSpans: p.phonemeSpans,
    whole: req.wholeAnswer === true,
  }));
  // The first chunk is synthesised while the idempotency, count and charge writes run: nothing
  // reaches the caller before the charge holds, and a refusal stops the synthesis.
  const stopAudio = new AbortController();
  const isolate = req.parts.some((p) => p.settings.remove_background_noise === true);
  const audio = engine.synthesizeSequenceEncoded(synthRequests, isolate ? parseOutputFormat(ISOLATED_SYNTH_FORMAT) : format, stopAudio.signal)[Symbol.asyncIterator]();
  // A voice its engine cannot speak here (a Piper voice's file removed) is the caller's 400, refunded like any failure.
  const firstAudio = audio.next().catch((e: unknown) => {
    throw engineFailure(e);
  });
  firstAudio.catch(() => undefined);
  const dropAudio = async () => {
    stopAudio.abort();
    await firstAudio.catch(() => undefined);
    await audio.return?.()?.catch(() => undefined);
  };

  // A replay of an idempotent request is the same generation: not a regeneration, not a new charge.
  let replay = false;
  let generationNumber = 1;
  try {
    if (req.idempotency) {
      const bound = await ctx.stores.ledger.bindIdempotencyKey(caller.workspaceId, req.idempotency.key, req.idempotency.fingerprint, nowSec, CHARGE_RECORD_TTL_SECONDS);
      if (bound === "mismatch") throw new ApiError(409, "idempotency_key_reused", generationMessages.idempotencyKeyReused);
      replay = bound === "same";
    }
    generationNumber = replay ? 1 : await ctx.stores.ledger.countGeneration(caller.workspaceId, fp, REGENERATION_WINDOW_SECONDS, nowSec);
  } catch (e) {
    await dropAudio();
    await release();
    throw e;
  }
  const free = generationNumber > 1 && generationNumber <= maxFree;

  // Our own request id (never a client's header) unless the client made the request idempotent.
  const chargeKey = req.idempotency ? `idem:${req.idempotency.key}` : `req:${req.requestId}`;
  let charged = false;
  let usageBefore = 0;
  let usageAfter = 0;
  const undo = async () => {
    await release();
    if (charged) await refund(ctx, caller.workspaceId, chargeKey).catch((e) => ctx.log.error("refund failed", { error: e, key: chargeKey }));
    if (!replay) await ctx.stores.ledger.uncountGeneration(caller.workspaceId, fp).catch(() => undefined);
  };

  try {
    if (free || cost === 0) {
      usageBefore = usageAfter = (await currentUsage(ctx, caller.workspaceId)).character_count;
    } else {
      const result = await charge(ctx, { workspaceId: caller.workspaceId, key: chargeKey, amount: cost, caps: await spendingCaps(caller) });
      charged = result.charged;
      usageAfter = result.usage.character_count;
      usageBefore = result.charged ? usageAfter - result.amount : usageAfter;
    }
  } catch (e) {
    await dropAudio();
    await undo();
    throw e;
  }

  const latencyMs = Math.max(0, Date.now() - req.receivedAt);

  async function* produce(): AsyncGenerator<GenerationChunk> {
    const made: Array<{ audio: Uint8Array; samples?: number }> = [];
    /** The engine's PCM, when the isolator runs over it. */
    const raw: Uint8Array[] = [];
    const originals: CharTimes[] = [];
    const spokenAll: CharTimes[] = [];
    const trackers = prepared.map((p) => new AlignmentTracker(p.mapped));
    const segmentStart = prepared.map(() => Number.POSITIVE_INFINITY);
    const segmentEnd = prepared.map(() => 0);
    let finished = false;
    let failed = false;
    /** Characters of the caller's text covered by the audio handed out so far. */
    let synthesised = 0;
    let drained = false;
    // A client that went away stops the synthesis: it is settled as an early stop below.
    const gone = () => stopAudio.abort();
    req.signal?.addEventListener("abort", gone, { once: true });
    if (req.signal?.aborted) gone();
    try {
      for (let next = await firstAudio; !next.done; next = await audio.next()) {
        const chunk = next.value;
        const i = chunk.requestIndex;
        const { spoken, original } = trackers[i].add(chunk.textOffset, chunk.alignment);
        synthesised += original.characters.length;
        if (chunk.alignment.characters.length) {
          segmentStart[i] = Math.min(segmentStart[i], chunk.alignment.character_start_times_seconds[0]);
          segmentEnd[i] = Math.max(segmentEnd[i], chunk.alignment.character_end_times_seconds.at(-1)!);
        }
        originals.push(original);
        spokenAll.push(spoken);
        if (isolate) {
          // The timings go out now; the audio after the isolator.
          raw.push(chunk.audio);
          yield { audio: new Uint8Array(0), partIndex: i, alignment: original, normalizedAlignment: spoken };
          continue;
        }
        made.push({ audio: chunk.audio, samples: chunk.samples });
        yield { audio: chunk.audio, partIndex: i, alignment: original, normalizedAlignment: spoken, samples: chunk.samples };
      }
      drained = true;
      if (isolate) {
        for await (const part of isolated(raw)) {
          made.push(part);
          yield { audio: part.audio, partIndex: prepared.length - 1, alignment: EMPTY_TIMES, normalizedAlignment: EMPTY_TIMES, samples: part.samples };
        }
      }
      // Characters no chunk spoke (trailing spaces, empty lines) still get a place in the timeline.
      for (let i = 0; i < trackers.length; i++) {
        const rest = trackers[i].flush();
        if (rest.characters.length) {
          originals.push(rest);
          yield { audio: new Uint8Array(0), partIndex: i, alignment: rest, normalizedAlignment: { characters: [], character_start_times_seconds: [], character_end_times_seconds: [] } };
        }
      }
      for (let i = 0; i < prepared.length; i++) {
        const p = prepared[i];
        voiceSegments.push({
          voice_id: p.part.voice.voice_id,
          start_time_seconds: Number.isFinite(segmentStart[i]) ? segmentStart[i] : segmentEnd[Math.max(0, i - 1)],
          end_time_seconds: Math.max(segmentEnd[i], Number.isFinite(segmentStart[i]) ? segmentStart[i] : 0),
          character_start_index: p.originalOffset,
          character_end_index: p.originalOffset + codePointLength(p.part.text),
          dialogue_input_index: i,
        });
      }
      finished = true;
      if (!free && deps.onGenerated) await deps.onGenerated(ctx, req.parts).catch((e: unknown) => ctx.log.error("usage counters failed", { error: e }));
      if (historyItemId) {
        await storeHistory(ctx, caller, {
          historyItemId,
          req,
          seed,
          engineId: engine.id,
          audio: made,
          alignment: concatTimes(originals),
          normalized: concatTimes(spokenAll),
          usageBefore,
          usageAfter,
          applied,
        });
      }
    } catch (e) {
      if (!(req.signal?.aborted && !finished)) {
        failed = true;
        if (!finished) await undo();
      }
      throw engineFailure(e);
    } finally {
      req.signal?.removeEventListener("abort", gone);
      // Stops the engine's work for a consumer that left early (or failed) before the last chunk.
      if (!drained) await dropAudio();
      if (!finished && !failed) {
        // The client left before the end. A whole answer was never sent: nothing is charged,
        // nothing kept. A stream (a closed stream, a Stop button): the rule is to pay for what
        // was synthesised, get the rest back, and keep what was made in the history.
        if (req.wholeAnswer) await undo();
        else await settleEarlyStop(made, originals, spokenAll, synthesised).catch((e) => ctx.log.error("early stop settlement failed", { error: e }));
      }
      await release();
      // A whole answer's headers leave after this: they say how long it held its slot.
      if (finished && req.wholeAnswer) headers["server-timing"] += `, generate;dur=${Date.now() - timing.granted}`;
    }
  }

  /** The isolator over the whole synthesised PCM, in the caller's format, in the converter's worker. */
  async function* isolated(pcm: Uint8Array[]): AsyncGenerator<{ audio: Uint8Array; samples?: number }> {
    const bytes = concatBytes(pcm);
    const rate = parseOutputFormat(ISOLATED_SYNTH_FORMAT).sampleRate;
    if (bytes.length / 2 / rate > ISOLATED_MAX_SECONDS) throw new ApiError(400, "too_long_to_isolate", generationMessages.tooLongToIsolate);
    const job = ctx.converter().isolate({
      bytes: concatBytes([wavHeader(rate, bytes.length), bytes]),
      fileFormat: "other",
      maxBytes: ISOLATION_MAX_BYTES,
      maxSeconds: ISOLATED_MAX_SECONDS,
      format: format.id,
      firstBlockSeconds: 0.5,
    });
    const stop = () => job.cancel();
    req.signal?.addEventListener("abort", stop, { once: true });
    try {
      for await (const part of job.chunks) yield { audio: part.audio, samples: part.samples };
      await job.done;
    } catch (e) {
      if (e instanceof AudioLimitError) throw new ApiError(400, "too_long_to_isolate", generationMessages.tooLongToIsolate);
      throw e;
    } finally {
      req.signal?.removeEventListener("abort", stop);
      job.cancel();
    }
  }

  async function settleEarlyStop(audio: Array<{ audio: Uint8Array; samples?: number }>, originals: CharTimes[], spokenAll: CharTimes[], synthesised: number): Promise<void> {
    let kept = usageAfter - usageBefore;
    if (charged && characters > 0) {
      const keep = Math.ceil(Math.min(characters, synthesised) * (cost / characters));
      const back = await refundPart(ctx, caller.workspaceId, chargeKey, keep);
      kept -= back;
    }
    if (historyItemId && audio.length) {
      await storeHistory(ctx, caller, {
        historyItemId,
        req,
        seed,
        engineId: engine.id,
        audio,
        alignment: concatTimes(originals),
        normalized: concatTimes(spokenAll),
        usageBefore,
        usageAfter: usageBefore + kept,
        applied,
        interrupted: { characters_synthesised: Math.min(characters, synthesised), characters_requested: characters },
      });
    }
  }

  const headers: Record<string, string> = {
    "character-cost": String(free ? 0 : cost),
    "regeneration-count": String(generationNumber - 1),
    "free-regenerations-remaining": String(Math.max(0, maxFree - generationNumber)),
    "generation-info": Buffer.from(JSON.stringify({ request_id: req.requestId, model_id: req.model.model_id, seed, generation: generationNumber })).toString("base64"),
    "tts-latency-ms": String(latencyMs),
    // Ours: how long the request waited in its workspace's queue for a concurrency slot.
    "x-timbre-slot-wait-ms": String(slotWaitMs),
    // The server's own time for the request (W3C Server-Timing, shown by browsers' developer
    // tools), in ms: from its arrival to asking for a slot (credentials, voice, settings), its
    // wait for the slot (x-timbre-slot-wait-ms), and for a whole answer the time it held the slot
    // (text, charge, synthesis, encoding, history, release). A stream's headers leave before its
    // audio is made, so a stream has only the first two.
    "server-timing": `before-slot;dur=${timing.beforeSlotMs}, slot-wait;dur=${slotWaitMs}`,
  };
  if (historyItemId) headers["history-item-id"] = historyItemId;
  if (warnings.length) headers["x-timbre-warnings"] = encodeURIComponent(warnings.join(" | "));

  return {
    historyItemId,
    cost,
    charged,
    generationNumber,
    freeRegenerationsLeft: Math.max(0, maxFree - generationNumber),
    seed,
    warnings,
    headers,
    contentType: format.contentType,
    format,
    chunks: produce(),
    voiceSegments: () => voiceSegments,
  };
}

const EMPTY_TIMES: CharTimes = { characters: [], character_start_times_seconds: [], character_end_times_seconds: [] };

async function storeHistory(
  ctx: AppContext,
  caller: Caller,
  g: {
    historyItemId: string;
    req: GenerationRequest;
    seed: number;
    engineId: string;
    audio: Array<{ audio: Uint8Array; samples?: number }>;
    alignment: CharTimes;
    normalized: CharTimes;
    usageBefore: number;
    usageAfter: number;
    applied: Locator[];
    interrupted?: HistoryRecord["interrupted"];
  },
): Promise<void> {
  const { req } = g;
  const ext = req.format.codec === "opus" ? "ogg" : req.format.codec;
  const audioKey = workspaceKey(caller.workspaceId, "history", `${g.historyItemId}.${ext}`);
  const alignmentKey = workspaceKey(caller.workspaceId, "history", `${g.historyItemId}.alignment.json`);
  // The stored file is the whole answer's file (an MP3 with its Info frame), so a download is too.
  const joined = wholeAudio(req.format, g.audio);
  await Promise.all([
    ctx.blobs.put(audioKey, joined, req.format.contentType),
    ctx.blobs.put(alignmentKey, JSON.stringify({ alignment: g.alignment, normalized_alignment: g.normalized }), "application/json"),
  ]);
  const first = req.parts[0];
  const now = ctx.now();
  // Each chunk says how many samples at the format's rate its audio decodes to.
  const samples = g.audio.reduce((n, a) => n + (a.samples ?? 0), 0);
  const record: HistoryRecord = {
    history_item_id: g.historyItemId,
    request_id: req.requestId,
    workspace_id: caller.workspaceId,
    user_id: caller.userId,
    api_key_id: caller.principal.apiKeyId ?? null,
    source: "TTS",
    voice_id: first.voice.voice_id,
    voice_name: first.voice.name,
    voice_category: first.voice.category,
    model_id: req.model.model_id,
    text: req.parts.map((p) => p.text).join(req.kind === "dialogue" ? "\n" : ""),
    dialogue: req.kind === "dialogue" ? req.parts.map((p) => ({ text: p.text, voice_id: p.voice.voice_id, voice_name: p.voice.name })) : null,
    date_unix: Math.floor(now / 1000),
    created_ms: now,
    character_count_change_from: g.usageBefore,
    character_count_change_to: g.usageAfter,
    content_type: req.format.contentType,
    output_format: req.format.id,
    audio_key: audioKey,
    alignment_key: alignmentKey,
    ...(samples > 0 ? { duration_secs: Math.round((samples / req.format.sampleRate) * 1000) / 1000 } : {}),
    ...(g.interrupted ? { interrupted: g.interrupted } : {}),
    replay: {
      engine: g.engineId,
      voice_versions: Object.fromEntries(req.parts.map((p) => [p.voice.voice_id, p.voice.version])),
      settings: req.kind === "dialogue" ? { parts: req.parts.map((p) => p.settings) } : { ...first.settings },
      seed: g.seed,
      language_code: req.languageCode,
      apply_text_normalization: req.normalization,
      previous_text: req.previousText,
      next_text: req.nextText,
      pronunciation_dictionary_locators: g.applied.length ? g.applied : req.locators,
    },
  };
  await ctx.stores.history.put(record);
}
