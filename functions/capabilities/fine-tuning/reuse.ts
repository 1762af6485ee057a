/**
 * What a fine-tuning run can take from an earlier run of the same voice instead of computing it
 * again. A retrain (or a retry after a failure) of samples nobody changed would otherwise decode,
 * clean and analyse every minute of audio again and refit the profile: the same input, the same
 * result, minutes of CPU on a server that has two cores.
 *
 * Each result is kept under a key that is the sha256 of everything that determines it:
 * - a sample's analysis: the uploaded bytes' sha256 (`VoiceSampleRecord.hash`), its trim, the
 *   selected speakers' utterances, and whether background noise is removed;
 * - the fit: the pooled analysis and the fit's other inputs (language, accent, labels, seed).
 * Change any of them (a new trim, another speaker chosen, noise removal switched, a sample added
 * or deleted) and the key changes, so the work is done again. REUSE_VERSION is part of every key:
 * raise it when the analysis or the fit changes what it computes, and nothing older is reused.
 *
 * The kept results live in the voice's own folder (`.../fine-tuning/reuse/`), so deleting the voice
 * deletes them, and one voice never reads another's.
 */
import { createHash } from "node:crypto";
import { workspaceKey } from "../../platform/adapters/s3.js";
import type { VoiceSampleRecord } from "../../platform/stores/voices.js";

export const REUSE_VERSION = 1;

const sha256 = (value: unknown) => createHash("sha256").update(JSON.stringify(value)).digest("hex");

export const reuseFolder = (ws: string, voiceId: string) => workspaceKey(ws, "voices", voiceId, "fine-tuning", "reuse");

/** The key of a sample's training audio and analysis: what they are computed from. */
export function sampleReuseKey(s: VoiceSampleRecord, rate: number): string {
  const sep = s.speaker_separation;
  const selected = sep?.status === "completed" && sep.speakers && sep.selected_speaker_ids?.length ? sep.selected_speaker_ids : null;
  const utterances = selected ? selected.map((id) => (sep!.speakers![id]?.utterances ?? []).map((u) => [u.start, u.end])) : null;
  return sha256({ v: REUSE_VERSION, kind: "sample", hash: s.hash, rate, trim: [s.trim_start, s.trim_end], selected, utterances, denoise: s.remove_background_noise });
}

/** The key of a fit: the pooled analysis and every other input of fitProfile. */
export function fitReuseKey(inputs: Record<string, unknown>): string {
  return sha256({ v: REUSE_VERSION, kind: "fit", ...inputs });
}
