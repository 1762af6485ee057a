import type { PronunciationRule } from "../../platform/contract/dictionaries.js";
import { LexiconError, readLexiconFile } from "./lexicon.js";

/**
 * Reading an uploaded lexicon as an offloadable task: its refusal travels back as data (a
 * worker can only send messages), and `readLexicon` turns it into the LexiconError again.
 */
export interface LexiconTask {
  fileName: string;
  bytes: Uint8Array;
}

export type LexiconResult =
  | { ok: true; rules: PronunciationRule[]; language: string | null }
  | { ok: false; message: string; kind: LexiconError["kind"] };

export function lexiconTask(t: LexiconTask): LexiconResult {
  try {
    const { rules, language } = readLexiconFile(t.fileName, t.bytes);
    return { ok: true, rules, language };
  } catch (e) {
    if (e instanceof LexiconError) return { ok: false, message: e.message, kind: e.kind };
    throw e;
  }
}
