/**
 * The speaker check's pool with genuine variation (issue 26): each outside speaker (test/voice-verification/
 * outside-measures.ts `speakers`: the flite and Festival voices and their sox vocal-tract variants, which are other
 * speakers) enrols on its two passages, clean, and reads its three test utterances under changes that do not change who
 * speaks: pace +-10%, pitch +-50 cents, telephone band, light reverberation, 20 dB white noise, another microphone's
 * tilt. Each recording is prepared like the server's (denoised) before analysis. Shared by the speaker-space script and
 * ./speaker-outside.test.ts.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EMBEDDING_VERSION } from "../../functions/media/voice-analysis/embedding.js";
import { analyzeVoice } from "../../functions/media/voice-analysis/analyze.js";
import type { Degradation } from "../support/outside-speech.js";
import { enrolment, outsidePcm, prepared, type Speaker } from "./outside-measures.js";
import { SPEAKER_TEXTS } from "./outside-texts.js";

export const GENUINE_VARIATION: Record<string, Degradation[]> = {
  clean: [],
  "pace 0.9": [{ kind: "tempo", factor: 0.9 }],
  "pace 1.1": [{ kind: "tempo", factor: 1.1 }],
  "pitch +50c": [{ kind: "pitch", cents: 50 }],
  "pitch -50c": [{ kind: "pitch", cents: -50 }],
  telephone: [{ kind: "telephone" }],
  reverb: [{ kind: "reverb", amount: 30 }],
  "white 20 dB": [{ kind: "noise", color: "white", snrDb: 20 }],
  tilt: [{ kind: "tilt", db: 6 }],
};

export interface PoolSpeaker extends Speaker {
  enrol: number[];
  tests: Array<{ condition: string; text: number; e: number[] }>;
}

/**
 * Embeddings of `list`'s enrolments and test utterances: test utterance k is read under every `perText`-th condition
 * from k on (so three utterances cover the nine conditions once each). Cached by speaker, conditions and embedding
 * version under the system temp dir (the analysis is the slow part).
 */
export async function poolEmbeddings(list: Speaker[], opts: { conditions?: string[]; texts?: number } = {}): Promise<PoolSpeaker[]> {
  const conditions = opts.conditions ?? Object.keys(GENUINE_VARIATION);
  const texts = opts.texts ?? 3;
  mkdirSync(CACHE, { recursive: true });
  const out: PoolSpeaker[] = [];
  for (const s of list) {
    const key = createHash("sha256").update(JSON.stringify([EMBEDDING_VERSION, s.voice.id, s.shift, conditions, texts, SPEAKER_TEXTS[s.language]])).digest("hex").slice(0, 24);
    const file = join(CACHE, `${s.id}-${key}.json`);
    if (existsSync(file)) {
      out.push({ ...s, ...(JSON.parse(readFileSync(file, "utf8")) as Pick<PoolSpeaker, "enrol" | "tests">) });
      continue;
    }
    const tests: PoolSpeaker["tests"] = [];
    for (const [k, text] of SPEAKER_TEXTS[s.language].test.slice(0, texts).entries())
      for (const [c, condition] of conditions.entries())
        if (c % texts === k) tests.push({ condition, text: k, e: analyzeVoice(await prepared(await outsidePcm(s.voice, text, [...s.shift, ...GENUINE_VARIATION[condition]])), 16000).embedding });
    const enrol = await enrolment(s);
    writeFileSync(file, JSON.stringify({ enrol, tests }));
    out.push({ ...s, enrol, tests });
  }
  return out;
}

const CACHE = join(tmpdir(), "timbre-speaker-pool");

export interface PoolTrial { target: string; test: string; genuine: boolean; split: string; sameLanguage: boolean; condition: string; score: number }

/** Every test utterance against its own enrolment (genuine) and every other same-gender speaker's (impostor), scored by `score(enrolment, test)`. */
export function poolTrials(pool: PoolSpeaker[], score: (enrol: number[], test: number[]) => number): PoolTrial[] {
  const trials: PoolTrial[] = [];
  for (const target of pool)
    for (const test of pool) {
      if (test.gender !== target.gender) continue;
      for (const t of test.tests)
        trials.push({ target: target.id, test: test.id, genuine: test.id === target.id, split: target.split, sameLanguage: test.language === target.language, condition: t.condition, score: score(target.enrol, t.e) });
    }
  return trials;
}
