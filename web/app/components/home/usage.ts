import type { HistoryItem } from "../tts/wire.js";

export interface HomeData {
  latest: HistoryItem[];
  /** Voices used most in the recent generations, or (with none yet) default voices to try. */
  voices: UsedVoice[];
  voicesAreSuggestions: boolean;
  /** The onboarding checklist (null when it could not be loaded). */
  checklist?: import("../onboarding/checklist.js").Checklist | null;
}

export interface UsedVoice {
  voice_id: string;
  name: string;
  /** Generations (or dialogue lines) that used it among those read. */
  uses: number;
  description?: string | null;
  preview_url?: string | null;
}

/**
 * The voices used most in `items`, most first (ties: the one used most recently first). A
 * dialogue counts once for each of its voices.
 */
export function mostUsedVoices(items: readonly Pick<HistoryItem, "voice_id" | "voice_name" | "dialogue">[], max: number): UsedVoice[] {
  const byId = new Map<string, UsedVoice & { firstSeen: number }>();
  items.forEach((item, index) => {
    const voices = item.dialogue?.length
      ? [...new Map(item.dialogue.map((d) => [d.voice_id, d.voice_name ?? null])).entries()]
      : item.voice_id
        ? [[item.voice_id, item.voice_name ?? null] as const]
        : [];
    for (const [id, name] of voices) {
      const known = byId.get(id);
      if (known) known.uses++;
      else byId.set(id, { voice_id: id, name: name ?? "Unknown voice", uses: 1, firstSeen: index });
    }
  });
  return [...byId.values()]
    .sort((a, b) => b.uses - a.uses || a.firstSeen - b.firstSeen)
    .slice(0, max)
    .map(({ firstSeen: _, ...v }) => v);
}
