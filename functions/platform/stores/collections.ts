import type { Table } from "./table.js";
import { withoutKeys, type Stored } from "./table.js";
import type { ResourceRole } from "../contract/dictionaries.js";

/**
 * Voice collections in the main table: one item per collection and one per voice in it, so a
 * voice can be in a collection whatever workspace record it is (premade voices included) and
 * removing it touches one item.
 */
export interface CollectionRecord {
  collection_id: string;
  workspace_id: string;
  title: string;
  icon: string;
  created_by: string;
  created_at_unix: number;
  /** Sharing with groups, as for dictionaries; the creator and workspace admins are admin. */
  role_to_group_ids: Partial<Record<ResourceRole, string[]>>;
  user_roles: Record<string, ResourceRole>;
}

export interface CollectionMember {
  collection_id: string;
  voice_id: string;
  added_at_unix: number;
}

const keys = {
  collection: (ws: string, id: string) => ({ pk: `WS#${ws}`, sk: `COLL#${id}` }),
  member: (ws: string, id: string, voiceId: string) => ({ pk: `WS#${ws}`, sk: `COLLV#${id}#${voiceId}` }),
};

export class Collections {
  constructor(private readonly main: Table) {}

  async create(c: CollectionRecord): Promise<void> {
    await this.main.put({ ...keys.collection(c.workspace_id, c.collection_id), ...c }, { ifAbsent: true });
  }

  async get(ws: string, id: string): Promise<CollectionRecord | undefined> {
    const item = await this.main.get<Stored<CollectionRecord>>(keys.collection(ws, id));
    return item ? withoutKeys<CollectionRecord>(item) : undefined;
  }

  async list(ws: string): Promise<CollectionRecord[]> {
    return (await this.main.queryPrefix<Stored<CollectionRecord>>(`WS#${ws}`, "COLL#")).map((i) => withoutKeys<CollectionRecord>(i));
  }

  async patch(ws: string, id: string, fields: Partial<Pick<CollectionRecord, "title" | "icon">>): Promise<CollectionRecord | undefined> {
    const item = await this.main.patch<Stored<CollectionRecord>>(keys.collection(ws, id), fields);
    return item ? withoutKeys<CollectionRecord>(item) : undefined;
  }

  async patchSharing(ws: string, id: string, fields: Pick<CollectionRecord, "role_to_group_ids" | "user_roles">): Promise<CollectionRecord | undefined> {
    const item = await this.main.patch<Stored<CollectionRecord>>(keys.collection(ws, id), fields);
    return item ? withoutKeys<CollectionRecord>(item) : undefined;
  }

  /** The collection first (it disappears at once), then its members. */
  async delete(ws: string, id: string): Promise<void> {
    await this.main.delete(keys.collection(ws, id));
    const members = await this.members(ws, id);
    await this.main.batchDelete(members.map((m) => keys.member(ws, id, m.voice_id)));
  }

  async addVoice(ws: string, m: CollectionMember): Promise<void> {
    await this.main.put({ ...keys.member(ws, m.collection_id, m.voice_id), ...m }, { ifAbsent: true });
  }

  async removeVoice(ws: string, id: string, voiceId: string): Promise<void> {
    await this.main.delete(keys.member(ws, id, voiceId));
  }

  async members(ws: string, id: string): Promise<CollectionMember[]> {
    return (await this.main.queryPrefix<Stored<CollectionMember>>(`WS#${ws}`, `COLLV#${id}#`)).map((i) => withoutKeys<CollectionMember>(i));
  }

  /** Every membership in the workspace (to show each voice's collection_ids). */
  async memberships(ws: string): Promise<CollectionMember[]> {
    return (await this.main.queryPrefix<Stored<CollectionMember>>(`WS#${ws}`, "COLLV#")).map((i) => withoutKeys<CollectionMember>(i));
  }

  async removeVoiceEverywhere(ws: string, voiceId: string): Promise<void> {
    const mine = (await this.memberships(ws)).filter((m) => m.voice_id === voiceId);
    await this.main.batchDelete(mine.map((m) => keys.member(ws, m.collection_id, voiceId)));
  }
}
