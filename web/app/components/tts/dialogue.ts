import { DIALOGUE_MAX_BLOCKS, dialogueMessages } from "../../../../functions/platform/domain/speechRules.js";
import { countCharacters, sliceCharacters } from "../../lib/characters.js";
import { voiceDisplayName } from "./voices.js";

/** Dialogue mode: blocks, pasting "Speaker: text" lines, caps, preference (speech-generation.md §4, §5). */
export { DIALOGUE_MAX_BLOCKS, dialogueMessages };

export interface DialogueBlock {
  id: string;
  voiceId: string;
  text: string;
}

let nextBlock = 0;
/** A block id unique in this page (ids only key React lists). */
export const newBlockId = () => `block-${Date.now().toString(36)}-${(nextBlock++).toString(36)}`;

export interface SpeakerLine {
  speaker: string;
  text: string;
}

// "Name: text". The name has a letter, no "//" follows (not a URL), and it is short.
const SPEAKER_LINE = /^\s*([\p{L}\p{N}][\p{L}\p{N} .'’_-]{0,39}?)\s*:(?!\/\/)\s*(.*)$/u;

/**
 * Splits pasted text into speaker lines, or null when it is not a dialogue (fewer than two
 * speaker lines). Lines without a speaker continue the previous line; text before the first
 * speaker line belongs to the speaker of the block pasted into ("").
 */
export function parseSpeakerLines(pasted: string): SpeakerLine[] | null {
  const lines = pasted.replace(/\r\n?/g, "\n").split("\n");
  const out: SpeakerLine[] = [];
  let speakerLines = 0;
  for (const line of lines) {
    if (!line.trim()) continue;
    const m = SPEAKER_LINE.exec(line);
    if (m && /\p{L}/u.test(m[1]!)) {
      speakerLines++;
      out.push({ speaker: m[1]!.trim(), text: m[2]!.trim() });
    } else if (out.length) {
      const last = out[out.length - 1]!;
      last.text = last.text ? `${last.text} ${line.trim()}` : line.trim();
    } else {
      out.push({ speaker: "", text: line.trim() });
    }
  }
  return speakerLines >= 2 ? out : null;
}

export interface KnownVoice {
  voice_id: string;
  name: string;
}

/**
 * A voice for each pasted speaker: a voice whose name is the speaker's name; else the next
 * voice not yet given to another speaker, taken from `candidates` in order (the voices already
 * in the dialogue, then a few defaults); when they run out, they are reused in turn.
 * The unnamed speaker ("") keeps `currentVoiceId`.
 */
export function assignSpeakerVoices(speakers: readonly string[], opts: { currentVoiceId: string; candidates: readonly KnownVoice[] }): Map<string, string> {
  const out = new Map<string, string>();
  const used = new Set<string>();
  const byName = new Map<string, string>();
  for (const v of opts.candidates) {
    const key = voiceDisplayName(v.name).toLowerCase();
    if (!byName.has(key)) byName.set(key, v.voice_id);
  }
  const unique = [...new Set(speakers)];
  if (unique.includes("")) {
    out.set("", opts.currentVoiceId);
    used.add(opts.currentVoiceId);
  }
  for (const s of unique) {
    if (!s || out.has(s)) continue;
    const named = byName.get(s.toLowerCase());
    if (named) {
      out.set(s, named);
      used.add(named);
    }
  }
  const pool = [opts.currentVoiceId, ...opts.candidates.map((c) => c.voice_id)].filter((id, i, all) => all.indexOf(id) === i);
  let turn = 0;
  for (const s of unique) {
    if (out.has(s)) continue;
    const fresh = pool.find((id) => !used.has(id));
    const id = fresh ?? pool[turn++ % pool.length]!;
    out.set(s, id);
    used.add(id);
  }
  return out;
}

/** Blocks for pasted speaker lines. */
export function blocksFromSpeakerLines(lines: readonly SpeakerLine[], voices: ReadonlyMap<string, string>): DialogueBlock[] {
  return lines.map((l) => ({ id: newBlockId(), voiceId: voices.get(l.speaker)!, text: l.text }));
}

export const dialogueCharacters = (blocks: readonly Pick<DialogueBlock, "text">[]) => blocks.reduce((n, b) => n + countCharacters(b.text), 0);

/**
 * Enforces the block cap (extra blocks deleted) and the character cap (text truncated; blocks
 * left empty past the cap are dropped), with the spec's warnings.
 */
export function capDialogue(blocks: readonly DialogueBlock[], characterLimit: number, maxBlocks = DIALOGUE_MAX_BLOCKS): { blocks: DialogueBlock[]; warnings: string[] } {
  const warnings: string[] = [];
  let out = [...blocks];
  if (out.length > maxBlocks) {
    out = out.slice(0, maxBlocks);
    warnings.push(dialogueMessages.tooManyBlocks);
  }
  if (dialogueCharacters(out) > characterLimit) {
    let room = characterLimit;
    const kept: DialogueBlock[] = [];
    for (const b of out) {
      if (room <= 0) break;
      const text = sliceCharacters(b.text, room);
      room -= countCharacters(text);
      kept.push(text === b.text ? b : { ...b, text });
    }
    out = kept.length ? kept : out.slice(0, 1).map((b) => ({ ...b, text: "" }));
    warnings.push(dialogueMessages.tooManyCharacters(characterLimit));
  }
  return { blocks: out, warnings };
}

/** The request's inputs: trimmed text, empty blocks ignored. */
export function dialogueInputs(blocks: readonly DialogueBlock[]): { text: string; voice_id: string }[] {
  return blocks.map((b) => ({ text: b.text.trim(), voice_id: b.voiceId })).filter((b) => b.text.length > 0);
}

/** Stability moves in steps of 0.5 in dialogue. */
export const dialogueStability = (x: number) => Math.min(1, Math.max(0, Math.round(x * 2) / 2));

/** The voice for an added speaker: alternate with the previous speaker, else a voice not yet used. */
export function voiceForNewSpeaker(blocks: readonly DialogueBlock[], fallbacks: readonly string[]): string | undefined {
  if (blocks.length >= 2) return blocks[blocks.length - 2]!.voiceId;
  const last = blocks[blocks.length - 1]?.voiceId;
  return fallbacks.find((id) => id !== last) ?? last ?? fallbacks[0];
}

export type Preference = "a" | "b";

/** Choosing by download: the same choice again keeps it; the other one clears it. */
export function nextPreference(current: Preference | null, chosen: Preference): Preference | null {
  if (current === null) return chosen;
  return current === chosen ? current : null;
}
