import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { decodeWav, encodeWav } from "../../functions/media/audio/wav.js";
import { floatToInt16 } from "../../functions/media/audio/resample.js";

/**
 * Speech that Timbre's engine did not make (issue 26): Debian's flite (CMU ARCTIC voices) and Festival voices, read
 * during the test and cached by content under the system temp dir. `split` keeps a held-out part that no threshold or
 * fit is tuned on: tune on `tune`, report `heldout` separately. The same speaker never sits in both splits (Festival's
 * slt HTS voice is flite's slt speaker, so both are `tune`).
 *
 * Degradations meet what microphones deliver: white or pink noise at an SNR, reverberation, telephone band (300-3400 Hz
 * at 8 kHz). All are deterministic (seeded noise, sox effects without dither), so a figure is reproducible.
 */
export interface OutsideVoice {
  id: string;
  tool: "flite" | "festival";
  /** flite's -voice name, or Festival's voice function without "voice_". */
  voice: string;
  language: "en" | "ru" | "hi" | "mr" | "te" | "cs" | "it";
  gender: "female" | "male";
  split: "tune" | "heldout";
  /** Festival voices that read text in another encoding than UTF-8. */
  encoding?: "latin2" | "latin1";
}

export const OUTSIDE_VOICES: readonly OutsideVoice[] = [
  { id: "flite-slt", tool: "flite", voice: "slt", language: "en", gender: "female", split: "tune" },
  { id: "flite-rms", tool: "flite", voice: "rms", language: "en", gender: "male", split: "tune" },
  { id: "flite-kal", tool: "flite", voice: "kal", language: "en", gender: "male", split: "tune" },
  { id: "flite-awb", tool: "flite", voice: "awb", language: "en", gender: "male", split: "heldout" },
  { id: "fest-slt-hts", tool: "festival", voice: "cmu_us_slt_arctic_hts", language: "en", gender: "female", split: "tune" },
  { id: "fest-kal", tool: "festival", voice: "kal_diphone", language: "en", gender: "male", split: "tune" },
  { id: "fest-ked", tool: "festival", voice: "ked_diphone", language: "en", gender: "male", split: "heldout" },
  { id: "fest-ru", tool: "festival", voice: "msu_ru_nsh_clunits", language: "ru", gender: "male", split: "tune" },
  { id: "fest-hi", tool: "festival", voice: "hindi_NSK_diphone", language: "hi", gender: "male", split: "tune" },
  { id: "fest-mr", tool: "festival", voice: "marathi_NSK_diphone", language: "mr", gender: "male", split: "heldout" },
  { id: "fest-te", tool: "festival", voice: "telugu_NSK_diphone", language: "te", gender: "male", split: "tune" },
  { id: "fest-cs-krb", tool: "festival", voice: "czech_krb", language: "cs", gender: "male", split: "tune", encoding: "latin2" },
  { id: "fest-cs-machac", tool: "festival", voice: "czech_machac", language: "cs", gender: "male", split: "tune", encoding: "latin2" },
  { id: "fest-cs-ph", tool: "festival", voice: "czech_ph", language: "cs", gender: "male", split: "heldout", encoding: "latin2" },
  { id: "fest-cs-dita", tool: "festival", voice: "czech_dita", language: "cs", gender: "female", split: "heldout", encoding: "latin2" },
  { id: "fest-it-lp", tool: "festival", voice: "lp_diphone", language: "it", gender: "female", split: "tune", encoding: "latin1" },
  { id: "fest-it-pc", tool: "festival", voice: "pc_diphone", language: "it", gender: "male", split: "heldout", encoding: "latin1" },
];

export type Degradation =
  | { kind: "noise"; color: "white" | "pink"; snrDb: number; seed?: number }
  | { kind: "reverb"; amount?: number }
  | { kind: "telephone" }
  /** sox `pitch` (cents, formants move with it) and `tempo` (pace, pitch kept): another speaker made from one. */
  | { kind: "pitch"; cents: number }
  | { kind: "tempo"; factor: number }
  /** Another microphone's tilt: sox `bass` -db and `treble` +db (a brighter microphone for db > 0). */
  | { kind: "tilt"; db: number };

const run = promisify(execFile);
const CACHE = join(tmpdir(), "timbre-outside-speech");

function has(cmd: string): boolean {
  return ["/usr/bin", "/usr/local/bin", "/bin"].some((d) => existsSync(join(d, cmd)));
}

/** Whether this machine can make the voice's speech (.ci/run installs every tool and voice listed above). */
export function outsideVoiceAvailable(v: OutsideVoice): boolean {
  if (v.tool === "flite") return has("flite");
  if (!has("text2wave")) return false;
  return existsSync("/usr/share/festival/voices") && readdirHas("/usr/share/festival/voices", v.voice);
}

function readdirHas(root: string, voice: string): boolean {
  try {
    return readdirSync(root).some((lang) => existsSync(join(root, lang, voice)));
  } catch {
    return false;
  }
}

export function outsideVoice(id: string): OutsideVoice {
  const v = OUTSIDE_VOICES.find((x) => x.id === id);
  if (!v) throw new Error(`no outside voice ${id}`);
  return v;
}

/**
 * A 16 kHz mono 16-bit WAV of `voice` reading `text`, then each degradation in order. Cached by content, so a second
 * test (or run) asking for the same speech reads a file.
 */
export async function outsideSpeech(voice: OutsideVoice | string, text: string, degrade: Degradation[] = []): Promise<Buffer> {
  const v = typeof voice === "string" ? outsideVoice(voice) : voice;
  mkdirSync(CACHE, { recursive: true });
  const key = createHash("sha256").update(JSON.stringify([v.tool, v.voice, text, degrade])).digest("hex").slice(0, 24);
  const out = join(CACHE, `${v.id}-${key}.wav`);
  if (existsSync(out)) return readFileSync(out);
  // Two files (or tests) asking for the same speech at once each make it under names of their own, and the
  // finished file is renamed into place: a reader never sees a half-written one.
  const own = `${key}.${process.pid}.${randomBytes(4).toString("hex")}`;
  const raw = join(CACHE, `${own}.raw.wav`);
  if (v.tool === "flite") {
    await run("flite", ["-voice", v.voice, "-t", text, "-o", raw]);
  } else {
    const input = join(CACHE, `${own}.txt`);
    writeFileSync(input, v.encoding ? Buffer.from(encodeLegacy(text, v.encoding)) : text);
    await run("text2wave", ["-eval", `(voice_${v.voice})`, "-o", raw, input]);
  }
  const clean = join(CACHE, `${own}.16k.wav`);
  const soxEffects: string[] = [];
  for (const d of degrade) {
    if (d.kind === "reverb") soxEffects.push("reverb", String(d.amount ?? 50));
    if (d.kind === "telephone") soxEffects.push("sinc", "300-3400", "rate", "8000", "rate", "16000");
    if (d.kind === "pitch") soxEffects.push("pitch", String(d.cents));
    if (d.kind === "tempo") soxEffects.push("tempo", "-s", String(d.factor));
    if (d.kind === "tilt") soxEffects.push("bass", String(-d.db), "treble", String(d.db));
  }
  await run("sox", ["-D", raw, "-r", "16000", "-c", "1", "-b", "16", clean, "rate", "16000", ...soxEffects, "norm", "-3"]);
  let wav: Buffer = readFileSync(clean);
  for (const d of degrade) if (d.kind === "noise") wav = addNoise(wav, d.color, d.snrDb, d.seed ?? 1);
  const partial = join(CACHE, `${own}.partial.wav`);
  writeFileSync(partial, wav);
  renameSync(partial, out);
  for (const f of [raw, clean, join(CACHE, `${own}.txt`)]) rmSync(f, { force: true });
  return wav;
}

/** Noise at `snrDb` against the speech's mean power; pink by Paul Kellet's economy filter on seeded white noise. */
export function addNoise(wav: Buffer, color: "white" | "pink", snrDb: number, seed = 1): Buffer {
  const { pcm, sampleRate } = decodeWav(new Uint8Array(wav));
  const x = Float32Array.from(pcm);
  let power = 0;
  for (const s of x) power += s * s;
  power /= Math.max(1, x.length);
  let state = seed >>> 0 || 1;
  const white = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state / 2 ** 32) * 2 - 1;
  };
  const n = new Float32Array(x.length);
  let b0 = 0, b1 = 0, b2 = 0;
  for (let i = 0; i < n.length; i++) {
    const w = white();
    if (color === "white") n[i] = w;
    else {
      b0 = 0.99765 * b0 + w * 0.099046;
      b1 = 0.963 * b1 + w * 0.2965164;
      b2 = 0.57 * b2 + w * 1.0526913;
      n[i] = b0 + b1 + b2 + w * 0.1848;
    }
  }
  let np = 0;
  for (const s of n) np += s * s;
  np /= Math.max(1, n.length);
  const gain = Math.sqrt(power / 10 ** (snrDb / 10) / Math.max(np, 1e-12));
  for (let i = 0; i < x.length; i++) x[i] = Math.max(-1, Math.min(1, x[i] + gain * n[i]));
  return Buffer.from(encodeWav(floatToInt16(x), sampleRate));
}

function encodeLegacy(text: string, enc: "latin2" | "latin1"): Uint8Array {
  if (enc === "latin1") return Uint8Array.from([...text].map((c) => (c.charCodeAt(0) < 256 ? c.charCodeAt(0) : 63)));
  // ISO-8859-2's letters used in Czech (the rest of Latin-2 maps through Latin-1 where it coincides).
  const map: Record<string, number> = {
    "Á": 0xc1, "á": 0xe1, "Č": 0xc8, "č": 0xe8, "Ď": 0xcf, "ď": 0xef, "É": 0xc9, "é": 0xe9, "Ě": 0xcc, "ě": 0xec,
    "Í": 0xcd, "í": 0xed, "Ň": 0xd2, "ň": 0xf2, "Ó": 0xd3, "ó": 0xf3, "Ř": 0xd8, "ř": 0xf8, "Š": 0xa9, "š": 0xb9,
    "Ť": 0xab, "ť": 0xbb, "Ú": 0xda, "ú": 0xfa, "Ů": 0xd9, "ů": 0xf9, "Ý": 0xdd, "ý": 0xfd, "Ž": 0xae, "ž": 0xbe,
  };
  return Uint8Array.from([...text].map((c) => map[c] ?? (c.charCodeAt(0) < 128 ? c.charCodeAt(0) : 63)));
}
