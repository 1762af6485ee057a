/**
 * Speaker separation of one sample: the API marks it pending and starts the speaker-separation
 * workflow; the workflow's step decodes the sample, finds who speaks when
 * (functions/media/separation), stores each speaker's audio beside the sample and writes the result
 * on the sample; the wizard polls every 5 s and then lets the user pick the speakers training
 * uses (`selected_speaker_ids`).
 */
import type { AppContext } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import type { SpeakerRecord, SpeakerSeparationRecord, VoiceRecord } from "../../platform/stores/voices.js";
import { ApiError } from "../../platform/http/errors.js";
import { runCpu } from "../../platform/offload/index.js";
import { PVC, pvcMessages } from "../../platform/contract/pvc.js";
import { changePvcVoice, ownPvcVoice } from "./records.js";
import { ANALYSIS_RATE, decodeSample, findSample, speakerAudioKey, trimRange } from "./samples.js";

export const SPEAKER_SEPARATION_WORKFLOW = "speaker-separation";

export async function startSeparation(ctx: AppContext, caller: Caller, voiceId: string, sampleId: string): Promise<void> {
  let already = false;
  await changePvcVoice(ctx, caller, voiceId, (v) => {
    const s = findSample(v, sampleId);
    already = s.speaker_separation?.status === "pending";
    if (already) return v;
    const pending: SpeakerSeparationRecord = { status: "pending", speakers: null, selected_speaker_ids: null };
    return { ...v, samples: v.samples.map((x) => (x.sample_id === sampleId ? { ...x, speaker_separation: pending } : x)) };
  });
  if (already) return;
  try {
    await ctx.workflows.start(SPEAKER_SEPARATION_WORKFLOW, { workspace_id: caller.workspaceId, voice_id: voiceId, sample_id: sampleId, user_id: caller.userId });
  } catch (e) {
    await writeSeparation(ctx, caller.workspaceId, voiceId, sampleId, { status: "failed", speakers: null, selected_speaker_ids: null }).catch(() => undefined);
    ctx.log.error("could not start speaker separation", { error: e });
    throw new ApiError(500, "separation_not_started", pvcMessages.separationStartFailed);
  }
}

/** `speakers.get`: the sample's separation as the wire shows it. */
export async function separationOf(ctx: AppContext, caller: Caller, voiceId: string, sampleId: string) {
  const v = await ownPvcVoice(ctx, caller, voiceId);
  const s = findSample(v, sampleId);
  const sep = s.speaker_separation ?? { status: "not_started" as const, speakers: null, selected_speaker_ids: null };
  return { voice_id: voiceId, sample_id: sampleId, status: sep.status, speakers: sep.speakers, selected_speaker_ids: sep.selected_speaker_ids, message: sep.message ?? null };
}

/** `speakers.audio.get`: one speaker's part of the sample (made by the workflow). */
export async function speakerAudio(ctx: AppContext, caller: Caller, voiceId: string, sampleId: string, speakerId: string) {
  const v = await ownPvcVoice(ctx, caller, voiceId);
  const s = findSample(v, sampleId);
  const speaker = s.speaker_separation?.speakers?.[speakerId];
  if (!speaker) throw new ApiError(404, "speaker_not_found", `No speaker ${speakerId} in this sample.`);
  const audio = await ctx.blobs.getBytes(speakerAudioKey(caller.workspaceId, voiceId, sampleId, speakerId));
  if (!audio) throw new ApiError(404, "speaker_not_found", `No speaker ${speakerId} in this sample.`);
  return { audio_base_64: Buffer.from(audio.bytes).toString("base64"), media_type: "audio/wav", duration_secs: speaker.duration_secs };
}

/** Writes a separation result on a sample, whoever asked (the workflow has no caller). */
export async function writeSeparation(ctx: AppContext, ws: string, voiceId: string, sampleId: string, sep: SpeakerSeparationRecord): Promise<VoiceRecord | undefined> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const v = await ctx.stores.voices.get(ws, voiceId);
    if (!v || !v.samples.some((s) => s.sample_id === sampleId)) return undefined; // deleted meanwhile
    const next = { ...v, version: v.version + 1, samples: v.samples.map((s) => (s.sample_id === sampleId ? { ...s, speaker_separation: sep } : s)) };
    if (await ctx.stores.voices.replace(next, v.version)) return next;
  }
  throw new Error("voice changed too often while writing the speaker separation");
}

export class NoSpeakersError extends Error {
  override name = "NoSpeakersDetected";
  constructor() {
    super(pvcMessages.noSpeakers);
  }
}

/**
 * The workflow's work: decode the sample (within its trim), separate, keep each speaker's audio
 * as WAV beside the sample, and record the speakers (ids speaker_0..5 by first appearance).
 */
export async function separateSample(ctx: AppContext, ws: string, voiceId: string, sampleId: string): Promise<{ speakers: number }> {
  const v = await ctx.stores.voices.get(ws, voiceId);
  if (!v) throw new Error(`voice ${voiceId} not found`);
  const s = findSample(v, sampleId);
  const decoded = await decodeSample(ctx, s);
  const range = trimRange(s, decoded.durationSecs);
  const audio = decoded.samples.slice(Math.floor(range.start * ANALYSIS_RATE), Math.ceil(range.end * ANALYSIS_RATE));
  // Ten minutes of audio is 38 MB of samples: moved to the workers, never copied on the loop.
  const found = await runCpu("separate", { samples: audio, rate: ANALYSIS_RATE }, [audio.buffer as ArrayBuffer]);
  if (found.length === 0) throw new NoSpeakersError();
  const kept = found.slice(0, PVC.speakerColours).map((sp) => ({
    ...sp,
    // Times on the sample's own timeline (the trim moved them).
    utterances: sp.utterances.map((u) => ({ start: round3(u.start + range.start), end: round3(u.end + range.start) })),
  }));
  const { wavs } = await runCpu("wavs", { samples: decoded.samples, rate: ANALYSIS_RATE, speakers: kept.map((sp) => sp.utterances) }, [decoded.samples.buffer as ArrayBuffer]);
  const speakers: Record<string, SpeakerRecord> = {};
  for (const [i, sp] of kept.entries()) {
    await ctx.blobs.put(speakerAudioKey(ws, voiceId, sampleId, sp.speaker_id), wavs[i]!, "audio/wav");
    speakers[sp.speaker_id] = { speaker_id: sp.speaker_id, duration_secs: sp.duration_secs, utterances: sp.utterances };
  }
  const ids = Object.keys(speakers);
  await writeSeparation(ctx, ws, voiceId, sampleId, { status: "completed", speakers, selected_speaker_ids: ids.length === 1 ? ids : null });
  return { speakers: ids.length };
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
