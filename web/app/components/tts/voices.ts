import { ENGINE_LANGUAGES } from "../../../../functions/platform/domain/models.js";

/** Voice picker rules (app-shell.md §2, §3, §9). */
export const VOICE_PICKER_DEBOUNCE_MS = 300;
export const VOICE_PICKER_PAGE_SIZE = 100;
export const RECENT_VOICES_MAX = 10;
export const MAX_VOICE_BADGES = 8;
export const RECENT_VOICES_KEY = "timbre.voices.recent";

export const voicePickerMessages = { noResults: "No results found.", noVoices: "No voices" } as const;

export type VoiceGroupId = "recent" | "dub_specific" | "professional" | "cloned" | "generated" | "default" | "legacy";

export const VOICE_GROUP_LABELS: Record<VoiceGroupId, string> = {
  recent: "Recent",
  dub_specific: "Dub Specific",
  professional: "Professional",
  cloned: "Cloned",
  generated: "Generated",
  default: "Default",
  legacy: "Legacy",
};

const GROUP_ORDER: VoiceGroupId[] = ["recent", "dub_specific", "professional", "cloned", "generated", "default", "legacy"];

/** What grouping needs of a voice. */
export interface GroupableVoice {
  voice_id: string;
  category: string;
  is_legacy: boolean;
}

export interface VoiceGroup<V> {
  id: VoiceGroupId;
  label: string;
  voices: V[];
}

/** Recently used voices: voice id -> last-used time (ms). */
export type RecentVoices = Record<string, number>;

/** "Studio/Adam" shows as "Adam": a prefix before the first slash is hidden. */
export function voiceDisplayName(name: string): string {
  const slash = name.indexOf("/");
  if (slash < 0) return name;
  const rest = name.slice(slash + 1).trim();
  return rest || name;
}

function categoryGroup(category: string): VoiceGroupId {
  switch (category) {
    case "dub_specific":
      return "dub_specific";
    case "professional":
    case "high_quality":
      return "professional";
    case "cloned":
      return "cloned";
    case "generated":
      return "generated";
    default:
      return "default";
  }
}

/**
 * The picker's groups in the spec's order, empty ones left out. Recent holds the last used
 * voices (most recent first, at most 10); when searching it only holds voices the search found.
 * Legacy voices are listed, in their own group, only when searching.
 */
export function groupVoices<V extends GroupableVoice>(
  found: readonly V[],
  recent: RecentVoices,
  opts: { searching: boolean; recentVoices?: readonly V[] },
): VoiceGroup<V>[] {
  const groups = new Map<VoiceGroupId, V[]>(GROUP_ORDER.map((g) => [g, []]));
  const seen = new Set<string>();
  for (const v of found) {
    if (seen.has(v.voice_id)) continue;
    seen.add(v.voice_id);
    if (v.is_legacy) {
      if (opts.searching) groups.get("legacy")!.push(v);
      continue;
    }
    groups.get(categoryGroup(v.category))!.push(v);
  }
  const byId = new Map<string, V>();
  if (!opts.searching) for (const v of opts.recentVoices ?? []) byId.set(v.voice_id, v);
  for (const v of found) byId.set(v.voice_id, v);
  groups.set(
    "recent",
    recentVoiceIds(recent)
      .map((id) => byId.get(id))
      .filter((v): v is V => v !== undefined)
      .slice(0, RECENT_VOICES_MAX),
  );
  return GROUP_ORDER.map((id) => ({ id, label: VOICE_GROUP_LABELS[id], voices: groups.get(id)! })).filter((g) => g.voices.length > 0);
}

/** The empty state to show, if any. */
export function voicePickerEmptyState(groups: readonly VoiceGroup<unknown>[], searching: boolean): string | null {
  if (groups.length > 0) return null;
  return searching ? voicePickerMessages.noResults : voicePickerMessages.noVoices;
}

/** Recent ids, most recently used first (at most 10). */
export function recentVoiceIds(recent: RecentVoices): string[] {
  return Object.entries(recent)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, RECENT_VOICES_MAX)
    .map(([id]) => id);
}

/** Marks a voice as used now, keeping only the 10 most recent. */
export function recordRecentVoice(recent: RecentVoices, voiceId: string, now: number): RecentVoices {
  const next: RecentVoices = { ...recent, [voiceId]: now };
  return Object.fromEntries(recentVoiceIds(next).map((id) => [id, next[id]!]));
}

/** Reads the stored map, ignoring anything malformed. */
export function parseRecentVoices(raw: string | null): RecentVoices {
  if (!raw) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return {};
    const out: RecentVoices = {};
    for (const [id, at] of Object.entries(parsed)) if (typeof at === "number" && Number.isFinite(at) && id) out[id] = at;
    return Object.fromEntries(recentVoiceIds(out).map((id) => [id, out[id]!]));
  } catch {
    return {};
  }
}

const LABEL_ORDER = ["language", "accent", "gender", "age", "descriptive", "use_case"];
const LANGUAGE_NAMES = new Map(ENGINE_LANGUAGES.map((l) => [l.language_id, l.name]));

/** Up to 8 badges from a voice's labels: language first, values made readable. */
export function voiceBadges(labels: Record<string, string>): string[] {
  const keys = Object.keys(labels).sort((a, b) => {
    const ia = LABEL_ORDER.indexOf(a);
    const ib = LABEL_ORDER.indexOf(b);
    return (ia < 0 ? LABEL_ORDER.length : ia) - (ib < 0 ? LABEL_ORDER.length : ib);
  });
  const out: string[] = [];
  for (const key of keys) {
    const value = labels[key]?.trim();
    if (!value) continue;
    out.push(key === "language" ? (LANGUAGE_NAMES.get(value.toLowerCase()) ?? value) : value.replace(/_/g, " "));
  }
  return out.slice(0, MAX_VOICE_BADGES);
}
