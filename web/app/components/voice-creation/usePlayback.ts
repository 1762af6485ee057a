import { useCallback, useEffect, useRef, useState } from "react";

/**
 * One <audio> for a list of clips, so previews play one at a time: playing one pauses the
 * other; toggling the playing one pauses it (voice-creation.md §4). The hook owns the element
 * and the object URLs it is given (revoked on replacement and unmount).
 */
export function usePlayback() {
  const audio = useRef<HTMLAudioElement | null>(null);
  const urls = useRef(new Set<string>());
  const [playing, setPlaying] = useState<string | null>(null);

  useEffect(() => {
    const a = new Audio();
    audio.current = a;
    // Pause events arrive late: a switch to another clip may already be playing again.
    const ended = () => {
      if (a.paused || a.ended) setPlaying(null);
    };
    a.addEventListener("ended", ended);
    a.addEventListener("pause", ended);
    const owned = urls.current;
    return () => {
      a.removeEventListener("ended", ended);
      a.removeEventListener("pause", ended);
      a.pause();
      a.removeAttribute("src");
      owned.forEach((u) => URL.revokeObjectURL(u));
      owned.clear();
    };
  }, []);

  /** Takes ownership of an object URL made for a clip. */
  const own = useCallback((url: string) => {
    urls.current.add(url);
    return url;
  }, []);

  // The clip asked for last: a play() that a later switch interrupted (AbortError) must not clear it.
  const current = useRef<string | null>(null);
  const toggle = useCallback(
    async (key: string, url: string) => {
      const a = audio.current;
      if (!a) return;
      if (playing === key && !a.paused) {
        a.pause();
        return;
      }
      a.pause();
      if (a.src !== url) a.src = url;
      a.currentTime = 0;
      current.current = key;
      setPlaying(key);
      await a.play().catch(() => {
        if (current.current === key && a.paused) setPlaying(null);
      });
    },
    [playing],
  );

  const stop = useCallback(() => audio.current?.pause(), []);
  return { playing, toggle, stop, own, element: audio };
}
