import { useCallback, useEffect, useRef, useState } from "react";
import { v1Json } from "../tts/client.js";
import { myVoicesPath, type MyVoicesQuery } from "./myVoices.js";
import { MyVoicesPageWire, type MyVoice } from "./wire.js";
import { onVoicesChanged } from "../../lib/voiceEvents.js";

export interface MyVoicesList {
  voices: MyVoice[];
  loading: boolean;
  error: string | null;
  hasMore: boolean;
  total: number | null;
  loadMore: () => void;
  reload: () => void;
  remove: (voiceId: string) => void;
  replace: (voice: MyVoice) => void;
}

/** My Voices for the query: pages of 100 from GET /v2/voices, further pages on demand. */
export function useMyVoices(query: MyVoicesQuery): MyVoicesList {
  const [voices, setVoices] = useState<MyVoice[]>([]);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [total, setTotal] = useState<number | null>(null);
  const [reloads, setReloads] = useState(0);
  const generation = useRef(0);
  const key = myVoicesPath(query);
  const queryRef = useRef(query);
  queryRef.current = query;

  const fetchPage = useCallback(async (token: string | null, replace: boolean) => {
    const mine = replace ? ++generation.current : generation.current;
    setLoading(true);
    setError(null);
    try {
      const page = await v1Json(myVoicesPath(queryRef.current, token), MyVoicesPageWire);
      if (mine !== generation.current) return;
      setVoices((prev) => (replace ? page.voices : [...prev, ...page.voices.filter((v) => !prev.some((p) => p.voice_id === v.voice_id))]));
      setNext(page.has_more ? page.next_page_token : null);
      setTotal(page.total_count);
    } catch (e) {
      if (mine === generation.current) setError(e instanceof Error ? e.message : "Error fetching voices");
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, []);

  useEffect(() => {
    void fetchPage(null, true);
  }, [key, reloads, fetchPage]);

  // A voice saved in a dialog over this page (Voice Design, an instant clone) appears at once.
  useEffect(() => onVoicesChanged(() => setReloads((n) => n + 1)), []);

  const loadMore = useCallback(() => {
    if (!loading && next) void fetchPage(next, false);
  }, [loading, next, fetchPage]);

  return {
    voices,
    loading,
    error,
    hasMore: next !== null,
    total,
    loadMore,
    reload: useCallback(() => setReloads((n) => n + 1), []),
    remove: useCallback((id: string) => setVoices((prev) => prev.filter((v) => v.voice_id !== id)), []),
    replace: useCallback((voice: MyVoice) => setVoices((prev) => prev.map((v) => (v.voice_id === voice.voice_id ? voice : v))), []),
  };
}
