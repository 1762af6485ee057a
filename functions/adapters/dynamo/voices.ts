import type { Table } from "./table.js";
import type { VoiceProfile, VoiceSettings } from "../../engine/port.js";
import { withoutKeys, type Stored } from "./table.js";

export type VoiceCategory = "premade" | "cloned" | "generated" | "professional";

/** Stored exactly as the engine port describes them (engine-agnostic). */
export type StoredVoiceSettings = VoiceSettings;
export type StoredVoiceProfile = VoiceProfile;

export interface VoiceSampleRecord {
  sample_id: string;
  file_name: string;
  mime_type: string;
  size_bytes: number;
  hash: string;
  duration_secs: number;
  object_key: string;
  remove_background_noise: boolean;
  trim_start: number | null;
  trim_end: number | null;
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
  requires_verification: boolean;
  is_verified: boolean;
  verification_failures: string[];
  verification_attempts_count: number;
  /** Engine-specific references (a reference-audio key, a neural speaker id). */
  engine_refs: Record<string, string>;
}

const PREMADE = "PREMADE";
const keys = {
  voice: (ws: string | null, voiceId: string) => ({ pk: ws ? `WS#${ws}` : PREMADE, sk: `VOICE#${voiceId}` }),
  byId: (voiceId: string) => ({ gsi1pk: `VOICE#${voiceId}`, gsi1sk: "VOICE" }),
  settings: (ws: string, voiceId: string) => ({ pk: `WS#${ws}`, sk: `VOICESETTINGS#${voiceId}` }),
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

  /** A voice the workspace may see: its own or a premade one. Another workspace's voice reads as absent. */
  async visibleTo(ws: string, voiceId: string): Promise<VoiceRecord | undefined> {
    const premade = (await this.premadeIndex()).byId.get(voiceId);
    if (premade) return premade;
    const own = await this.main.get<Stored<VoiceRecord>>(keys.voice(ws, voiceId));
    return own ? strip(own) : undefined;
  }

  async delete(ws: string, voiceId: string): Promise<boolean> {
    return this.main.delete(keys.voice(ws, voiceId), { expression: "attribute_exists(pk)" });
  }

  async patch(ws: string | null, voiceId: string, fields: Partial<VoiceRecord>): Promise<VoiceRecord | undefined> {
    if (ws === null) this.premadeCache = undefined;
    const item = await this.main.patch<Stored<VoiceRecord>>(keys.voice(ws, voiceId), fields);
    return item ? strip(item) : undefined;
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
}
