import { useCallback, useEffect, useState } from "react";
import { formatNumber } from "../../lib/format.js";
import { apiCallError, v1Fetch, v1Json } from "./client.js";
import { downloadFileName, extensionForContentType, formatDateTime } from "./text.js";
import { voiceDisplayName } from "./voices.js";
import { HistoryPageWire, type HistoryItem } from "./wire.js";
import { AudioPlayer } from "../audio/AudioPlayer.js";
import { Dialog } from "../Dialog.js";
import { Icon } from "../Icon.js";
import { Pagination } from "../Pagination.js";
import { EmptyState } from "../ui/EmptyState.js";
import { SkeletonRows } from "../ui/Skeleton.js";
import { useToast } from "../ui/Toast.js";

const PAGE_SIZE = 20;

/** What the list shows and says for each kind of history. */
export type HistorySource = "TTS" | "STS";
const KINDS = {
  TTS: { emptyTitle: "No generations yet", emptyText: "No generations yet. Generated speech appears here, ready to play and download.", emptyAction: "Generate speech", noun: "generation", listLabel: "Generations" },
  STS: { emptyTitle: "No conversions yet", emptyText: "No conversions yet. Converted speech appears here, ready to play, download and convert again.", emptyAction: "Convert speech", noun: "conversion", listLabel: "Conversions" },
} as const;

const historyPath = (source: HistorySource, cursor: string | null) => {
  const p = new URLSearchParams({ page_size: String(PAGE_SIZE), source });
  if (cursor) p.set("start_after_history_item_id", cursor);
  return `/v1/history?${p}`;
};

export const historyVoiceNames = (item: HistoryItem) => (item.dialogue?.length ? item.dialogue.map((d) => d.voice_name ?? "Unknown") : [item.voice_name ?? "Unknown"]).map(voiceDisplayName);

/** The audio of a history item, fetched as the user. */
export async function historyAudio(item: Pick<HistoryItem, "history_item_id">): Promise<Blob> {
  const res = await v1Fetch(`/v1/history/${encodeURIComponent(item.history_item_id)}/audio`);
  if (!res.ok) throw await apiCallError(res);
  return res.blob();
}

/** What an item is called in labels: its text, or for a conversion the voice it was converted into. */
export const historyItemTitle = (item: HistoryItem) => item.text || `Converted into ${[...new Set(historyVoiceNames(item))].join(", ")}`;

/**
 * The user's text-to-speech generations (or, with source="STS", speech-to-speech conversions), newest first, a page at a time. /v1/history pages by
 * cursor and has no total, so the page buttons (at most 8, as on the API keys page) cover the
 * pages seen so far plus the next one. Each item plays in the shared player (audio fetched on
 * the first Play), downloads and deletes; a conversion also converts again from the input kept
 * with it (POST /v1/history/{id}/regenerate: a new, charged conversion that lands on top).
 */
export function HistoryList({ onGenerate, source = "TTS", onRegenerated }: { onGenerate?: () => void; source?: HistorySource; onRegenerated?: () => void }) {
  const kind = KINDS[source];
  // cursors[i] is where page i + 1 starts (null: the beginning).
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [page, setPage] = useState(1);
  const [items, setItems] = useState<HistoryItem[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<HistoryItem | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [regenerating, setRegenerating] = useState<string | null>(null);
  const toast = useToast();
  const cursor = cursors[page - 1] ?? null;

  /** Loads a page; `forgetLater` drops the pages after it (their starts moved after a delete). */
  const load = useCallback(async (from: string | null, pageNumber: number, forgetLater = false) => {
    setLoading(true);
    setError(null);
    try {
      const result = await v1Json(historyPath(source, from), HistoryPageWire);
      setItems(result.history);
      setCursors((known) => {
        const next = forgetLater ? known.slice(0, pageNumber) : known.slice();
        if (result.has_more && result.last_history_item_id) next[pageNumber] = result.last_history_item_id;
        else next.length = pageNumber;
        return next;
      });
    } catch (e) {
      setError(e instanceof Error ? e.message : "Could not load the history.");
    } finally {
      setLoading(false);
    }
  }, [source]);

  useEffect(() => {
    void load(cursor, page);
  }, [cursor, page, load]);

  async function download(item: HistoryItem) {
    try {
      const url = URL.createObjectURL(await historyAudio(item));
      const a = document.createElement("a");
      a.href = url;
      a.download = downloadFileName(historyVoiceNames(item), new Date(item.date_unix * 1000), extensionForContentType(item.content_type));
      document.body.append(a);
      a.click();
      a.remove();
      // The click has started the download; the URL is not needed after this task.
      setTimeout(() => URL.revokeObjectURL(url), 0);
    } catch (e) {
      setError(e instanceof Error ? e.message : "Could not download the audio.");
    }
  }

  async function regenerate(item: HistoryItem) {
    setError(null);
    setRegenerating(item.history_item_id);
    try {
      const res = await v1Fetch(`/v1/history/${encodeURIComponent(item.history_item_id)}/regenerate`, { method: "POST" });
      if (!res.ok) throw await apiCallError(res);
      await res.arrayBuffer();
      toast.show({ message: "Converted again. The new conversion is at the top of the history." });
      onRegenerated?.();
      // The new item is the newest: show the first page from a fresh start.
      if (page === 1) await load(null, 1, true);
      else setPage(1);
    } catch (e) {
      setError(e instanceof Error ? e.message : "Could not convert the audio again.");
    } finally {
      setRegenerating(null);
    }
  }

  async function confirmDelete(item: HistoryItem) {
    setDeleteError(null);
    const res = await v1Fetch(`/v1/history/${encodeURIComponent(item.history_item_id)}`, { method: "DELETE" });
    if (!res.ok) return setDeleteError((await apiCallError(res)).message);
    setConfirming(null);
    toast.show({ message: source === "STS" ? "Conversion deleted." : "Generation deleted." });
    // The page may now be empty: go back one when it was the last item on a later page.
    if (items.length === 1 && page > 1) setPage(page - 1);
    else await load(cursor, page, true);
  }

  const pageCount = cursors.length;
  return (
    <section className="tts-history" aria-labelledby="tts-history-title" aria-busy={loading}>
      <h2 id="tts-history-title" className="visually-hidden">
        History
      </h2>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {loading && items.length === 0 ? (
        <SkeletonRows rows={4} label="Loading history" />
      ) : !error && items.length === 0 ? (
        <EmptyState
          icon="waveform"
          title={kind.emptyTitle}
          id="history-empty"
          action={
            onGenerate && (
              <button type="button" className="button button-primary" onClick={onGenerate}>
                {kind.emptyAction}
              </button>
            )
          }
        >
          <p>{kind.emptyText}</p>
        </EmptyState>
      ) : (
        <ul className="history-list" aria-label={kind.listLabel}>
          {items.map((item) => (
            <li key={item.history_item_id} className="history-item" data-testid="history-item">
              <p className="history-text" title={historyItemTitle(item)}>
                {historyItemTitle(item)}
              </p>
              <p className="history-meta muted">
                <span>{[...new Set(historyVoiceNames(item))].join(", ")}</span>
                <span aria-hidden="true">·</span>
                <span>{formatDateTime(item.date_unix)}</span>
                <span aria-hidden="true">·</span>
                <span>{formatNumber(Math.max(0, item.character_count_change_to - item.character_count_change_from))} credits</span>
              </p>
              <div className="history-actions">
                <AudioPlayer label={`${kind.noun} “${historyItemTitle(item).slice(0, 40)}”`} load={() => historyAudio(item)} knownSeconds={item.duration_secs} variant="compact" />
                <span className="row-actions">
                  {source === "STS" && (
                    <button type="button" className="button button-small" onClick={() => regenerate(item)} disabled={regenerating !== null} aria-busy={regenerating === item.history_item_id}>
                      <Icon name="changer" size={16} />
                      {regenerating === item.history_item_id ? "Converting…" : "Regenerate"}
                    </button>
                  )}
                  <button type="button" className="button button-small" onClick={() => download(item)}>
                    <Icon name="download" size={16} />
                    Download
                  </button>
                  <button type="button" className="button button-small button-danger-outline" onClick={() => setConfirming(item)}>
                    <Icon name="trash" size={16} />
                    Delete
                  </button>
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
      <Pagination page={page} pageCount={pageCount} onPageChange={(n) => setPage(Math.max(1, Math.min(n, pageCount)))} label="History pages" />
      {confirming && (
        <Dialog
          title={`Delete ${kind.noun}`}
          onClose={() => setConfirming(null)}
          footer={
            <p className="dialog-actions">
              <button type="button" className="button" onClick={() => setConfirming(null)}>
                Cancel
              </button>
              <button type="button" className="button button-danger" onClick={() => confirmDelete(confirming)}>
                Delete
              </button>
            </p>
          }
        >
          <p>Delete this {kind.noun} and its audio? This cannot be undone.</p>
          <blockquote className="history-quote">{historyItemTitle(confirming).slice(0, 200)}</blockquote>
          {deleteError && (
            <p className="form-error" role="alert">
              {deleteError}
            </p>
          )}
        </Dialog>
      )}
    </section>
  );
}
