import { useCallback, useEffect, useRef, useState, type RefObject } from "react";
import { apiCallError, ApiCallError, v1Fetch } from "./client.js";
import { speechErrorView, type SpeechErrorView } from "./errors.js";
import { downloadFileName, extensionForContentType } from "./text.js";
import { settleOnBlob, streamIntoAudio } from "./streamingAudio.js";

/** Identical requests regenerate for free within this window (speech-generation.md §9). */
export const REGENERATION_WINDOW_MS = 7_200_000;

export interface SpeechRequest {
  kind: "tts" | "dialogue";
  /** The /v1 streaming path, with its query. */
  path: string;
  body: unknown;
  /** Identifies "the same request" (regeneration and the dialogue preference compare it). */
  key: string;
  voiceNames: string[];
}

export interface Generation {
  id: number;
  kind: "tts" | "dialogue";
  key: string;
  requestId: string | null;
  historyItemId: string | null;
  cost: number;
  regenerationCount: number;
  freeRegenerationsRemaining: number;
  generationInfo: string | null;
  warnings: string[];
  /** The finished audio (an object URL owned by this hook); null while it streams. */
  url: string | null;
  /** The finished file itself (the player draws its waveform from it); null while it streams. */
  blob: Blob | null;
  fileName: string;
  startedAt: number;
}

const int = (v: string | null, fallback = 0) => {
  const n = Number.parseInt(v ?? "", 10);
  return Number.isFinite(n) ? n : fallback;
};

function warningsOf(header: string | null): string[] {
  if (!header) return [];
  try {
    return decodeURIComponent(header).split(" | ").filter(Boolean);
  } catch {
    return [header];
  }
}

/** Generations kept (with their audio): the current one and the one before, for the comparison panel. */
const KEPT = 3;

/**
 * Generating speech: the streaming request, playback while it streams (with the seconds of
 * audio received so far), Stop (aborting the request ends the server's synthesis), the finished
 * Blob as a download, the response headers (cost, regeneration count, free regenerations left)
 * and errors as the catalogue shows them. Object URLs are revoked when a generation is dropped
 * or on unmount.
 */
export function useSpeechGeneration(audio: RefObject<HTMLAudioElement>) {
  const [generations, setGenerations] = useState<Generation[]>([]);
  const [status, setStatus] = useState<"idle" | "generating" | "streaming">("idle");
  const [error, setError] = useState<SpeechErrorView | null>(null);
  const [received, setReceived] = useState(0);
  const [stopped, setStopped] = useState(false);
  const controller = useRef<AbortController | null>(null);
  const urls = useRef(new Map<number, string>());
  const settle = useRef<() => void>(() => undefined);
  const nextId = useRef(1);

  useEffect(
    () => () => {
      controller.current?.abort();
      settle.current();
      for (const url of urls.current.values()) URL.revokeObjectURL(url);
      urls.current.clear();
    },
    [],
  );

  const keep = useCallback((g: Generation) => {
    setGenerations((prev) => {
      const next = [...prev.filter((p) => p.id !== g.id), g].slice(-KEPT);
      for (const [id, url] of urls.current) {
        if (!next.some((n) => n.id === id)) {
          URL.revokeObjectURL(url);
          urls.current.delete(id);
        }
      }
      return next;
    });
  }, []);

  const generate = useCallback(
    async (req: SpeechRequest, last: Generation | null): Promise<Generation | null> => {
      const element = audio.current;
      if (!element || controller.current) return null;
      const abort = new AbortController();
      controller.current = abort;
      setError(null);
      setStopped(false);
      setReceived(0);
      setStatus("generating");
      settle.current();
      try {
        const headers = new Headers({ accept: "audio/mpeg" });
        // A regeneration carries the last generation's info (speech-generation.md §7).
        if (last?.key === req.key && last.generationInfo) headers.set("generation-info", last.generationInfo);
        const res = await v1Fetch(req.path, { method: "POST", body: JSON.stringify(req.body), headers, signal: abort.signal });
        if (!res.ok || !res.body) throw await apiCallError(res);
        const contentType = res.headers.get("content-type")?.split(";")[0]?.trim() || "audio/mpeg";
        const started = Date.now();
        const g: Generation = {
          id: nextId.current++,
          kind: req.kind,
          key: req.key,
          requestId: res.headers.get("request-id"),
          historyItemId: res.headers.get("history-item-id"),
          cost: int(res.headers.get("character-cost")),
          regenerationCount: int(res.headers.get("regeneration-count")),
          freeRegenerationsRemaining: int(res.headers.get("free-regenerations-remaining")),
          generationInfo: res.headers.get("generation-info"),
          warnings: warningsOf(res.headers.get("x-timbre-warnings")),
          url: null,
          blob: null,
          fileName: downloadFileName(req.voiceNames, new Date(started), extensionForContentType(contentType)),
          startedAt: started,
        };
        setStatus("streaming");
        keep(g);
        const blob = await streamIntoAudio(res.body, element, contentType, abort.signal, setReceived);
        if (abort.signal.aborted) {
          // Stopped: the partial audio is not a result; the element lets it go.
          setGenerations((prev) => prev.filter((p) => p.id !== g.id));
          element.pause();
          element.removeAttribute("src");
          element.load();
          return null;
        }
        const url = URL.createObjectURL(blob);
        urls.current.set(g.id, url);
        const done = { ...g, url, blob };
        keep(done);
        settle.current = settleOnBlob(element, url);
        return done;
      } catch (e) {
        if (abort.signal.aborted) return null;
        setError(e instanceof ApiCallError ? e.view : speechErrorView(0, undefined));
        return null;
      } finally {
        controller.current = null;
        setStatus("idle");
      }
    },
    [audio, keep],
  );

  /** Stops the generation in progress: the request is aborted, so the server stops synthesising. */
  const stop = useCallback(() => {
    if (!controller.current) return;
    setStopped(true);
    controller.current.abort();
  }, []);

  const current = generations.at(-1) ?? null;
  return { generate, stop, stopped, received, status, error, clearError: () => setError(null), current, generations };
}

/** True when `key` would regenerate `last` (same request, within the window). */
export function isRegeneration(last: Generation | null, key: string, now = Date.now()): boolean {
  return last !== null && last.key === key && now - last.startedAt < REGENERATION_WINDOW_MS;
}
