import { z } from "zod";

/**
 * Characters as people and clients count them: Unicode code points, so "👍" is one character,
 * not two UTF-16 units. Text limits, credit costs and the UI's counter all use this count.
 */
export function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** A string of at most `max` characters (code points), with the given message. */
export const maxChars = (max: number, message: string) =>
  z.string().refine((s) => s.length <= max || codePointLength(s) <= max, { message });
