/**
 * The Piper voices in a folder: every `NAME.onnx` with its `NAME.onnx.json`, checked at start-up
 * (json fields, the model's ONNX signature read from its bytes). A file that fails gives a problem
 * with a clear reason and is left out; the others load.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { piperSignatureProblems, readOnnxSignature } from "./onnx-signature.js";
import { parsePiperConfig, type PiperConfig } from "./voice-config.js";

export interface PiperVoiceFile {
  /** The file name without ".onnx": the voice's key (profile.engineVoice). */
  key: string;
  modelPath: string;
  config: PiperConfig;
}

export interface PiperProblem {
  file: string;
  message: string;
}

/** Files larger than this are not Piper voices (the largest published ones are ~120 MB). */
export const MAX_MODEL_BYTES = 1024 * 1024 * 1024;

/** A voice key must be a plain file name: it names files inside the folder and nothing else. */
export const VOICE_KEY = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,119}$/;

/** Checks one model and its json; throws with the reason. */
export function checkPiperVoice(modelPath: string): PiperVoiceFile {
  const key = basename(modelPath).replace(/\.onnx$/, "");
  if (!VOICE_KEY.test(key)) throw new Error(`the file name must be letters, digits, ".", "_", "+" or "-" (at most 120) before .onnx`);
  const jsonPath = `${modelPath}.json`;
  if (!existsSync(jsonPath)) throw new Error(`no ${basename(jsonPath)} beside it (Piper voices come as NAME.onnx and NAME.onnx.json)`);
  const config = parsePiperConfig(readFileSync(jsonPath, "utf8"));
  const size = statSync(modelPath).size;
  if (size > MAX_MODEL_BYTES) throw new Error(`the model is ${size} bytes, over ${MAX_MODEL_BYTES}`);
  let signature;
  try {
    signature = readOnnxSignature(readFileSync(modelPath));
  } catch (e) {
    throw new Error(`the model is not a readable ONNX file (${(e as Error).message})`);
  }
  const problems = piperSignatureProblems(signature, config.numSpeakers > 1);
  if (problems.length) throw new Error(`the model does not have Piper's signature: ${problems.join("; ")}`);
  return { key, modelPath, config };
}

export function scanPiperVoices(dir: string): { voices: PiperVoiceFile[]; problems: PiperProblem[] } {
  const voices: PiperVoiceFile[] = [];
  const problems: PiperProblem[] = [];
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return { voices, problems }; // no folder: no Piper voices
  }
  for (const name of names) {
    const path = join(dir, name);
    if (name.endsWith(".onnx")) {
      try {
        voices.push(checkPiperVoice(path));
      } catch (e) {
        problems.push({ file: path, message: (e as Error).message });
      }
    } else if (name.endsWith(".onnx.json") && !names.includes(name.slice(0, -5))) {
      problems.push({ file: path, message: `no ${name.slice(0, -5)} beside it` });
    }
  }
  return { voices, problems };
}

/** Whether the folder holds any model (the engine's workers start only then). */
export function hasPiperModels(dir: string): boolean {
  try {
    return readdirSync(dir).some((n) => n.endsWith(".onnx"));
  } catch {
    return false;
  }
}
