import "./lib/quiet.js";
import { setFlagsFromString } from "node:v8";
import { ensureWebBuild } from "./lib/web-build.js";

// The request loop's heap may grow to twice what survives a full collection before the next one
// starts: with V8's own factor (about 1.5 here) every clone set off three or four full
// collections of the server's ~47 MB heap, pausing requests for up to 16 ms each plus marking
// steps (docs/decisions/2026-11-27-request-loop-heap-growth.md).
setFlagsFromString("--heap-growing-percent=100");

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
