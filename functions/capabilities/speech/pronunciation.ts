import type { AppContext } from "../../platform/context.js";
import type { PhonemeSpan } from "../../media/engine/port.js";
import type { ModelInfo } from "../../platform/domain/models.js";
import type { MappedText } from "./textmap.js";

/**
 * Where pronunciation dictionaries apply: before normalisation, on the caller's text. Alias
 * rules rewrite the text (through MappedText, so timings still map back); phoneme rules become
 * phoneme spans the engine speaks directly. The dictionaries' hook is
 * functions/capabilities/dictionaries/speech.ts (passed in by the text-to-speech and dialogue routes); without
 * one, `noPronunciationRules` changes nothing.
 */
export interface Locator {
  pronunciation_dictionary_id: string;
  version_id: string | null;
}

export interface PronunciationResult {
  text: MappedText;
  phonemeSpans: PhonemeSpan[];
  /** Messages the caller should see (e.g. a phoneme rule spoken as an alias on this model). */
  warnings: string[];
  /** The exact versions applied, kept in history for replay. */
  applied: Locator[];
}

export type PronunciationHook = (
  ctx: AppContext,
  input: { workspaceId: string; text: MappedText; locators: Locator[]; model: ModelInfo; language: string },
) => Promise<PronunciationResult>;

export const noPronunciationRules: PronunciationHook = async (_ctx, input) => ({
  text: input.text,
  phonemeSpans: [],
  warnings: [],
  applied: [],
});
