import type { TierId } from "./tiers.js";

/**
 * A rule-based dialogue enhancer for the embedded engine: it adds the audio tags the v3
 * dialogue model understands ([excited], [whispers], [laughs]...) where the text itself asks
 * for them, and tidies spacing. Deterministic: the same blocks always give the same result.
 */
export const ENHANCE_DAILY_LIMITS: Record<TierId, number> = { free: 10, starter: 25, creator: 50, pro: 100, scale: 200, business: 500 };

export const enhanceMessages = {
  dailyLimit: "You've reached the maximum number of dialogue enhancements for today. Please try again tomorrow.",
  failed: "Failed to enhance dialogue. Please try again or modify the prompt content.",
};

export interface DialogueBlock {
  text: string;
  voice_id: string | null;
}

const ACTIONS: Array<[RegExp, string]> = [
  [/\*\s*(sighs?)\s*\*/gi, "[sighs]"],
  [/\*\s*(laughs?|chuckles?|giggles?)\s*\*/gi, "[laughs]"],
  [/\*\s*(whispers?)\s*\*/gi, "[whispers]"],
  [/\*\s*(gasps?)\s*\*/gi, "[gasps]"],
  [/\*\s*(clears throat)\s*\*/gi, "[clears throat]"],
  [/\b(?:ha){2,}h?\b|\blol\b/gi, "[laughs]"],
  [/\((?:quietly|softly|whispering)\)/gi, "[whispers]"],
];

const MAX_ADDED_TAGS = 2;

export function enhanceBlock(text: string): string {
  let out = text.replace(/\s+/g, " ").trim();
  if (!out) return out;
  for (const [pattern, tag] of ACTIONS) out = out.replace(pattern, tag);
  const hasTag = /\[[a-z ]+\]/i.test(out);
  const lead: string[] = [];
  if (!hasTag) {
    const words = out.replace(/\[[^\]]*\]/g, "").split(/\s+/);
    if (words.some((w) => w.replace(/[^A-Za-z]/g, "").length >= 3 && w === w.toUpperCase() && /[A-Z]/.test(w))) lead.push("[shouting]");
    else if (/!\s*$/.test(out)) lead.push("[excited]");
    else if (/\?\s*$/.test(out)) lead.push("[curious]");
    if (/\.\.\.|…/.test(out)) lead.push("[hesitates]");
  }
  // First letter of a sentence in upper case, one space after sentence punctuation.
  out = out.replace(/([.!?])(?=[A-Za-z])/g, "$1 ").replace(/^([a-z])/, (c) => c.toUpperCase());
  return [...lead.slice(0, MAX_ADDED_TAGS), out].join(" ");
}

export function enhanceDialogue(blocks: DialogueBlock[]): DialogueBlock[] {
  return blocks.map((b) => ({ text: enhanceBlock(b.text), voice_id: b.voice_id }));
}
