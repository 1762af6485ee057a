import { z } from "zod";
import type { AppContext } from "../../platform/context.js";
import { workspaceKey } from "../../platform/adapters/s3.js";
import type { VerificationAttemptRecord, VoiceRecord } from "../../platform/stores/voices.js";
import { AudioDecodeError, AudioLimitError } from "../../media/audio/decode/errors.js";
import { encodeWav, wavPcm16 } from "../../media/audio/wav.js";
import { floatToInt16 } from "../../media/audio/resample.js";
import { EMBEDDING_VERSION } from "../../media/voice-analysis/embedding.js";
import { VERIFICATION_RECORDING_MAX_SECONDS, verificationMessages } from "../../platform/contract/voiceCreation.js";
import { speakPcm16 } from "../../capabilities/voice-clone/render.js";
import { ownReading } from "../../capabilities/voice-verification/readings.js";
import { estimateProfile } from "../../capabilities/cloning/fit.js";
import type { VoiceProfile } from "../../media/engine/port.js";
import type { VoiceAnalysis } from "../../media/voice-analysis/port.js";
import { analyseVoice, SAMPLE_RATE } from "../../capabilities/voice-clone/samples.js";
import { decoysFor, levenshtein } from "../../capabilities/voice-verification/challenge.js";
import { readingVoices, SAMPLES_ONLY_THRESHOLD, SENTENCE_MARGIN_THRESHOLD, SPEAKER_THRESHOLD, sentenceMargin, speakerScore, speakerSimilarity } from "../../capabilities/voice-verification/scoring.js";
import { similarLibraryVoices } from "../../capabilities/voice-verification/alternatives.js";
import type { StepHandlers } from "./types.js";
import { emitEvent } from "../../platform/events/index.js";
import { attemptWindow } from "../../capabilities/voice-verification/attempts.js";

/**
 * The voice-verification workflow's steps (workflows/voice-verification.ts): prepare the
 * recording, check the speaker and the sentence in parallel, decide and record the attempt; any
 * failure records the attempt as an error (which does not count against the user). Instant
 * clones (read a sentence) and professional clones (read a captcha image) run the same steps.
 */
const Input = z.object({ workspace_id: z.string().min(1), voice_id: z.string().min(1), attempt_id: z.string().min(1), language: z.string().min(1) });
const MIN_SPEECH_SECONDS = 1;

async function load(ctx: AppContext, ws: string, voiceId: string, attemptId: string): Promise<{ voice: VoiceRecord; attempt: VerificationAttemptRecord }> {
  const voice = await ctx.stores.voices.get(ws, voiceId);
  const attempt = voice?.verification.attempts.find((a) => a.attempt_id === attemptId);
  if (!voice || !attempt) throw new Error(`verification attempt ${attemptId} of voice ${voiceId} not found`);
  return { voice, attempt };
}

const pcmKey = (ws: string, voiceId: string, attemptId: string) => workspaceKey(ws, "voices", voiceId, "verification", `${attemptId}.16k.wav`);

async function loadPcm(ctx: AppContext, key: string): Promise<Int16Array> {
  const o = await ctx.blobs.getBytes(key);
  if (!o) throw new Error(`prepared recording ${key} is missing`);
  // Our own 16-bit 16 kHz WAV: its samples go to the workers as they are stored (converted
  // there), so the request loop only copies them, once.
  const w = wavPcm16(o.bytes);
  if (!w || w.sampleRate !== SAMPLE_RATE) throw new Error(`prepared recording ${key} is not 16-bit mono at ${SAMPLE_RATE} Hz`);
  return w.pcm16;
}

type Summary = Omit<VoiceAnalysis, "segments">;

/**
 * A voice without a stored analysis (older voices, professional drafts) has its samples analysed by
 * its first attempt, and the analysis is kept beside the attempts' recordings for the next ones,
 * with the objects it was made of: a sample added, removed or cleaned makes a new one. Each attempt
 * decoded and analysed up to 3 minutes of samples again (a draft is often retried: five attempts a
 * day). The voice's deletion removes it with everything under the voice's prefix.
 */
const KeptSummary = z.object({ embedding_version: z.number(), objects: z.array(z.string()), summary: z.record(z.unknown()).nullable() });
const keptSummaryKey = (ws: string, v: VoiceRecord) => workspaceKey(ws, "voices", v.voice_id, "verification", "samples-analysis.json");
const sampleObjects = (v: VoiceRecord) => v.samples.map((s) => `${s.sample_id}:${s.isolated_object_key ?? s.object_key}`);

/** The kept analysis of `v`'s samples, when it was made of the objects the voice has now. */
async function keptSamplesAnalysis(ctx: AppContext, ws: string, v: VoiceRecord): Promise<{ summary: Summary | null } | undefined> {
  const o = await ctx.blobs.getBytes(keptSummaryKey(ws, v));
  if (!o) return undefined;
  const k = KeptSummary.safeParse(JSON.parse(Buffer.from(o.bytes).toString("utf8")));
  if (!k.success || k.data.embedding_version !== EMBEDDING_VERSION || JSON.stringify(k.data.objects) !== JSON.stringify(sampleObjects(v))) return undefined;
  return { summary: k.data.summary as Summary | null };
}

/** The voice's samples as one analysis: the stored one, the one an earlier attempt kept, or analysed now. */
async function samplesAnalysis(ctx: AppContext, ws: string, v: VoiceRecord): Promise<Summary | null> {
  if (v.analysis && v.analysis.embedding_version === EMBEDDING_VERSION) return v.analysis.summary;
  const earlier = await keptSamplesAnalysis(ctx, ws, v);
  if (earlier) return earlier.summary;
  const { summary, whole } = await analyseSamples(ctx, v);
  // Kept when it was made of every object it names and JSON holds it: no NaN or infinity. (Its -0s
  // read back as 0, as in the workflow's state, which hands the embedding on to the speaker step.)
  let finite = true;
  const kept = JSON.stringify({ embedding_version: EMBEDDING_VERSION, objects: sampleObjects(v), summary }, (_k, x: unknown) => {
    if (typeof x === "number" && !Number.isFinite(x)) finite = false;
    return x;
  });
  if (whole && finite) await ctx.blobs.put(keptSummaryKey(ws, v), kept, "application/json");
  return summary;
}

async function analyseSamples(ctx: AppContext, v: VoiceRecord): Promise<{ summary: Summary | null; whole: boolean }> {
  const pieces: Float32Array[] = [];
  let seconds = 0;
  let whole = true;
  for (const s of v.samples) {
    if (seconds >= 180) break;
    const o = await ctx.blobs.getBytes(s.isolated_object_key ?? s.object_key);
    if (!o) {
      whole = false;
      continue;
    }
    const d = await ctx.analyzer().decode(o.bytes, { sampleRate: SAMPLE_RATE, maxSeconds: 45 * 60 });
    pieces.push(d.samples);
    seconds += d.durationSecs;
  }
  if (!pieces.length) return { summary: null, whole };
  const { segments: _segments, ...a } = await analyseVoice(ctx, pieces);
  return { summary: a.speechSecs > 0 ? a : null, whole };
}

/** A professional clone's profile is fitted by fine-tuning, which comes after verification. */
const isFitted = (v: VoiceRecord) => v.category !== "professional" || v.high_quality_base_model_ids.length > 0;

/**
 * What a recording is compared with, worked out once in the prepare step and handed to both
 * checks: the samples' embedding, and the profile the engine reads the sentences with. A voice
 * that is not fitted yet reads them with a profile estimated from its samples (pitch, pace,
 * gender): with its default profile a genuine reading's sentence margin fell below the threshold
 * for one in eight readings (docs/decisions/2026-11-27-verification-reading-profile.md).
 */
const Reference = z.object({ embedding: z.array(z.number()).nullable(), reading_profile: z.record(z.unknown()).nullable() });
type Reference = { embedding: number[] | null; reading_profile: VoiceProfile | null };

async function referenceFor(ctx: AppContext, ws: string, v: VoiceRecord): Promise<Reference> {
  const a = await samplesAnalysis(ctx, ws, v);
  if (!a) return { embedding: null, reading_profile: null };
  if (isFitted(v)) return { embedding: a.embedding, reading_profile: null };
  const gender = v.labels.gender === "male" || v.labels.gender === "female" ? v.labels.gender : undefined;
  const age = v.labels.age === "young" || v.labels.age === "middle_aged" || v.labels.age === "old" ? v.labels.age : undefined;
  const profile = estimateProfile({ analysis: a, language: v.profile.language, accent: v.profile.accent, gender, age, seed: v.profile.seed });
  return { embedding: a.embedding, reading_profile: profile };
}

/** The prepared reference a check step receives (the prepare step's output in the state). */
function preparedReference(raw: unknown, v: VoiceRecord): { embedding: number[] | null; profile: VoiceProfile } {
  const r = z.object({ prepared: z.object({ reference: Reference }) }).parse(raw).prepared.reference;
  return { embedding: r.embedding, profile: (r.reading_profile as VoiceProfile | null) ?? v.profile };
}

export const voiceVerificationSteps: StepHandlers = {
  async prepare(raw, ctx) {
    const { workspace_id, voice_id, attempt_id } = Input.parse(raw);
    const { voice, attempt } = await load(ctx, workspace_id, voice_id, attempt_id);
    const o = attempt.recording ? await ctx.blobs.getBytes(attempt.recording.object_key) : undefined;
    if (!o) return { ok: false, reasons: [verificationMessages.unknownError] };
    let samples: Float32Array;
    try {
      const d = await ctx.analyzer().decode(o.bytes, { sampleRate: SAMPLE_RATE, maxSeconds: VERIFICATION_RECORDING_MAX_SECONDS + 0.5 });
      samples = d.samples;
    } catch (e) {
      if (e instanceof AudioLimitError) return { ok: false, reasons: [verificationMessages.tooLong] };
      if (e instanceof AudioDecodeError) return { ok: false, reasons: [e.message] };
      throw e;
    }
    const clean = await ctx.analyzer().denoise(samples, SAMPLE_RATE);
    const speech = await ctx.analyzer().detectSpeech(clean, SAMPLE_RATE);
    const speechSecs = speech.reduce((n, s) => n + s.end - s.start, 0);
    if (speechSecs < MIN_SPEECH_SECONDS) return { ok: false, reasons: [speechSecs > 0 ? verificationMessages.tooShort : verificationMessages.noSpeech] };
    await ctx.blobs.put(pcmKey(workspace_id, voice_id, attempt_id), encodeWav(floatToInt16(clean), SAMPLE_RATE), "audio/wav");
    return { ok: true, reasons: [], speech_secs: Math.round(speechSecs * 100) / 100, reference: await referenceFor(ctx, workspace_id, voice) };
  },

  async speaker(raw, ctx) {
    const { workspace_id, voice_id, attempt_id } = Input.parse(raw);
    const { voice, attempt } = await load(ctx, workspace_id, voice_id, attempt_id);
    const recording = await loadPcm(ctx, pcmKey(workspace_id, voice_id, attempt_id));
    const ref = preparedReference(raw, voice);
    const samples = ref.embedding;
    const [rec, reading] = await Promise.all([
      ctx.analyzer().analyzeSamples(recording, SAMPLE_RATE),
      ownReading(ctx, ref.profile, attempt.text).then((r) => ctx.analyzer().analyzeSamples(r.pcm, r.sampleRate)),
    ]);
    const toSamples = speakerSimilarity(rec.embedding, samples ?? reading.embedding);
    const toReading = speakerSimilarity(rec.embedding, reading.embedding);
    // Until a professional clone is fine-tuned the engine's reading is not its speaker, and the
    // samples alone decide, against their own calibrated threshold (functions/media/engine/README.md).
    const samplesOnly = !isFitted(voice) && samples !== null;
    const score = Math.round((samplesOnly ? toSamples : speakerScore(toSamples, toReading)) * 1000) / 1000;
    const threshold = samplesOnly ? SAMPLES_ONLY_THRESHOLD : SPEAKER_THRESHOLD;
    return { similarity: score, to_samples: Math.round(toSamples * 1000) / 1000, to_reading: Math.round(toReading * 1000) / 1000, threshold, accepted: score >= threshold };
  },

  async sentence(raw, ctx) {
    const { workspace_id, voice_id, attempt_id, language } = Input.parse(raw);
    const { voice, attempt } = await load(ctx, workspace_id, voice_id, attempt_id);
    const recording = await loadPcm(ctx, pcmKey(workspace_id, voice_id, attempt_id));
    const candidates = [attempt.text, ...decoysFor(attempt.text, language, attempt_id)];
    const { profile } = preparedReference(raw, voice);
    // Every candidate read by several voices (candidate-major), so the fit does not hang on the reader sounding like one of them.
    // The first, the voice's own reading of the sentence, is the one the speaker step analyses (made once for both).
    const voices = readingVoices(language, profile);
    const readings = await Promise.all(candidates.flatMap((c, i) => voices.map((p, j) => (i === 0 && j === 0 ? ownReading(ctx, p, c) : speakPcm16(ctx, p, c)))));
    const costs = await ctx.analyzer().sentenceCosts(recording, SAMPLE_RATE, readings.map((r) => r.pcm), readings[0].sampleRate);
    const m = sentenceMargin(costs, voices.length);
    const best = Math.floor(costs.indexOf(Math.min(...costs)) / voices.length);
    return {
      cost: m.cost,
      best_decoy_cost: m.bestDecoy,
      margin: Math.round(m.margin * 1000) / 1000,
      accepted: m.margin >= SENTENCE_MARGIN_THRESHOLD,
      // What the recording fits best among the sentences it was aligned with (not a transcript).
      transcription: candidates[best],
    };
  },

  async decide(raw, ctx) {
    const input = z
      .object({
        prepared: z.object({ ok: z.boolean(), reasons: z.array(z.string()) }),
        // The parallel branches' outputs: each branch's input with its step's result beside it.
        checks: z
          .tuple([
            z.object({ result: z.object({ similarity: z.number(), to_samples: z.number(), to_reading: z.number(), threshold: z.number(), accepted: z.boolean() }) }),
            z.object({ result: z.object({ cost: z.number(), best_decoy_cost: z.number(), margin: z.number(), accepted: z.boolean(), transcription: z.string() }) }),
          ])
          .optional(),
      })
      .passthrough()
      .parse(raw);
    const { workspace_id, voice_id, attempt_id } = Input.parse(raw);
    const [speaker, sentence] = input.checks ? [input.checks[0].result, input.checks[1].result] : [null, null];
    const reasons = [...input.prepared.reasons];
    if (speaker && !speaker.accepted) reasons.push(verificationMessages.differentSpeaker);
    if (sentence && !sentence.accepted) reasons.push(verificationMessages.wrongSentence);
    const accepted = input.prepared.ok && !!speaker?.accepted && !!sentence?.accepted;
    let alternatives: VerificationAttemptRecord["alternatives"] = [];
    if (!accepted) {
      const { voice } = await load(ctx, workspace_id, voice_id, attempt_id);
      alternatives = await similarLibraryVoices(ctx, voice).catch((e: unknown) => {
        ctx.log.warn("similar voices failed", { error: String(e) });
        return [];
      });
    }
    const voice = await updateAttempt(ctx, workspace_id, voice_id, attempt_id, (a) => ({
      ...a,
      status: accepted ? "accepted" : "rejected",
      accepted,
      reasons,
      similarity: speaker?.similarity ?? 0,
      speaker: speaker ? { similarity: speaker.similarity, threshold: speaker.threshold, accepted: speaker.accepted } : null,
      sentence: sentence ? { cost: sentence.cost, best_decoy_cost: sentence.best_decoy_cost, margin: sentence.margin, accepted: sentence.accepted } : null,
      levenshtein_distance: sentence ? levenshtein(a.text, sentence.transcription) : a.text.length,
      recording: a.recording ? { ...a.recording, transcription: sentence?.transcription ?? "" } : null,
      alternatives,
    }), accepted ? undefined : reasons);
    // The owner hears of the decision (webhook voice_verification_result), whichever clone it is.
    if (voice) {
      await emitEvent(
        ctx,
        workspace_id,
        "voice_verification_result",
        {
          voice_id,
          attempt_id,
          accepted,
          similarity: speaker?.similarity ?? 0,
          reasons,
          attempts_left: attemptWindow(voice.verification, ctx.now()).left,
        },
        { userId: voice.owner_user_id },
      );
    }
    return { accepted };
  },

  async recordError(raw, ctx) {
    const { workspace_id, voice_id, attempt_id } = Input.parse(raw);
    ctx.log.error("voice verification failed", { input: raw });
    const voice = await updateAttempt(ctx, workspace_id, voice_id, attempt_id, (a) => ({ ...a, status: "error", accepted: false, reasons: [verificationMessages.unknownError] }));
    return { recorded: true };
  },
};

/** Writes the attempt's outcome (compare-and-set); an accepted one verifies the voice. The voice after it, if it still exists. */
async function updateAttempt(
  ctx: AppContext,
  ws: string,
  voiceId: string,
  attemptId: string,
  change: (a: VerificationAttemptRecord) => VerificationAttemptRecord,
  failures?: string[],
): Promise<VoiceRecord | undefined> {
  for (let tries = 0; tries < 10; tries++) {
    const v = await ctx.stores.voices.get(ws, voiceId);
    if (!v) return undefined;
    const attempts = v.verification.attempts.map((a) => (a.attempt_id === attemptId ? change(a) : a));
    const updated = attempts.find((a) => a.attempt_id === attemptId);
    if (!updated) return undefined;
    const next = {
      ...v.verification,
      attempts,
      is_verified: v.verification.is_verified || updated.status === "accepted",
      failures: failures ? [...v.verification.failures, ...failures].slice(-20) : v.verification.failures,
    };
    if (await ctx.stores.voices.casVerification(ws, voiceId, v.verification_rev ?? 0, next)) return { ...v, verification: next };
  }
  throw new Error(`could not record verification attempt ${attemptId}`);
}
