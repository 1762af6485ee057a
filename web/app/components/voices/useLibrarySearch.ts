import { useCallback, useEffect, useRef, useState } from "react";
import { v1Json } from "../tts/client.js";
import { LIBRARY_PAGE_SIZE, LIBRARY_REQUEST_SIZE, sharedVoicesPath, type LibraryFilters } from "./library.js";
import { LibraryPageWire, type LibraryVoice } from "./wire.js";

export interface LibrarySearch {
  voices: LibraryVoice[];
  loading: boolean;
  error: string | null;
  hasMore: boolean;
  /** Loads the next page (500 voices, as /v1 calls of 100 following last_sort_id). */
  loadMore: () => void;
  /** Replaces one voice in place (after it was added to My Voices). */
  update: (voiceId: string, change: Partial<LibraryVoice>) => void;
}

/**
 * The library's voices for the current filters, a page of 500 at a time (speech-generation.md
 * §9). A page is read in calls of 100 that continue after the previous call's last voice, and
 * shown as each call answers. A change of filters drops whatever an older search still brings.
 */
export function useLibrarySearch(filters: LibraryFilters, enabled = true): LibrarySearch {
  const [voices, setVoices] = useState<LibraryVoice[]>([]);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [cursor, setCursor] = useState<{ lastSortId: string | null; hasMore: boolean }>({ lastSortId: null, hasMore: true });
  const generation = useRef(0);
  const busy = useRef(false);
  const key = sharedVoicesPath(filters, { pageSize: LIBRARY_REQUEST_SIZE });
  const filtersRef = useRef(filters);
  filtersRef.current = filters;

  const loadPage = useCallback(async (from: string | null, replace: boolean) => {
    const mine = replace ? ++generation.current : generation.current;
    busy.current = true;
    setLoading(true);
    setError(null);
    let last = from;
    let more = true;
    try {
      for (let read = 0; read < LIBRARY_PAGE_SIZE && more; read += LIBRARY_REQUEST_SIZE) {
        const page = await v1Json(sharedVoicesPath(filtersRef.current, { pageSize: LIBRARY_REQUEST_SIZE, lastSortId: last }), LibraryPageWire);
        if (mine !== generation.current) return;
        const first = replace && read === 0;
        setVoices((prev) => {
          const base = first ? [] : prev;
          const seen = new Set(base.map((v) => v.voice_id));
          return [...base, ...page.voices.filter((v) => !seen.has(v.voice_id))];
        });
        more = page.has_more && page.last_sort_id !== null;
        last = page.last_sort_id;
      }
      setCursor({ lastSortId: last, hasMore: more });
    } catch (e) {
      if (mine === generation.current) setError(e instanceof Error ? e.message : "Error fetching voices");
    } finally {
      if (mine === generation.current) {
        busy.current = false;
        setLoading(false);
      }
    }
  }, []);

  useEffect(() => {
    if (!enabled) return;
    setCursor({ lastSortId: null, hasMore: true });
    void loadPage(null, true);
  }, [key, enabled, loadPage]);

  const loadMore = useCallback(() => {
    if (!busy.current && cursor.hasMore && cursor.lastSortId) void loadPage(cursor.lastSortId, false);
  }, [cursor, loadPage]);

  const update = useCallback((voiceId: string, change: Partial<LibraryVoice>) => {
    setVoices((prev) => prev.map((v) => (v.voice_id === voiceId ? { ...v, ...change } : v)));
  }, []);

  return { voices, loading, error, hasMore: cursor.hasMore, loadMore, update };
}
