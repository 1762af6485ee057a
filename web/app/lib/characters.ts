/**
 * Characters as the server counts them for limits and credits: Unicode code points, not UTF-16
 * units, so an emoji or any other character outside the Basic Multilingual Plane is one
 * character. Every counter, limit check and cost shown in the web app goes through here.
 */
export function countCharacters(text: string): number {
  let n = 0;
  // for..of walks code points; a lone surrogate counts as one, as [...text] does.
  for (const _ of text) n++;
  return n;
}

/** The first `max` characters (code points) of `text`: a cut never splits a surrogate pair. */
export function sliceCharacters(text: string, max: number): string {
  if (max <= 0) return "";
  if (text.length <= max) return text;
  let units = 0;
  let n = 0;
  for (const ch of text) {
    if (n === max) break;
    units += ch.length;
    n++;
  }
  return text.slice(0, units);
}
