import { PASSAGES } from "../voice-analysis/fixtures/texts.js";

/**
 * What a target voice reads when its pitch and timbre are measured: two passages in its language
 * (about 15 s of speech, enough for stable averages). English for languages without passages.
 */
export function referenceText(language: string): string {
  const primary = language.toLowerCase().split("-")[0];
  const p = PASSAGES[primary] ?? PASSAGES.en;
  return `${p.tuning[0]} ${p.tuning[1]}`;
}
