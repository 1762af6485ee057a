import { useEffect, useRef, useState } from "react";
import { v1Fetch } from "../../lib/tts-client.js";

/** Plays a voice's preview. Same-origin previews are fetched as the user (they are not public). */
export function VoicePreviewButton({ url, name }: { url: string; name: string }) {
  const [state, setState] = useState<"idle" | "loading" | "playing" | "error">("idle");
  const player = useRef<{ audio: HTMLAudioElement; objectUrl: string | null } | null>(null);

  const stop = () => {
    const p = player.current;
    if (!p) return;
    p.audio.pause();
    if (p.objectUrl) URL.revokeObjectURL(p.objectUrl);
    player.current = null;
  };
  useEffect(() => stop, []);
  useEffect(() => {
    stop();
    setState("idle");
  }, [url]);

  async function toggle() {
    if (state === "playing") {
      stop();
      return setState("idle");
    }
    setState("loading");
    try {
      const target = new URL(url, window.location.href);
      let src = target.href;
      let objectUrl: string | null = null;
      if (target.origin === window.location.origin) {
        const res = await v1Fetch(target.pathname + target.search);
        if (!res.ok) throw new Error(`preview ${res.status}`);
        objectUrl = src = URL.createObjectURL(await res.blob());
      }
      stop();
      const audio = new Audio(src);
      player.current = { audio, objectUrl };
      audio.addEventListener("ended", () => setState("idle"), { once: true });
      await audio.play();
      setState("playing");
    } catch {
      stop();
      setState("error");
    }
  }

  return (
    <button type="button" className="button button-small" onClick={toggle} aria-label={state === "playing" ? `Stop preview of ${name}` : `Play preview of ${name}`} disabled={state === "loading"}>
      {state === "playing" ? "Stop" : state === "error" ? "Preview unavailable" : "Preview"}
    </button>
  );
}
