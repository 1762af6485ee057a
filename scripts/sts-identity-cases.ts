/**
 * The speaker-identity cases the speech-to-speech tests assert, in a minute instead of an hour
 * (scripts/sts-evaluate.ts is the full figure): Jonas (eSpeak) into Lena, Klaus and Ananya as
 * functions/media/voice-conversion/convert.test.ts converts him, and Marcus (flite rms) into Avery,
 * Desmond and Lena as test/speech/sts.test.ts does (here without the SDK's MP3). Prints the output's
 * embedding similarity to the target's reading and to the source.
 *
 *   node --import tsx scripts/sts-identity-cases.ts
 *   STS_SYNTH=residual node --import tsx scripts/sts-identity-cases.ts
 */
import { EspeakEngine } from "../functions/media/engine/espeak/engine.js";
import { FliteEngine } from "../functions/media/engine/flite/engine.js";
import { DispatchingEngine } from "../functions/media/engine/dispatch.js";
import { analyzeVoice } from "../functions/media/voice-analysis/analyze.js";
import { similarity } from "../functions/media/voice-analysis/search.js";
import { PASSAGES } from "../functions/media/voice-analysis/fixtures/texts.js";
import { premadeVoices, speak } from "../functions/media/voice-analysis/fixtures/voices.js";
import { convertAll } from "../functions/media/voice-conversion/convert.js";
import { measureVoice } from "../functions/media/voice-conversion/mapping.js";
import { referenceText } from "../functions/media/voice-conversion/reference.js";
import { premadeVoiceRecords } from "../functions/platform/domain/premadeVoices.js";
import type { SpeechEngine, VoiceProfile } from "../functions/media/engine/port.js";
import { residualOverrideFromEnv, synthesisFromEnv } from "./sts-outside.js";

const DEFAULTS = { stability: 0.5, similarity_boost: 0.75, style: 0, use_speaker_boost: true };

async function cases(engine: SpeechEngine, source: VoiceProfile, text: string, targets: Array<[string, VoiceProfile]>, label: string) {
  const x = await speak(engine, source, text);
  const ax = analyzeVoice(x, 22_050);
  for (const [name, profile] of targets) {
    const target = measureVoice(await speak(engine, profile, referenceText(profile.language)));
    const ay = analyzeVoice(convertAll(x, { target, settings: DEFAULTS, seed: 1, synthesis: synthesisFromEnv(), residual: residualOverrideFromEnv() }), 22_050);
    const at = analyzeVoice(await speak(engine, profile, text), 22_050);
    const [st, ss] = [similarity(ay.embedding, at.embedding), similarity(ay.embedding, ax.embedding)];
    console.log(`${label} -> ${name}: target ${st.toFixed(3)}, source ${ss.toFixed(3)}${st > ss ? "" : "  (nearer the source)"}`);
  }
}

const espeak = new EspeakEngine({ size: 1 });
const both = new DispatchingEngine(new EspeakEngine({ size: 1 }), { flite: () => new FliteEngine({ size: 1 }) });
try {
  const engineVoice = (n: string) => premadeVoices().find((v) => v.name === n)!.profile;
  await cases(espeak, engineVoice("Jonas"), PASSAGES.de.heldOut[0], ["Lena", "Klaus", "Ananya"].map((n) => [n, engineVoice(n)]), "Jonas");
  const record = (n: string) => premadeVoiceRecords().find((v) => v.name === n)!.profile as VoiceProfile;
  await cases(both, record("Marcus"), PASSAGES.en.heldOut[2], ["Avery", "Desmond", "Lena"].map((n) => [n, record(n)]), "Marcus");
} finally {
  await Promise.all([espeak.close(), both.close()]);
}
