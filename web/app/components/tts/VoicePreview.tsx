import { useCallback } from "react";
import { v1Fetch } from "./client.js";
import { AudioPlayer } from "../audio/AudioPlayer.js";

/**
 * A voice's preview in the shared player. Same-origin previews are fetched as the user (they
 * are not public) on the first Play; the player owns the object URL. A new voice gets a new
 * player (keyed by its URL), so nothing of the old preview is kept.
 */
export function VoicePreview({ url, name }: { url: string; name: string }) {
  const load = useCallback(async () => {
    const target = new URL(url, window.location.href);
    // Only our own origin is fetched; the CSP allows no other.
    if (target.origin !== window.location.origin) throw new Error("The preview is on another site.");
    const res = await v1Fetch(target.pathname + target.search);
    if (!res.ok) throw new Error(`preview ${res.status}`);
    return res.blob();
  }, [url]);
  return <AudioPlayer key={url} label={`preview of ${name}`} load={load} variant="compact" />;
}
