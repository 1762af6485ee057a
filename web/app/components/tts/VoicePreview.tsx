import { useCallback } from "react";
import { ownApiPath } from "../../lib/ownApi.js";
import { v1Fetch } from "./client.js";
import { AudioPlayer } from "../audio/AudioPlayer.js";

/**
 * A voice's preview in the shared player. Same-origin previews are fetched as the user (they
 * are not public) on the first Play; the player owns the object URL. A new voice gets a new
 * player (keyed by its URL), so nothing of the old preview is kept.
 */
export function VoicePreview({ url, name }: { url: string; name: string }) {
  const load = useCallback(async () => {
    // Our own API's preview, at whichever of the server's addresses the page was opened.
    const path = ownApiPath(url, window.location.href);
    if (!path) throw new Error("The preview is on another site.");
    const res = await v1Fetch(path);
    if (!res.ok) throw new Error(`preview ${res.status}`);
    return res.blob();
  }, [url]);
  return <AudioPlayer key={url} label={`preview of ${name}`} load={load} variant="compact" />;
}
