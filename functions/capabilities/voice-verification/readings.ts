import type { AppContext } from "../../platform/context.js";
import type { SpeechEngine, VoiceProfile } from "../../media/engine/port.js";
import { speakPcm16 } from "../voice-clone/render.js";

/**
 * The engine's reading of an attempt's sentence with the voice's own profile: both checks of the
 * verification workflow need it (the speaker step analyses it as the reference speaker, the
 * sentence step aligns the recording with it as the first candidate). The checks run in parallel;
 * where they share a process (the embedded stack's runner, one warm function) the reading is made
 * once: the first step asks the engine, the second awaits the same promise. A step in another
 * process makes its own, as before. Kept per engine, for two minutes and at most 16 readings (a
 * few megabytes), and dropped once both steps took it; a failed reading is not kept.
 */
const KEEP_MS = 120_000;
const MAX_KEPT = 16;
/** The steps that take the reading: speaker and sentence. */
const TAKERS = 2;

type Reading = { pcm: Int16Array; sampleRate: number };
type Entry = { reading: Promise<Reading>; at: number; taken: number };
const kept = new WeakMap<SpeechEngine, Map<string, Entry>>();

export async function ownReading(ctx: AppContext, profile: VoiceProfile, text: string): Promise<Reading> {
  const engine = await ctx.engine();
  let readings = kept.get(engine);
  if (!readings) kept.set(engine, (readings = new Map()));
  const now = Date.now();
  for (const [k, e] of readings) if (now - e.at > KEEP_MS) readings.delete(k);
  const key = JSON.stringify([profile, text]);
  const hit = readings.get(key);
  if (hit) {
    if (++hit.taken >= TAKERS) readings.delete(key);
    return hit.reading;
  }
  const entry: Entry = { reading: speakPcm16(ctx, profile, text), at: now, taken: 1 };
  readings.set(key, entry);
  while (readings.size > MAX_KEPT) readings.delete(readings.keys().next().value!);
  entry.reading.catch(() => {
    if (readings.get(key) === entry) readings.delete(key);
  });
  return entry.reading;
}
