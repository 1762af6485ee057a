import { useCallback, useEffect, useState } from "react";
import { formatNumber } from "../../lib/format.js";
import { apiCallError, v1Fetch, v1Json } from "../../lib/tts-client.js";
import { downloadFileName, extensionForContentType, formatDateTime } from "../../lib/tts-text.js";
import { voiceDisplayName } from "../../lib/tts-voices.js";
import { HistoryPageWire, type HistoryItem } from "../../lib/tts-wire.js";
import { AudioPlayer } from "../audio/AudioPlayer.js";
import { Dialog } from "../Dialog.js";
import { Icon } from "../Icon.js";
import { Pagination } from "../Pagination.js";
import { EmptyState } from "../ui/EmptyState.js";
import { SkeletonRows } from "../ui/Skeleton.js";
import { useToast } from "../ui/Toast.js";

const PAGE_SIZE = 20;

const historyPath = (cursor: string | null) => {
  const p = new URLSearchParams({ page_size: String(PAGE_SIZE), source: "TTS" });
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

/**
 * The user's text-to-speech generations, newest first, a page at a time. /v1/history pages by
 * cursor and has no total, so the page buttons (at most 8, as on the API keys page) cover the
 * pages seen so far plus the next one. Each item plays in the shared player (audio fetched on
 * the first Play), downloads and deletes.
 */
export function HistoryList({ onGenerate }: { onGenerate?: () => void }) {
  // cursors[i] is where page i + 1 starts (null: the beginning).
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [page, setPage] = useState(1);
  const [items, setItems] = useState<HistoryItem[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<HistoryItem | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const toast = useToast();
  const cursor = cursors[page - 1] ?? null;

  /** Loads a page; `forgetLater` drops the pages after it (their starts moved after a delete). */
  const load = useCallback(async (from: string | null, pageNumber: number, forgetLater = false) => {
    setLoading(true);
    setError(null);
    try {
      const result = await v1Json(historyPath(from), HistoryPageWire);
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
  }, []);

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

  async function confirmDelete(item: HistoryItem) {
    setDeleteError(null);
    const res = await v1Fetch(`/v1/history/${encodeURIComponent(item.history_item_id)}`, { method: "DELETE" });
    if (!res.ok) return setDeleteError((await apiCallError(res)).message);
    setConfirming(null);
    toast.show({ message: "Generation deleted." });
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
          title="No generations yet"
          id="history-empty"
          action={
            onGenerate && (
              <button type="button" className="button button-primary" onClick={onGenerate}>
                Generate speech
              </button>
            )
          }
        >
          <p>No generations yet. Generated speech appears here, ready to play and download.</p>
        </EmptyState>
      ) : (
        <ul className="history-list" aria-label="Generations">
          {items.map((item) => (
            <li key={item.history_item_id} className="history-item" data-testid="history-item">
              <p className="history-text" title={item.text}>
                {item.text}
              </p>
              <p className="history-meta muted">
                <span>{[...new Set(historyVoiceNames(item))].join(", ")}</span>
                <span aria-hidden="true">·</span>
                <span>{formatDateTime(item.date_unix)}</span>
                <span aria-hidden="true">·</span>
                <span>{formatNumber(Math.max(0, item.character_count_change_to - item.character_count_change_from))} credits</span>
              </p>
              <div className="history-actions">
                <AudioPlayer label={`generation “${item.text.slice(0, 40)}”`} load={() => historyAudio(item)} variant="compact" />
                <span className="row-actions">
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
          title="Delete generation"
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
          <p>Delete this generation and its audio? This cannot be undone.</p>
          <blockquote className="history-quote">{confirming.text.slice(0, 200)}</blockquote>
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
