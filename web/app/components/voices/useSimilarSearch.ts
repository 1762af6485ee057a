import { useCallback, useRef, useState } from "react";
import { SIMILAR_AUDIO_MAX_BYTES, SIMILAR_TOP_K_MAX, similarVoiceMessages } from "../../../../functions/platform/contract/voices.js";
import { apiCallError, v1Fetch } from "../tts/client.js";
import { LibraryPageWire, type LibraryVoice } from "./wire.js";

export type SimilarQuery = { kind: "voice"; voiceId: string; name: string } | { kind: "clip"; file: File };

/** How many similar voices the page asks for. */
export const SIMILAR_RESULTS = 24;

export interface SimilarSearch {
  query: SimilarQuery | null;
  voices: LibraryVoice[];
  loading: boolean;
  error: string | null;
  search: (q: SimilarQuery) => void;
  clear: () => void;
  update: (voiceId: string, change: Partial<LibraryVoice>) => void;
}

/**
 * Similar-voice search: by a library voice (POST /v1/similar-voices-by-id) or by an uploaded clip
 * (POST /v1/similar-voices, multipart as the SDK sends it). A newer search or clear() drops an
 * older answer.
 */
export function useSimilarSearch(): SimilarSearch {
  const [query, setQuery] = useState<SimilarQuery | null>(null);
  const [voices, setVoices] = useState<LibraryVoice[]>([]);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const generation = useRef(0);

  const search = useCallback((q: SimilarQuery) => {
    const mine = ++generation.current;
    setQuery(q);
    setVoices([]);
    setError(null);
    if (q.kind === "clip" && q.file.size > SIMILAR_AUDIO_MAX_BYTES) {
      setError(similarVoiceMessages.tooLarge);
      return;
    }
    setLoading(true);
    void (async () => {
      try {
        let res: Response;
        if (q.kind === "voice") {
          res = await v1Fetch("/v1/similar-voices-by-id", { method: "POST", body: JSON.stringify({ voice_id: q.voiceId, top_k: SIMILAR_RESULTS }) });
        } else {
          const form = new FormData();
          form.set("audio_file", q.file, q.file.name);
          form.set("top_k", String(Math.min(SIMILAR_RESULTS, SIMILAR_TOP_K_MAX)));
          res = await v1Fetch("/v1/similar-voices", { method: "POST", body: form });
        }
        if (!res.ok) throw await apiCallError(res);
        const page = LibraryPageWire.parse(await res.json());
        if (mine === generation.current) setVoices(page.voices);
      } catch (e) {
        if (mine === generation.current) setError(e instanceof Error ? e.message : "The similar voice search failed.");
      } finally {
        if (mine === generation.current) setLoading(false);
      }
    })();
  }, []);

  const clear = useCallback(() => {
    generation.current++;
    setQuery(null);
    setVoices([]);
    setLoading(false);
    setError(null);
  }, []);

  const update = useCallback((voiceId: string, change: Partial<LibraryVoice>) => {
    setVoices((prev) => prev.map((v) => (v.voice_id === voiceId ? { ...v, ...change } : v)));
  }, []);

  return { query, voices, loading, error, search, clear, update };
}
