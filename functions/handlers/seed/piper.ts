/**
 * The Piper voices found at start-up as system voices (listed for every workspace like the
 * premade ones, category "premade", label `engine: piper`): one record per model, or per speaker
 * of a multi-speaker model. Ids come from the file name (and speaker), so they stay the same across
 * restarts and installs; records of voices whose files are gone are removed.
 */
import type { AppContext } from "../../platform/context.js";
import { premadeVoiceId, systemVoiceFields } from "../../platform/domain/premadeVoices.js";
import type { VoiceRecord } from "../../platform/stores/voices.js";
import type { PiperVoiceFile } from "../../media/engine/piper/catalog.js";
import { piperEngineVoice } from "../../media/engine/piper/engine.js";

const SEED_EPOCH = 1_735_689_600;

export function piperVoiceId(key: string, sid: number | null): string {
  return premadeVoiceId(`piper:${piperEngineVoice(key, sid)}`);
}

function pretty(key: string): string {
  // "en_US-lessac-medium" -> "lessac (en_US, medium)", Piper's naming; anything else as it is.
  const m = /^([a-z]{2,3}_[A-Z]{2})-(.+)-(x_low|low|medium|high)$/.exec(key);
  return m ? `${m[2]} (${m[1]}, ${m[3]})` : key;
}

export function piperVoiceRecords(voices: readonly PiperVoiceFile[]): VoiceRecord[] {
  const out: VoiceRecord[] = [];
  for (const v of voices) {
    const speakers = v.config.numSpeakers > 1 ? v.config.speakers : [{ name: "", id: null as number | null }];
    const [language, region] = v.config.language.split("-");
    for (const s of speakers) {
      const name = s.id === null ? `Piper ${pretty(v.key)}` : `Piper ${pretty(v.key)}: ${s.name}`;
      out.push({
        voice_id: piperVoiceId(v.key, s.id),
        workspace_id: null,
        owner_user_id: null,
        name: name.slice(0, 100),
        description: `A local Piper voice (${v.key}.onnx${s.id === null ? "" : `, speaker ${s.id}`}).`,
        category: "premade",
        labels: { language, ...(region ? { accent: region } : {}), engine: "piper", use_case: "local" },
        created_at_unix: SEED_EPOCH,
        profile: {
          language: v.config.language,
          gender: "neutral",
          age: "middle_aged",
          pitch: 50,
          pitchRange: 50,
          rate: 170,
          timbre: 0,
          seed: 0,
          engine: "piper",
          engineVoice: piperEngineVoice(v.key, s.id),
        },
        ...systemVoiceFields(language),
      });
    }
  }
  return out;
}

/** Writes the records of the voices found and removes those of voices no longer there. */
export async function seedPiperVoices(ctx: AppContext, voices: readonly PiperVoiceFile[]): Promise<{ added: number; removed: number }> {
  const records = piperVoiceRecords(voices);
  const wanted = new Map(records.map((r) => [r.voice_id, r]));
  const existing = (await ctx.stores.voices.premade()).filter((v) => v.profile.engine === "piper");
  let removed = 0;
  for (const old of existing) {
    if (wanted.has(old.voice_id)) continue;
    await ctx.stores.voices.delete(null, old.voice_id);
    removed++;
  }
  const have = new Map(existing.map((v) => [v.voice_id, v]));
  let added = 0;
  for (const r of records) {
    const old = have.get(r.voice_id);
    if (old && JSON.stringify(old.profile) === JSON.stringify(r.profile) && old.name === r.name) continue;
    await ctx.stores.voices.put({ ...r, preview_object_key: old?.preview_object_key ?? null });
    added++;
  }
  return { added, removed };
}
