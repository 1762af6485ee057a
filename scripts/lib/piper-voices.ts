/**
 * `npm run voices`: Piper voices in the folder the server loads them from (PIPER_VOICES_DIR,
 * default DATA_DIR/voices/piper). `add` checks a model as start-up does (its json beside it,
 * Piper's ONNX signature), then loads it in onnxruntime and runs it on a few ids before copying
 * the pair into the folder; `list` shows what the next start will load and what it will refuse.
 */
import { copyFileSync, existsSync, mkdirSync, renameSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import ort from "onnxruntime-node";
import { checkPiperVoice, scanPiperVoices, type PiperVoiceFile } from "../../functions/media/engine/piper/catalog.js";
import { piperVoiceId } from "../../functions/handlers/seed/piper.js";

/** Runs the model once on "^ _ $" (and the first speaker): a file onnxruntime cannot load or run fails here. */
export async function tryPiperModel(v: PiperVoiceFile): Promise<number> {
  const map = v.config.phonemeIdMap;
  const ids = [...map.get("^")!, ...map.get("_")!, ...map.get("$")!];
  const session = await ort.InferenceSession.create(v.modelPath, { intraOpNumThreads: 1, logSeverityLevel: 3 });
  try {
    const feeds: Record<string, ort.Tensor> = {
      input: new ort.Tensor("int64", BigInt64Array.from(ids, BigInt), [1, ids.length]),
      input_lengths: new ort.Tensor("int64", BigInt64Array.from([BigInt(ids.length)]), [1]),
      scales: new ort.Tensor("float32", Float32Array.from([v.config.noiseScale, v.config.lengthScale, v.config.noiseW]), [3]),
    };
    if (session.inputNames.includes("sid")) feeds.sid = new ort.Tensor("int64", BigInt64Array.from([0n]), [1]);
    const out = (await session.run(feeds))[session.outputNames[0]];
    if (out.type !== "float32") throw new Error(`the model gives ${out.type} audio, not float32`);
    return out.data.length;
  } finally {
    await session.release();
  }
}

export function voiceLines(v: PiperVoiceFile): string[] {
  const where = `${v.config.language}, ${v.config.sampleRate} Hz, eSpeak voice ${v.config.espeakVoice}`;
  if (v.config.numSpeakers <= 1) return [`${v.key}  (${where})  voice_id ${piperVoiceId(v.key, null)}`];
  return [`${v.key}  (${where}, ${v.config.numSpeakers} speakers)`, ...v.config.speakers.map((s) => `  #${s.id} ${s.name}  voice_id ${piperVoiceId(v.key, s.id)}`)];
}

export async function addPiperVoice(file: string, dir: string, opts: { force?: boolean } = {}): Promise<{ voice: PiperVoiceFile; lines: string[] }> {
  const from = resolve(file);
  if (!from.endsWith(".onnx")) throw new Error(`${file}: a Piper voice is a .onnx file (its .onnx.json beside it)`);
  if (!existsSync(from)) throw new Error(`${file}: no such file`);
  const checked = checkPiperVoiceOr(from);
  try {
    await tryPiperModel(checked);
  } catch (e) {
    throw new Error(`${basename(from)}: onnxruntime cannot run it (${(e as Error).message})`);
  }
  const to = join(resolve(dir), basename(from));
  if (to === from) return { voice: checked, lines: voiceLines(checked) };
  if (existsSync(to) && !opts.force) throw new Error(`${to} exists already (--force replaces it)`);
  mkdirSync(dir, { recursive: true });
  // Json first, then the model under a temporary name renamed into place: a server starting
  // meanwhile sees the old pair or the new one, never a model without its json.
  copyFileSync(`${from}.json`, `${to}.json`);
  copyFileSync(from, `${to}.part`);
  renameSync(`${to}.part`, to);
  const voice = checkPiperVoice(to);
  return { voice, lines: voiceLines(voice) };
}

function checkPiperVoiceOr(path: string): PiperVoiceFile {
  try {
    return checkPiperVoice(path);
  } catch (e) {
    throw new Error(`${basename(path)}: ${(e as Error).message}`);
  }
}

export function listPiperVoices(dir: string): string[] {
  const { voices, problems } = scanPiperVoices(dir);
  const lines = [`Piper voices in ${resolve(dir)}:`];
  if (!voices.length) lines.push("  (none)");
  for (const v of voices) lines.push(...voiceLines(v).map((l) => `  ${l}`));
  for (const p of problems) lines.push(`  not loaded: ${basename(p.file)}: ${p.message}`);
  return lines;
}
