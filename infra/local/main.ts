import { chmodSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { config, ConfigError } from "../../functions/platform/config.js";
import { startEmbedded } from "./stack.js";
import { acquireLock, AlreadyRunningError } from "./lock.js";

/** `npm start`: the whole product in this process, data under DATA_DIR. */
async function main(): Promise<void> {
  const cfg = config();
  const dataDir = resolve(cfg.dataDir);
  const { mkdirSync } = await import("node:fs");
  mkdirSync(dataDir, { recursive: true });
  // Everything the product writes under the data folder is the owner's alone (0700/0600).
  process.umask(0o077);
  const lock = acquireLock(dataDir);
  process.on("exit", () => lock.release());

  const stack = await startEmbedded({ config: cfg, persist: true, seedDemo: true, previews: true, warmEngine: true });
  // Ready means ready to speak: the first request must not pay for the engine's start.
  await stack.engineReady;
  lock.update({ url: stack.url, dynamo: stack.endpoints.dynamo, s3: stack.endpoints.s3, key: stack.endpoints.key });

  const out: string[] = [];
  if (stack.demo) {
    const file = join(dataDir, "demo-credentials.json");
    writeFileSync(file, JSON.stringify({ ...stack.demo, url: stack.url }, null, 2) + "\n", { mode: 0o600 });
    chmodSync(file, 0o600);
    out.push(
      "",
      "Demo account created (shown once; also saved to " + file + "):",
      `  email:    ${stack.demo.email}`,
      `  password: ${stack.demo.password}`,
      `  API key:  ${stack.demo.api_key}`,
    );
  }
  // performance.now() counts from process start, so this includes loading the code.
  const seconds = (performance.now() / 1000).toFixed(1);
  out.unshift(`Timbre is running at ${stack.url} (ready in ${seconds} s; data in ${dataDir})`);
  out.push("", `Health: ${stack.url}/healthz    API: ${stack.url}/v1    Press Ctrl+C to stop.`);
  process.stdout.write(out.join("\n") + "\n");

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping Timbre…\n`);
    await stack.close().catch(() => undefined);
    lock.release();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((e: unknown) => {
  if (e instanceof AlreadyRunningError || e instanceof ConfigError) {
    process.stderr.write(`${e.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`Timbre failed to start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
