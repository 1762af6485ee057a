/**
 * The speaker check's pool with genuine variation (issue 26): each outside speaker (test/voice-verification/
 * outside-measures.ts `speakers`: the flite and Festival voices and their sox vocal-tract variants, which are other
 * speakers) enrols on its two passages, clean, and reads its three test utterances under changes that do not change who
 * speaks: pace +-10%, pitch +-50 cents, telephone band, light reverberation, 20 dB white noise, another microphone's
 * tilt; and through the product's browser recording path (./browser-channel.ts: 48 kHz, Opus in WebM, the server's
 * decoder), clean, slower and in a small room. Each recording is prepared like the server's (denoised) before analysis.
 * Shared by the speaker-space script and ./speaker-outside.test.ts.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EMBEDDING_VERSION } from "../../functions/media/voice-analysis/embedding.js";
import { analyzeVoice } from "../../functions/media/voice-analysis/analyze.js";
import type { Degradation } from "../support/outside-speech.js";
import { BROWSER_CHANNEL_VERSION, browserChannel } from "./browser-channel.js";
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
  browser: [],
  "browser pace 0.9": [{ kind: "tempo", factor: 0.9 }],
  "browser reverb": [{ kind: "reverb", amount: 30 }],
};

/** Conditions recorded through the browser's path (after their sox changes). */
export const isBrowserCondition = (condition: string) => condition.startsWith("browser");

export interface PoolSpeaker extends Speaker {
  enrol: number[];
  tests: Array<{ condition: string; text: number; e: number[] }>;
}

/**
 * Embeddings of `list`'s enrolments and test utterances: test utterance k is read under every `perText`-th condition
 * from k on (so three utterances cover the twelve conditions once each). Cached per embedding (speaker, text,
 * condition, embedding version and, for the browser's conditions, the channel's version) under the system temp dir (the
 * analysis is the slow part).
 */
export async function poolEmbeddings(list: Speaker[], opts: { conditions?: string[]; texts?: number } = {}): Promise<PoolSpeaker[]> {
  const conditions = opts.conditions ?? Object.keys(GENUINE_VARIATION);
  const texts = opts.texts ?? 3;
  mkdirSync(CACHE, { recursive: true });
  const cached = async (parts: unknown[], make: () => Promise<number[]>): Promise<number[]> => {
    const file = join(CACHE, `${createHash("sha256").update(JSON.stringify([EMBEDDING_VERSION, ...parts])).digest("hex").slice(0, 32)}.json`);
    if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as number[];
    const e = await make();
    writeFileSync(file, JSON.stringify(e));
    return e;
  };
  const out: PoolSpeaker[] = [];
  for (const s of list) {
    const tests: PoolSpeaker["tests"] = [];
    for (const [k, text] of SPEAKER_TEXTS[s.language].test.slice(0, texts).entries())
      for (const [c, condition] of conditions.entries()) {
        if (c % texts !== k) continue;
        const browser = isBrowserCondition(condition);
        const e = await cached([s.voice.id, s.shift, text, GENUINE_VARIATION[condition], browser ? BROWSER_CHANNEL_VERSION : 0], async () => {
          const pcm = await outsidePcm(s.voice, text, [...s.shift, ...GENUINE_VARIATION[condition]]);
          return analyzeVoice(await prepared(browser ? await browserChannel(pcm, 16000) : pcm), 16000).embedding;
        });
        tests.push({ condition, text: k, e });
      }
    const enrol = await cached([s.voice.id, s.shift, "enrol", SPEAKER_TEXTS[s.language].enrol], () => enrolment(s));
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
