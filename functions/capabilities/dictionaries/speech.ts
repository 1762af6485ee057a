import type { AppContext } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import type { ModelInfo } from "../../platform/domain/models.js";
import { PHONEME_MODEL_IDS, type PhonemeRule } from "../../platform/contract/dictionaries.js";
import { toEspeakPhonemes } from "../../media/engine/espeak/phonemes.js";
import type { Locator, PronunciationHook } from "../speech/pronunciation.js";
import { applyRules, type ApplyOptions, type CompiledDictionary } from "./apply.js";
import { respellArpabet, respellIpa } from "./phonetics.js";
import { readableDictionary, resolveVersion, versionRules } from "./service.js";

/**
 * Dictionaries in speech: the request's locators (in order), then the workspace's (when the
 * workspace-pronunciation-dictionaries flag is on). A request locator the caller cannot read is
 * a 404 before anything is charged; a workspace locator that went missing is skipped with a
 * warning, so one stale setting cannot stop every generation in the workspace.
 */
export interface ResolvedDictionary {
  locator: { pronunciation_dictionary_id: string; version_id: string };
  compiled: CompiledDictionary;
}

export async function resolveLocators(ctx: AppContext, caller: Caller, locators: Locator[]): Promise<{ dictionaries: ResolvedDictionary[]; warnings: string[] }> {
  const dictionaries: ResolvedDictionary[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  for (const l of locators) {
    if (seen.has(l.pronunciation_dictionary_id)) continue;
    seen.add(l.pronunciation_dictionary_id);
    const { dict } = await readableDictionary(ctx, caller, l.pronunciation_dictionary_id);
    const versionId = await resolveVersion(ctx, dict, l.version_id);
    dictionaries.push({ locator: { pronunciation_dictionary_id: dict.dictionary_id, version_id: versionId }, compiled: (await versionRules(ctx, caller.workspaceId, dict.dictionary_id, versionId)).compiled });
  }
  if (await caller.flag("workspace-pronunciation-dictionaries")) {
    for (const l of (await caller.workspace()).pronunciation_dictionary_locators ?? []) {
      if (seen.has(l.pronunciation_dictionary_id)) continue;
      seen.add(l.pronunciation_dictionary_id);
      try {
        const dict = await ctx.stores.dictionaries.get(caller.workspaceId, l.pronunciation_dictionary_id);
        if (!dict) throw new Error("missing");
        const versionId = await resolveVersion(ctx, dict, l.version_id);
        dictionaries.push({ locator: { pronunciation_dictionary_id: dict.dictionary_id, version_id: versionId }, compiled: (await versionRules(ctx, caller.workspaceId, dict.dictionary_id, versionId)).compiled });
      } catch {
        warnings.push(`The workspace pronunciation dictionary ${l.pronunciation_dictionary_id} is no longer available and was not applied.`);
      }
    }
  }
  return { dictionaries, warnings };
}

/** How phoneme rules meet the engine on a model. */
export function phonemeOptions(model: Pick<ModelInfo, "engine">): ApplyOptions {
  return {
    phonemes: model.engine.supportsPhonemes,
    respell: (r: PhonemeRule) => (r.alphabet === "ipa" ? respellIpa(r.phoneme) : respellArpabet(r.phoneme)),
    speakable: (r: PhonemeRule) => {
      const c = toEspeakPhonemes(r.phoneme, r.alphabet);
      return { ok: c.espeak.length > 0, skipped: c.unknown };
    },
  };
}

const englishOnly = PHONEME_MODEL_IDS.join(", ");

/** The hook for one generation: locators resolve once, each warning is given once. */
export function dictionaryPronunciation(caller: Caller): PronunciationHook {
  let resolved: ReturnType<typeof resolveLocators> | undefined;
  const given = new Set<string>();
  const once = (messages: string[]) => messages.filter((m) => !given.has(m) && given.add(m));
  return async (ctx, input) => {
    resolved ??= resolveLocators(ctx, caller, input.locators);
    const { dictionaries, warnings } = await resolved;
    if (!dictionaries.length) return { text: input.text, phonemeSpans: [], warnings: once(warnings), applied: [] };
    const result = applyRules(
      input.text,
      dictionaries.map((d) => d.compiled),
      phonemeOptions(input.model),
    );
    const messages = [...warnings];
    for (const r of result.respelled) {
      messages.push(
        r.reason === "model"
          ? `Phonemes require an english-only model (${englishOnly}): on ${input.model.model_id} the phoneme rule for "${r.rule.string_to_replace}" was spoken as the respelling "${r.respelling}".`
          : `The phonemes of the rule for "${r.rule.string_to_replace}" could not be spoken; it was spoken as the respelling "${r.respelling}".`,
      );
    }
    for (const s of result.skippedSymbols) {
      messages.push(`Some phonemes of the rule for "${s.rule.string_to_replace}" are not supported and were skipped: ${s.symbols.join(" ")}.`);
    }
    return { text: result.text, phonemeSpans: result.phonemeSpans, warnings: once(messages), applied: dictionaries.map((d) => d.locator) };
  };
}
