import "./lib/quiet.js";
import { parseArgs } from "node:util";
import { config } from "../functions/platform/config.js";
import { addPiperVoice, listPiperVoices } from "./lib/piper-voices.js";

/**
 * `npm run voices -- list`: the Piper voices the server loads at start-up (and the files it will
 * refuse, with why). `npm run voices -- add FILE.onnx [--force]`: checks the model and its
 * .onnx.json, runs it once, copies both into the folder (PIPER_VOICES_DIR, default
 * DATA_DIR/voices/piper). A running server loads new voices at its next start.
 */
const usage = "usage: npm run voices -- list | add FILE.onnx [--force]";

const { positionals, values } = parseArgs({ allowPositionals: true, options: { force: { type: "boolean" } }, strict: true });
const [command, file] = positionals;
const dir = config().piperVoicesDir;
try {
  if (command === "list" && positionals.length === 1) {
    process.stdout.write(`${listPiperVoices(dir).join("\n")}\n`);
  } else if (command === "add" && file && positionals.length === 2) {
    const { lines } = await addPiperVoice(file, dir, { force: values.force });
    process.stdout.write(`Added to ${dir}:\n${lines.map((l) => `  ${l}`).join("\n")}\nRestart the server (npm start) to load it.\n`);
  } else {
    process.stderr.write(`${usage}\n`);
    process.exit(2);
  }
} catch (e) {
  process.stderr.write(`${(e as Error).message}\n`);
  process.exit(1);
}
