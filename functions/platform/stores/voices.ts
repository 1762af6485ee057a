import type { ResourceRole } from "../contract/dictionaries.js";
import type { Table } from "./table.js";
import type { VoiceProfile, VoiceSettings } from "../../media/engine/port.js";
import type { StoredVoiceAnalysis } from "./voiceAnalysis.js";
import { withoutKeys, type Stored } from "./table.js";

/**
 * Voices in the main table: premade ones under PREMADE, every other voice under the workspace
 * that holds it (its own creations and the library voices it added). The record is shaped once
 * for every issue that creates voices (design, instant and professional cloning, the library):
 * samples with their objects, fine-tuning per model, verification, the library reference,
 * safety control. Wire names are kept where the contract has them (§2 `Voice`).
 */
export type VoiceCategory = "premade" | "cloned" | "generated" | "professional" | "famous" | "high_quality";
export type FineTuningState = "not_started" | "queued" | "fine_tuning" | "fine_tuned" | "failed" | "delayed";
export type SafetyControl = "NONE" | "BAN" | "CAPTCHA" | "ENTERPRISE_BAN" | "ENTERPRISE_CAPTCHA";

/** Stored exactly as the engine port describes them (engine-agnostic). */
export type StoredVoiceSettings = VoiceSettings;
export type StoredVoiceProfile = VoiceProfile;

export interface SpeakerRecord {
  speaker_id: string;
  duration_secs: number;
  /** Stretches of the sample this speaker talks in, seconds. */
  utterances: Array<{ start: number; end: number }>;
}

export interface SpeakerSeparationRecord {
  status: "not_started" | "pending" | "completed" | "failed";
  speakers: Record<string, SpeakerRecord> | null;
  selected_speaker_ids: string[] | null;
  /** Why it failed ('No speakers detected.'), when it did. */
  message?: string | null;
}

export interface VoiceSampleRecord {
  sample_id: string;
  file_name: string;
  mime_type: string;
  size_bytes: number;
  /** sha256 of the uploaded bytes, hex. */
  hash: string;
  /** Null when the container does not say and nothing has decoded it yet. */
  duration_secs: number | null;
  object_key: string;
  remove_background_noise: boolean;
  /** The denoised audio, once a denoiser has made it. */
  isolated_object_key: string | null;
  /** Milliseconds into the sample. */
  trim_start: number | null;
  trim_end: number | null;
  speaker_separation: SpeakerSeparationRecord | null;
  created_at_unix: number;
  /**
   * A professional clone's sample: the voice's language when the sample was added (the language
   * the user said its audio is in). Absent on samples stored before it was kept.
   */
  language?: string | null;
}

export interface FineTuningRecord {
  is_allowed_to_fine_tune: boolean;
  /** A professional clone still being set up (pvc-create wizard) has not been submitted. */
  is_draft: boolean;
  /** model id -> state */
  state: Record<string, FineTuningState>;
  /** model id -> 0..1 */
  progress: Record<string, number>;
  /** model id -> message */
  message: Record<string, string>;
  language: string | null;
  dataset_duration_seconds: number | null;
  slice_ids: string[];
  manual_verification_requested: boolean;
  /** model id -> the S3 key of its latest dataset quality report (professional clones). */
  reports?: Record<string, string>;
}

export interface VerificationAttemptRecord {
  text: string;
  date_unix: number;
  accepted: boolean;
  similarity: number;
  levenshtein_distance: number;
  recording: { recording_id: string; object_key: string; mime_type: string; size_bytes: number; upload_date_unix: number; transcription: string } | null;
  /** The verification workflow's execution for this attempt (absent on attempts made before it existed). */
  attempt_id?: string;
  /** "pending" while the workflow runs; "error" when it failed (the attempt does not count). */
  status?: "pending" | "accepted" | "rejected" | "error";
  /** What failed, in words a user can act on (voice-verification README). */
  reasons?: string[];
  /** Same speaker: cosine similarity of the recording to the voice's samples, and its threshold. */
  speaker?: { similarity: number; threshold: number; accepted: boolean } | null;
  /** The sentence: alignment cost of the requested sentence and of the best decoy (lower fits better). */
  sentence?: { cost: number; best_decoy_cost: number; margin: number; accepted: boolean } | null;
  /** "text" (read a sentence) or "captcha" (read an image; the professional clone). */
  kind?: "text" | "captcha";
  /** Up to 4 similar library voices offered after a failure. */
  alternatives?: Array<{ voice_id: string; public_owner_id: string; name: string; similarity: number }>;
}

/** The sentence the user is asked to read next; a new one per attempt. */
export interface VerificationChallenge {
  text: string;
  language: string;
  issued_at_unix: number;
}

export interface VerificationRecord {
  requires_verification: boolean;
  is_verified: boolean;
  failures: string[];
  attempts: VerificationAttemptRecord[];
  max_attempts: number;
  language: string | null;
  /** When the attempt counter resets, ms since the epoch. */
  next_attempts_reset_unix_ms: number | null;
  /** The sentence shown for the next attempt (absent until one is asked for). */
  challenge?: VerificationChallenge | null;
}

/**
 * The voice's tie to the voice library. The listing (library table) is the one source of the
 * public settings, the notice period and the counters; this only says which listing and how.
 */
export interface VoiceSharingRef {
  /** The publisher's public id (`LibraryVoiceResponse.public_owner_id`). */
  public_owner_id: string;
  /** Set on a voice added from the library: the listing it came from. Null on the publisher's own voice. */
  original_voice_id: string | null;
  /** Published (own voice) or added (copy), unix seconds. */
  date_unix: number;
  bookmarked: boolean;
}

export interface VoiceRecord {
  voice_id: string;
  /** "premade" voices belong to no workspace. */
  workspace_id: string | null;
  owner_user_id: string | null;
  name: string;
  description: string | null;
  category: VoiceCategory;
  labels: Record<string, string>;
  created_at_unix: number;
  profile: StoredVoiceProfile;
  /** Bumped whenever the profile or samples change, so history can replay the exact voice. */
  version: number;
  settings: StoredVoiceSettings | null;
  preview_object_key: string | null;
  samples: VoiceSampleRecord[];
  is_legacy: boolean;
  high_quality_base_model_ids: string[];
  available_for_tiers: string[];
  fine_tuning: FineTuningRecord;
  verification: VerificationRecord;
  /** The latest manual verification request of a professional clone (the full request: ManualVerifications). */
  manual_verification?: VoiceManualVerification | null;
  sharing: VoiceSharingRef | null;
  safety_control: SafetyControl | null;
  /** Made by mixing other voices (remix): libraries may forbid it. */
  is_mixed: boolean;
  /** Engine-specific references (a reference-audio key, a neural speaker id). */
  engine_refs: Record<string, string>;
  /** A clone's samples analysed, and how the engine was fitted to them (absent on other voices). */
  analysis?: StoredVoiceAnalysis | null;
  /** Bumped by every verification change (compare-and-set: attempts are never lost or doubled). */
  verification_rev?: number;
  /** Workspace sharing (functions/capabilities/voices/access.ts): roles per group and per user; absent is private. */
  role_to_group_ids?: Partial<Record<ResourceRole, string[]>>;
  user_roles?: Record<string, ResourceRole>;
}

export const MAX_VERIFICATION_ATTEMPTS = 5;

/** The record parts a new voice starts with (nothing fine-tuned, nothing to verify). */
export interface VoiceManualVerification {
  request_id: string;
  extra_text: string;
  request_time_unix: number;
  files: Array<{ file_id: string; file_name: string; mime_type: string; size_bytes: number; upload_date_unix: number }>;
  status: "pending" | "approved" | "rejected";
  rejection_reason: string | null;
}

export function blankFineTuning(language: string | null): FineTuningRecord {
  return { is_allowed_to_fine_tune: false, is_draft: false, state: {}, progress: {}, message: {}, language, dataset_duration_seconds: null, slice_ids: [], manual_verification_requested: false };
}

export function blankVerification(language: string | null, requires = false): VerificationRecord {
  return { requires_verification: requires, is_verified: !requires, failures: [], attempts: [], max_attempts: MAX_VERIFICATION_ATTEMPTS, language, next_attempts_reset_unix_ms: null };
}

/** Slots a workspace holds: every non-premade voice, and professional clones counted again apart. */
export interface VoiceSlots {
  used: number;
  professional_used: number;
}

const PREMADE = "PREMADE";
const keys = {
  voice: (ws: string | null, voiceId: string) => ({ pk: ws ? `WS#${ws}` : PREMADE, sk: `VOICE#${voiceId}` }),
  byId: (voiceId: string) => ({ gsi1pk: `VOICE#${voiceId}`, gsi1sk: "VOICE" }),
  settings: (ws: string, voiceId: string) => ({ pk: `WS#${ws}`, sk: `VOICESETTINGS#${voiceId}` }),
  slots: (ws: string) => ({ pk: `WS#${ws}`, sk: "VOICESLOTS" }),
};

const strip = (i: Stored<VoiceRecord>) => withoutKeys<VoiceRecord>(i);

/** Premade voices change only when seeded: every request reading them from the table is waste. */
const PREMADE_CACHE_MS = 60_000;

export class Voices {
  private premadeCache: { at: number; list: VoiceRecord[]; byId: Map<string, VoiceRecord> } | undefined;

  constructor(private readonly main: Table) {}

  async put(v: VoiceRecord): Promise<void> {
    await this.main.put({ ...keys.voice(v.workspace_id, v.voice_id), ...keys.byId(v.voice_id), ...v });
    if (v.workspace_id === null) this.premadeCache = undefined;
  }

  /** Writes a new voice; false when its id is taken. */
  async create(v: VoiceRecord): Promise<boolean> {
    return this.main.put({ ...keys.voice(v.workspace_id, v.voice_id), ...keys.byId(v.voice_id), ...v }, { ifAbsent: true });
  }

  async premade(): Promise<VoiceRecord[]> {
    return (await this.premadeIndex()).list;
  }

  private async premadeIndex() {
    if (!this.premadeCache || Date.now() - this.premadeCache.at > PREMADE_CACHE_MS) {
      const list = (await this.main.queryPrefix<Stored<VoiceRecord>>(PREMADE, "VOICE#")).map(strip);
      this.premadeCache = { at: Date.now(), list, byId: new Map(list.map((v) => [v.voice_id, v])) };
    }
    return this.premadeCache;
  }

  async ofWorkspace(ws: string): Promise<VoiceRecord[]> {
    return (await this.main.queryPrefix<Stored<VoiceRecord>>(`WS#${ws}`, "VOICE#")).map(strip);
  }

  /** The workspace's voice (not premade); another workspace's reads as absent. */
  async get(ws: string, voiceId: string): Promise<VoiceRecord | undefined> {
    const own = await this.main.get<Stored<VoiceRecord>>(keys.voice(ws, voiceId));
    return own ? strip(own) : undefined;
  }

  /** A voice the workspace may see: its own or a premade one. Another workspace's voice reads as absent. */
  async visibleTo(ws: string, voiceId: string): Promise<VoiceRecord | undefined> {
    const premade = (await this.premadeIndex()).byId.get(voiceId);
    if (premade) return premade;
    return this.get(ws, voiceId);
  }

  /** original voice id -> the workspace's copy, for every library voice the workspace added. */
  async libraryCopies(ws: string): Promise<Map<string, string>> {
    const r = await this.main.query<{ voice_id: string; sharing?: VoiceSharingRef | null }>({
      KeyConditionExpression: "pk = :p AND begins_with(sk, :s)",
      ProjectionExpression: "voice_id, sharing",
      ExpressionAttributeValues: { ":p": `WS#${ws}`, ":s": "VOICE#" },
    });
    const out = new Map<string, string>();
    for (const i of r.items) if (i.sharing?.original_voice_id) out.set(i.sharing.original_voice_id, i.voice_id);
    return out;
  }

  /** `ws` null: a system voice (a Piper voice whose file was removed). */
  async delete(ws: string | null, voiceId: string): Promise<boolean> {
    if (ws === null) this.premadeCache = undefined;
    return this.main.delete(keys.voice(ws, voiceId), { expression: "attribute_exists(pk)" });
  }

  async patch(ws: string | null, voiceId: string, fields: Partial<VoiceRecord>): Promise<VoiceRecord | undefined> {
    if (ws === null) this.premadeCache = undefined;
    const item = await this.main.patch<Stored<VoiceRecord>>(keys.voice(ws, voiceId), fields);
    return item ? strip(item) : undefined;
  }

  /**
   * Changes a voice only if it is still at `version` (optimistic concurrency for edits that
   * read, change and write back, such as adding samples). False when someone else won.
   */
  async replace(v: VoiceRecord, expectedVersion: number): Promise<boolean> {
    if (v.workspace_id === null) throw new Error("premade voices are seeded, not replaced");
    return this.main.put(
      { ...keys.voice(v.workspace_id, v.voice_id), ...keys.byId(v.voice_id), ...v },
      { condition: "attribute_exists(pk) AND #v = :v", names: { "#v": "version" }, values: { ":v": expectedVersion } },
    );
  }

  /**
   * Sets one model's fine-tuning state, progress and message (and bumps the version, so an edit
   * that read the voice before cannot write an older state back). With `unlessIn`, nothing changes
   * when the model is already in one of those states (a second start): false then.
   */
  async setFineTuning(ws: string, voiceId: string, model: string, s: { state: FineTuningState; progress: number; message: string }, unlessIn: FineTuningState[] = []): Promise<VoiceRecord | false> {
    const values: Record<string, unknown> = { ":s": s.state, ":p": s.progress, ":m": s.message, ":one": 1 };
    unlessIn.forEach((st, i) => (values[`:u${i}`] = st));
    const item = await this.main.update<Stored<VoiceRecord>>(keys.voice(ws, voiceId), {
      UpdateExpression: "SET fine_tuning.#st.#model = :s, fine_tuning.progress.#model = :p, fine_tuning.message.#model = :m ADD #v :one",
      ConditionExpression: unlessIn.length
        ? `attribute_exists(pk) AND (attribute_not_exists(fine_tuning.#st.#model) OR NOT (fine_tuning.#st.#model IN (${unlessIn.map((_, i) => `:u${i}`).join(", ")})))`
        : "attribute_exists(pk)",
      ExpressionAttributeNames: { "#st": "state", "#model": model, "#v": "version" },
      ExpressionAttributeValues: values,
    });
    return item ? strip(item) : false;
  }

  /** A workspace's own settings for a voice it does not own (premade ones). */
  async workspaceSettings(ws: string, voiceId: string): Promise<StoredVoiceSettings | undefined> {
    const item = await this.main.get<Stored<{ settings: StoredVoiceSettings }>>(keys.settings(ws, voiceId));
    return item?.settings;
  }

  async putWorkspaceSettings(ws: string, voiceId: string, settings: StoredVoiceSettings): Promise<void> {
    await this.main.put({ ...keys.settings(ws, voiceId), settings });
  }

  async deleteWorkspaceSettings(ws: string, voiceId: string): Promise<void> {
    await this.main.delete(keys.settings(ws, voiceId));
  }

  async slots(ws: string): Promise<VoiceSlots> {
    const item = await this.main.get<Stored<VoiceSlots>>(keys.slots(ws));
    return { used: item?.used ?? 0, professional_used: item?.professional_used ?? 0 };
  }

  /**
   * Takes a voice slot (and a professional one) with one conditional update, so concurrent
   * creations can never hold more than the limits. Says which limit stopped it.
   */
  async reserveSlot(ws: string, limit: number, professional: { limit: number } | null): Promise<"ok" | "voice_limit" | "professional_limit"> {
    const r = await this.main.update(keys.slots(ws), {
      UpdateExpression: professional ? "ADD used :one, professional_used :one" : "ADD used :one",
      ConditionExpression: professional
        ? "(attribute_not_exists(used) OR used < :limit) AND (attribute_not_exists(professional_used) OR professional_used < :plimit)"
        : "attribute_not_exists(used) OR used < :limit",
      ExpressionAttributeValues: professional ? { ":one": 1, ":limit": limit, ":plimit": professional.limit } : { ":one": 1, ":limit": limit },
    });
    if (r) return "ok";
    if (!professional) return "voice_limit";
    const now = await this.slots(ws);
    return now.used >= limit ? "voice_limit" : "professional_limit";
  }

  /**
   * Replaces the voice's verification if nobody changed it since `rev` was read (its
   * verification_rev; 0 when it has none). False when someone else won.
   */
  async casVerification(ws: string, voiceId: string, rev: number, verification: VerificationRecord): Promise<boolean> {
    const r = await this.main.update(keys.voice(ws, voiceId), {
      UpdateExpression: "SET verification = :v, verification_rev = :next",
      ConditionExpression: rev === 0 ? "attribute_exists(pk) AND (attribute_not_exists(verification_rev) OR verification_rev = :rev)" : "attribute_exists(pk) AND verification_rev = :rev",
      ExpressionAttributeValues: { ":v": verification, ":next": rev + 1, ":rev": rev },
    });
    return !!r;
  }

  /** Records the voice's latest manual verification request and whether one is waiting (fine_tuning.manual_verification_requested). */
  async setManualVerification(ws: string, voiceId: string, mv: VoiceManualVerification, requested: boolean): Promise<boolean> {
    const r = await this.main.update(keys.voice(ws, voiceId), {
      UpdateExpression: "SET manual_verification = :m, fine_tuning.manual_verification_requested = :r",
      ConditionExpression: "attribute_exists(pk)",
      ExpressionAttributeValues: { ":m": mv, ":r": requested },
    });
    return !!r;
  }

  async releaseSlot(ws: string, professional: boolean): Promise<void> {
    await this.main.update(keys.slots(ws), {
      UpdateExpression: professional ? "ADD used :minus, professional_used :minus" : "ADD used :minus",
      ConditionExpression: "used > :zero",
      ExpressionAttributeValues: { ":minus": -1, ":zero": 0 },
    });
  }
}
