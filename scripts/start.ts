import "./lib/quiet.js";
import { ensureWebBuild } from "./lib/web-build.js";

/** `npm start`: build what is missing or stale, then run the embedded stack in this process. */
const args = process.argv.slice(2);
const modeIndex = args.indexOf("--mode");
if (modeIndex >= 0 && args[modeIndex + 1]) process.env.TIMBRE_MODE = args[modeIndex + 1];

try {
  ensureWebBuild((l) => process.stdout.write(l + "\n"));
} catch (e) {
  process.stderr.write(`${(e as Error).message}\n`);
  process.exit(1);
}
await import("../infra/local/main.js");
