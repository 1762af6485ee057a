import { useCallback, useEffect, useRef, useState } from "react";
import { ownApiPath } from "../../lib/ownApi.js";
import { v1Fetch } from "../tts/client.js";

export interface PreviewTarget {
  id: string;
  name: string;
  url: string;
}

export interface PreviewPlayer {
  /** The preview in the shared player, if any. */
  current: PreviewTarget | null;
  /** An object URL of its audio (owned here), once loaded. */
  src: string | null;
  playing: boolean;
  loadingId: string | null;
  error: string | null;
  /** Plays this preview (another one stops); the current one toggles. */
  toggle: (target: PreviewTarget) => void;
  /** The shared player's element. */
  audioRef: (el: HTMLAudioElement | null) => void;
}

/**
 * Library previews play one at a time through one shared player (voice-creation.md §4): a card's
 * Play loads that voice's preview into it, replacing the one before. The object URL of the
 * loaded audio belongs to this hook and is revoked when replaced or on unmount.
 */
export function usePreviewPlayer(): PreviewPlayer {
  const [current, setCurrent] = useState<PreviewTarget | null>(null);
  const [src, setSrc] = useState<string | null>(null);
  const [playing, setPlaying] = useState(false);
  const [loadingId, setLoadingId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [audio, setAudio] = useState<HTMLAudioElement | null>(null);
  const owned = useRef<string | null>(null);
  const request = useRef(0);

  useEffect(() => {
    if (!audio) return;
    const on = () => setPlaying(true);
    const off = () => setPlaying(false);
    const events: Array<[string, () => void]> = [["play", on], ["playing", on], ["pause", off], ["ended", off], ["emptied", off]];
    for (const [e, f] of events) audio.addEventListener(e, f);
    return () => {
      for (const [e, f] of events) audio.removeEventListener(e, f);
    };
  }, [audio]);

  useEffect(
    () => () => {
      if (owned.current) URL.revokeObjectURL(owned.current);
      owned.current = null;
    },
    [],
  );

  const toggle = useCallback(
    (target: PreviewTarget) => {
      if (current?.id === target.id && audio && src) {
        if (audio.paused) void audio.play().catch(() => undefined);
        else audio.pause();
        return;
      }
      const mine = ++request.current;
      audio?.pause();
      setLoadingId(target.id);
      setError(null);
      void (async () => {
        try {
          // Our own API's preview, at whichever of the server's addresses the page was opened.
          const path = ownApiPath(target.url, window.location.href);
          if (!path) throw new Error("The preview is on another site.");
          const res = await v1Fetch(path);
          if (!res.ok) throw new Error(`The preview could not be loaded (${res.status}).`);
          const blob = await res.blob();
          if (mine !== request.current) return;
          const objectUrl = URL.createObjectURL(blob);
          if (owned.current) URL.revokeObjectURL(owned.current);
          owned.current = objectUrl;
          setCurrent(target);
          setSrc(objectUrl);
        } catch (e) {
          if (mine === request.current) setError(e instanceof Error ? e.message : "The preview could not be loaded.");
        } finally {
          if (mine === request.current) setLoadingId(null);
        }
      })();
    },
    [current, audio, src],
  );

  return { current, src, playing, loadingId, error, toggle, audioRef: setAudio };
}
