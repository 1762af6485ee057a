import { useCallback, useEffect, useRef, useState } from "react";
import { v1Json } from "../tts/client.js";
import { recentVoiceIds, VOICE_PICKER_DEBOUNCE_MS, VOICE_PICKER_PAGE_SIZE, type RecentVoices } from "../tts/voices.js";
import { VoicesPageWire, type Voice } from "../tts/wire.js";

export interface VoiceSearch {
  /** The search the results are for (the debounced input). */
  query: string;
  voices: Voice[];
  recentVoices: Voice[];
  loading: boolean;
  error: string | null;
  hasMore: boolean;
  loadMore: () => void;
}

function pagePath(query: string, token: string | null): string {
  const p = new URLSearchParams({ page_size: String(VOICE_PICKER_PAGE_SIZE), sort: "created_at_unix", sort_direction: "desc" });
  if (query) p.set("search", query);
  if (token) p.set("next_page_token", token);
  return `/v2/voices?${p}`;
}

/**
 * The user's voices for the picker while it is open: newest first, searched (debounced 300 ms),
 * further pages on demand, plus the recently used voices resolved by id.
 */
export function useVoiceSearch(open: boolean, input: string, recent: RecentVoices): VoiceSearch {
  const [query, setQuery] = useState(input.trim());
  const [voices, setVoices] = useState<Voice[]>([]);
  const [recentVoices, setRecentVoices] = useState<Voice[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const generation = useRef(0);

  useEffect(() => {
    const t = setTimeout(() => setQuery(input.trim()), VOICE_PICKER_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [input]);

  const fetchPage = useCallback(async (q: string, token: string | null, replace: boolean) => {
    const mine = replace ? ++generation.current : generation.current;
    setLoading(true);
    setError(null);
    try {
      const page = await v1Json(pagePath(q, token), VoicesPageWire);
      if (mine !== generation.current) return;
      setVoices((prev) => (replace ? page.voices : [...prev, ...page.voices.filter((v) => !prev.some((p) => p.voice_id === v.voice_id))]));
      setNext(page.has_more ? page.next_page_token : null);
    } catch (e) {
      if (mine === generation.current) setError(e instanceof Error ? e.message : "Error fetching voices");
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, []);

  useEffect(() => {
    if (open) void fetchPage(query, null, true);
  }, [open, query, fetchPage]);

  const recentKey = recentVoiceIds(recent).join(",");
  useEffect(() => {
    if (!open || !recentKey) return setRecentVoices([]);
    let live = true;
    v1Json(`/v2/voices?${new URLSearchParams({ voice_ids: recentKey, page_size: "100" })}`, VoicesPageWire)
      .then((page) => live && setRecentVoices(page.voices))
      .catch(() => live && setRecentVoices([]));
    return () => {
      live = false;
    };
  }, [open, recentKey]);

  const loadMore = useCallback(() => {
    if (!loading && next) void fetchPage(query, next, false);
  }, [loading, next, query, fetchPage]);

  return { query, voices, recentVoices, loading, error, hasMore: next !== null, loadMore };
}
