import type { Table } from "./table.js";
import { withoutKeys, type Stored } from "./table.js";
import type { StoredVoiceProfile, StoredVoiceSettings, VoiceSampleRecord } from "./voices.js";
import type { StoredVoiceAnalysis } from "./voiceAnalysis.js";

/**
 * Generated voices: previews a user can still turn into a voice (voice design, remix, and the
 * instant clone's preview-first flow), in the main table under their workspace.
 *   get:   pk WS#{ws}  sk GENVOICE#{id}
 *   sweep: pk WS#{ws}  begins_with(sk, GENVOICE#)  (expired ones, whenever the workspace makes new ones)
 * They expire after GENERATED_VOICE_TTL_SECONDS: DynamoDB's TTL removes the item on AWS (lazily),
 * every read filters expired ones, and their audio objects go with the workspace's next sweep.
 */
export type GeneratedVoiceKind = "design" | "remix" | "clone";

export interface GeneratedCloneRecord {
  /** Samples already stored for this preview (under its own folder until it is saved). */
  samples: VoiceSampleRecord[];
  /** Samples of `voice_id` the edit keeps (an edit's preview). */
  kept_sample_ids: string[];
  /** The voice an edit's preview belongs to. */
  voice_id: string | null;
  analysis: StoredVoiceAnalysis;
}

export interface GeneratedVoiceRecord {
  generated_voice_id: string;
  workspace_id: string;
  user_id: string;
  kind: GeneratedVoiceKind;
  description: string;
  profile: StoredVoiceProfile;
  settings: StoredVoiceSettings;
  /** Suggested labels (language, accent, gender, age, descriptive). */
  labels: Record<string, string>;
  language: string;
  text: string;
  audio_object_key: string;
  media_type: string;
  duration_secs: number;
  /** The remixed voice (remix only). */
  source_voice_id: string | null;
  clone: GeneratedCloneRecord | null;
  created_at_unix: number;
  expires_at_unix: number;
}

const keys = {
  generated: (ws: string, id: string) => ({ pk: `WS#${ws}`, sk: `GENVOICE#${id}` }),
};

export class GeneratedVoices {
  constructor(private readonly main: Table) {}

  async put(g: GeneratedVoiceRecord): Promise<void> {
    await this.main.put({ ...keys.generated(g.workspace_id, g.generated_voice_id), ...g, ttl: g.expires_at_unix });
  }

  /** The workspace's generated voice, unless it has expired. */
  async get(ws: string, id: string, nowUnix: number): Promise<GeneratedVoiceRecord | undefined> {
    const item = await this.main.get<Stored<GeneratedVoiceRecord>>(keys.generated(ws, id));
    if (!item || item.expires_at_unix <= nowUnix) return undefined;
    return withoutKeys<GeneratedVoiceRecord>(item);
  }

  /** Removes the workspace's expired generated voices; says which, so their audio can go too. */
  async sweepExpired(ws: string, nowUnix: number): Promise<GeneratedVoiceRecord[]> {
    const r = await this.main.query<Stored<GeneratedVoiceRecord>>({
      KeyConditionExpression: "pk = :p AND begins_with(sk, :s)",
      FilterExpression: "expires_at_unix <= :now",
      ExpressionAttributeValues: { ":p": `WS#${ws}`, ":s": "GENVOICE#", ":now": nowUnix },
    });
    const expired = r.items.map((i) => withoutKeys<GeneratedVoiceRecord>(i));
    if (expired.length) await this.main.batchDelete(expired.map((g) => keys.generated(ws, g.generated_voice_id)));
    return expired;
  }

  async delete(ws: string, id: string): Promise<void> {
    await this.main.delete(keys.generated(ws, id));
  }
}
