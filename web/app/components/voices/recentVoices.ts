import { parseRecentVoices, recordRecentVoice, RECENT_VOICES_KEY, type RecentVoices } from "../tts/voices.js";

/** The recently used voices, kept per device in localStorage (voice id -> last used, ms). */
export function readRecentVoices(): RecentVoices {
  try {
    return parseRecentVoices(window.localStorage.getItem(RECENT_VOICES_KEY));
  } catch {
    return {};
  }
}

export function markVoicesUsed(voiceIds: readonly string[], now = Date.now()): RecentVoices {
  let recent = readRecentVoices();
  // Later ids count as more recent, so the first one ends up first.
  [...voiceIds].reverse().forEach((id, i) => {
    recent = recordRecentVoice(recent, id, now + i);
  });
  try {
    window.localStorage.setItem(RECENT_VOICES_KEY, JSON.stringify(recent));
  } catch {
    // Storage unavailable: the Recent group just stays as it was.
  }
  return recent;
}
