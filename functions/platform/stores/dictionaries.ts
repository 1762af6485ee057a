import type { Table } from "./table.js";
import { withoutKeys, type Stored } from "./table.js";
import type { ResourceRole } from "../contract/dictionaries.js";

/**
 * Pronunciation dictionaries in the main table. A dictionary item carries its metadata, its
 * sharing (roles per group and per user) and a pointer to its latest version; every version is
 * its own immutable item (its rules live in S3 beside it), so older versions stay readable.
 * A new version is published with one conditional write on the pointer (optimistic
 * concurrency: no transactions needed).
 */
export interface DictionaryRecord {
  dictionary_id: string;
  workspace_id: string;
  name: string;
  description: string | null;
  created_by: string;
  creation_time_unix: number;
  archived_time_unix: number | null;
  latest_version_id: string;
  latest_version_rules_num: number;
  /** 1 for the first version, +1 per published version. */
  latest_version_seq: number;
  /** xml:lang of the imported lexicon, written back on export. */
  language: string | null;
  /** Sharing with groups; the default group ("default") is everyone in the workspace. */
  role_to_group_ids: Partial<Record<ResourceRole, string[]>>;
  /** Per-user roles (the creator is always admin and need not be listed). */
  user_roles: Record<string, ResourceRole>;
}

export interface DictionaryVersionRecord {
  dictionary_id: string;
  workspace_id: string;
  version_id: string;
  seq: number;
  rules_num: number;
  rules_key: string;
  created_by: string;
  created_at_unix: number;
}

const keys = {
  dictionary: (ws: string, id: string) => ({ pk: `WS#${ws}`, sk: `PD#${id}` }),
  version: (ws: string, id: string, versionId: string) => ({ pk: `WS#${ws}`, sk: `PDV#${id}#${versionId}` }),
};

export class Dictionaries {
  constructor(private readonly main: Table) {}

  /** Writes the first version, then the dictionary (which makes it visible). */
  async create(d: DictionaryRecord, first: DictionaryVersionRecord): Promise<void> {
    await this.putVersion(first);
    await this.main.put({ ...keys.dictionary(d.workspace_id, d.dictionary_id), ...d }, { ifAbsent: true });
  }

  /** The workspace's dictionary; another workspace's reads as absent. */
  async get(ws: string, id: string): Promise<DictionaryRecord | undefined> {
    const item = await this.main.get<Stored<DictionaryRecord>>(keys.dictionary(ws, id));
    return item ? withoutKeys<DictionaryRecord>(item) : undefined;
  }

  async ofWorkspace(ws: string): Promise<DictionaryRecord[]> {
    return (await this.main.queryPrefix<Stored<DictionaryRecord>>(`WS#${ws}`, "PD#")).map((i) => withoutKeys<DictionaryRecord>(i));
  }

  async putVersion(v: DictionaryVersionRecord): Promise<void> {
    await this.main.put({ ...keys.version(v.workspace_id, v.dictionary_id, v.version_id), ...v }, { ifAbsent: true });
  }

  async version(ws: string, id: string, versionId: string): Promise<DictionaryVersionRecord | undefined> {
    const item = await this.main.get<Stored<DictionaryVersionRecord>>(keys.version(ws, id, versionId));
    return item ? withoutKeys<DictionaryVersionRecord>(item) : undefined;
  }

  /** Moves the latest-version pointer from `fromVersionId`; undefined when someone else moved it first. */
  async publish(ws: string, id: string, fromVersionId: string, to: DictionaryVersionRecord): Promise<DictionaryRecord | undefined> {
    const item = await this.main.update<Stored<DictionaryRecord>>(keys.dictionary(ws, id), {
      UpdateExpression: "SET latest_version_id = :to, latest_version_rules_num = :n, latest_version_seq = :seq",
      ConditionExpression: "attribute_exists(pk) AND latest_version_id = :from",
      ExpressionAttributeValues: { ":to": to.version_id, ":n": to.rules_num, ":seq": to.seq, ":from": fromVersionId },
    });
    return item ? withoutKeys<DictionaryRecord>(item) : undefined;
  }

  async patch(ws: string, id: string, fields: Partial<Pick<DictionaryRecord, "name" | "archived_time_unix" | "role_to_group_ids" | "user_roles">>): Promise<DictionaryRecord | undefined> {
    const item = await this.main.patch<Stored<DictionaryRecord>>(keys.dictionary(ws, id), fields);
    return item ? withoutKeys<DictionaryRecord>(item) : undefined;
  }
}
