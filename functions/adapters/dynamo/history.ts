import type { Table } from "./table.js";
import { withoutKeys, type Stored } from "./table.js";

export interface HistoryRecord {
  history_item_id: string;
  request_id: string;
  workspace_id: string;
  user_id: string;
  source: "TTS" | "STS";
  voice_id: string;
  voice_name: string;
  voice_category: string;
  model_id: string;
  text: string;
  dialogue: Array<{ text: string; voice_id: string; voice_name: string }> | null;
  date_unix: number;
  /** Milliseconds, for ordering within a second. */
  created_ms: number;
  character_count_change_from: number;
  character_count_change_to: number;
  content_type: string;
  output_format: string;
  audio_key: string;
  alignment_key: string | null;
  /** Everything needed to replay the generation exactly. */
  replay: {
    engine: string;
    voice_versions: Record<string, number>;
    settings: Record<string, unknown>;
    seed: number;
    language_code: string | null;
    apply_text_normalization: string;
    previous_text: string | null;
    next_text: string | null;
    pronunciation_dictionary_locators: Array<{ pronunciation_dictionary_id: string; version_id: string | null }>;
  };
}

const keys = {
  item: (ws: string, createdMs: number, id: string) => ({ pk: `WS#${ws}`, sk: `H#${String(createdMs).padStart(15, "0")}#${id}` }),
  byId: (id: string) => ({ gsi1pk: `HIST#${id}`, gsi1sk: "H" }),
};

export interface HistoryQuery {
  pageSize: number;
  startAfterId?: string;
  voiceId?: string;
  modelId?: string;
  search?: string;
  source?: string;
  dateBeforeUnix?: number;
  dateAfterUnix?: number;
  ascending?: boolean;
}

export class History {
  constructor(private readonly table: Table) {}

  async put(h: HistoryRecord): Promise<void> {
    await this.table.put({ ...keys.item(h.workspace_id, h.created_ms, h.history_item_id), ...keys.byId(h.history_item_id), ...h, ...historySearchFields(h) });
  }

  /** A workspace's item by id; another workspace's item reads as absent. */
  async get(ws: string, id: string): Promise<HistoryRecord | undefined> {
    const r = await this.table.query<Stored<HistoryRecord>>({
      IndexName: "gsi1",
      KeyConditionExpression: "gsi1pk = :p",
      ExpressionAttributeValues: { ":p": keys.byId(id).gsi1pk },
      limit: 1,
    });
    const item = r.items[0];
    return item && item.workspace_id === ws ? clean(item) : undefined;
  }

  async delete(h: HistoryRecord): Promise<void> {
    await this.table.delete(keys.item(h.workspace_id, h.created_ms, h.history_item_id));
  }

  /** Newest first (or oldest first), filtered, one page plus whether more exist. */
  async list(ws: string, q: HistoryQuery): Promise<{ items: HistoryRecord[]; hasMore: boolean }> {
    let startKey: Record<string, unknown> | undefined;
    if (q.startAfterId) {
      const after = await this.get(ws, q.startAfterId);
      if (!after) return { items: [], hasMore: false };
      startKey = keys.item(ws, after.created_ms, after.history_item_id);
    }
    const filters: string[] = [];
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = { ":p": `WS#${ws}` };
    if (q.voiceId) {
      filters.push("(voice_id = :v OR contains(dialogue_voice_ids, :v))");
      values[":v"] = q.voiceId;
    }
    if (q.modelId) {
      filters.push("model_id = :m");
      values[":m"] = q.modelId;
    }
    if (q.source) {
      filters.push("#source = :s");
      names["#source"] = "source";
      values[":s"] = q.source;
    }
    if (q.search) {
      filters.push("contains(search_text, :q)");
      values[":q"] = q.search.toLowerCase();
    }
    if (q.dateBeforeUnix !== undefined) {
      filters.push("date_unix < :before");
      values[":before"] = q.dateBeforeUnix;
    }
    if (q.dateAfterUnix !== undefined) {
      filters.push("date_unix >= :after");
      values[":after"] = q.dateAfterUnix;
    }
    const out: HistoryRecord[] = [];
    let lastKey = startKey;
    // Filters apply after the read, so keep reading pages until one more than a page matched.
    do {
      const r = await this.table.query<Stored<HistoryRecord>>({
        KeyConditionExpression: "pk = :p AND begins_with(sk, :h)",
        FilterExpression: filters.length ? filters.join(" AND ") : undefined,
        ExpressionAttributeNames: Object.keys(names).length ? names : undefined,
        ExpressionAttributeValues: { ...values, ":h": "H#" },
        ScanIndexForward: q.ascending ?? false,
        startKey: lastKey,
        limit: q.pageSize + 1 - out.length,
      });
      out.push(...r.items.map(clean));
      lastKey = r.lastKey;
    } while (lastKey && out.length <= q.pageSize);
    return { items: out.slice(0, q.pageSize), hasMore: out.length > q.pageSize || false };
  }
}

/** Fields stored only to make filters work (DynamoDB filters cannot lower-case or flatten). */
export function historySearchFields(h: HistoryRecord): Record<string, unknown> {
  const texts = h.dialogue ? h.dialogue.map((d) => d.text).join(" ") : h.text;
  return {
    search_text: `${texts} ${h.voice_name}`.toLowerCase(),
    dialogue_voice_ids: h.dialogue ? [...new Set(h.dialogue.map((d) => d.voice_id))] : [],
  };
}

function clean(item: Stored<HistoryRecord>): HistoryRecord {
  const { search_text: _s, dialogue_voice_ids: _d, ...rest } = withoutKeys<HistoryRecord & { search_text?: string; dialogue_voice_ids?: string[] }>(item);
  return rest;
}
