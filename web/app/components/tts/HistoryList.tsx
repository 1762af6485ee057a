import { useCallback, useEffect, useRef, useState } from "react";
import { formatNumber } from "../../lib/format.js";
import { apiCallError, v1Fetch, v1Json } from "../../lib/tts-client.js";
import { downloadFileName, extensionForContentType, formatDateTime } from "../../lib/tts-text.js";
import { voiceDisplayName } from "../../lib/tts-voices.js";
import { HistoryPageWire, type HistoryItem } from "../../lib/tts-wire.js";
import { Dialog } from "../Dialog.js";

const PAGE_SIZE = 20;

const historyPath = (cursor: string | null) => {
  const p = new URLSearchParams({ page_size: String(PAGE_SIZE), source: "TTS" });
  if (cursor) p.set("start_after_history_item_id", cursor);
  return `/v1/history?${p}`;
};

const voiceNames = (item: HistoryItem) => (item.dialogue?.length ? item.dialogue.map((d) => d.voice_name ?? "Unknown") : [item.voice_name ?? "Unknown"]).map(voiceDisplayName);

/**
 * The user's text-to-speech generations, newest first, a page at a time (start_after_history_item_id):
 * text, voice, date, cost, and play, download and delete. Audio is fetched on demand; its
 * object URLs are revoked when the list goes away.
 */
export function HistoryList() {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [items, setItems] = useState<HistoryItem[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [playing, setPlaying] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<HistoryItem | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const audioUrls = useRef(new Map<string, string>());
  const cursor = cursors[cursors.length - 1] ?? null;

  useEffect(
    () => () => {
      for (const url of audioUrls.current.values()) URL.revokeObjectURL(url);
      audioUrls.current.clear();
    },
    [],
  );

  const load = useCallback(async (from: string | null) => {
    setLoading(true);
    setError(null);
    try {
      const page = await v1Json(historyPath(from), HistoryPageWire);
      setItems(page.history);
      setNext(page.has_more ? page.last_history_item_id : null);
    } catch (e) {
      setError(e instanceof Error ? e.message : "Could not load the history.");
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    void load(cursor);
  }, [cursor, load]);

  async function audioUrl(item: HistoryItem): Promise<string> {
    const known = audioUrls.current.get(item.history_item_id);
    if (known) return known;
    const res = await v1Fetch(`/v1/history/${encodeURIComponent(item.history_item_id)}/audio`);
    if (!res.ok) throw await apiCallError(res);
    const url = URL.createObjectURL(await res.blob());
    audioUrls.current.set(item.history_item_id, url);
    return url;
  }

  async function play(item: HistoryItem) {
    try {
      await audioUrl(item);
      setPlaying(item.history_item_id);
    } catch (e) {
      setError(e instanceof Error ? e.message : "Could not load the audio.");
    }
  }

  async function download(item: HistoryItem) {
    try {
      const a = document.createElement("a");
      a.href = await audioUrl(item);
      a.download = downloadFileName(voiceNames(item), new Date(item.date_unix * 1000), extensionForContentType(item.content_type));
      document.body.append(a);
      a.click();
      a.remove();
    } catch (e) {
      setError(e instanceof Error ? e.message : "Could not download the audio.");
    }
  }

  async function confirmDelete(item: HistoryItem) {
    setDeleteError(null);
    const res = await v1Fetch(`/v1/history/${encodeURIComponent(item.history_item_id)}`, { method: "DELETE" });
    if (!res.ok) return setDeleteError((await apiCallError(res)).message);
    const url = audioUrls.current.get(item.history_item_id);
    if (url) URL.revokeObjectURL(url);
    audioUrls.current.delete(item.history_item_id);
    setConfirming(null);
    await load(cursor);
  }

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
      {!loading && items.length === 0 && !error && (
        <div className="empty-state">
          <p>{cursors.length > 1 ? "No more generations." : "No generations yet. Generated speech appears here."}</p>
        </div>
      )}
      {items.length > 0 && (
        <table className="table history-table">
          <thead>
            <tr>
              <th scope="col">Text</th>
              <th scope="col">Voice</th>
              <th scope="col">Date</th>
              <th scope="col">Credits</th>
              <th scope="col" className="table-actions">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => {
              const url = audioUrls.current.get(item.history_item_id);
              return (
                <tr key={item.history_item_id} data-testid="history-item">
                  <td className="history-text">
                    <span title={item.text}>{item.text}</span>
                    {playing === item.history_item_id && url && <audio controls autoPlay src={url} aria-label={`Audio of ${item.text.slice(0, 40)}`} />}
                  </td>
                  <td>{[...new Set(voiceNames(item))].join(", ")}</td>
                  <td>{formatDateTime(item.date_unix)}</td>
                  <td>{formatNumber(Math.max(0, item.character_count_change_to - item.character_count_change_from))}</td>
                  <td className="table-actions">
                    <span className="row-actions">
                      <button type="button" className="button button-small" onClick={() => play(item)}>
                        Play
                      </button>
                      <button type="button" className="button button-small" onClick={() => download(item)}>
                        Download
                      </button>
                      <button type="button" className="button button-small button-danger-outline" onClick={() => setConfirming(item)}>
                        Delete
                      </button>
                    </span>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {(cursors.length > 1 || next) && (
        <nav className="pagination" aria-label="History pages">
          <button type="button" className="button button-small" disabled={cursors.length <= 1 || loading} onClick={() => setCursors((c) => c.slice(0, -1))}>
            Previous
          </button>
          <span className="muted">Page {cursors.length}</span>
          <button type="button" className="button button-small" disabled={!next || loading} onClick={() => next && setCursors((c) => [...c, next])}>
            Next
          </button>
        </nav>
      )}
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
