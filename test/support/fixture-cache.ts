import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Deterministic fixtures that several test files of one run make alike (the same engine voice
 * reading the same passages with the same seeds: test/pvc/support.ts `speech`), made once per run.
 * The folder is the run's (test/support/global-setup.ts makes it and removes it at the end;
 * test/support/wiring.ts hands it to each file's process), so a fixture never outlives the code
 * that made it. Without the folder (a script, TIMBRE_TEST_FIXTURE_CACHE=0) every call makes its
 * own. Two files asking at once may both make it; the file is written whole and renamed into
 * place, so a reader never sees half of one.
 */
export async function cachedBytes(key: unknown, make: () => Promise<Uint8Array>): Promise<Uint8Array> {
  const dir = process.env.TIMBRE_TEST_FIXTURE_DIR;
  if (!dir) return make();
  const file = join(dir, `${createHash("sha256").update(JSON.stringify(key)).digest("hex").slice(0, 32)}.bin`);
  if (existsSync(file)) return new Uint8Array(readFileSync(file));
  const bytes = await make();
  mkdirSync(dir, { recursive: true });
  const part = `${file}.${process.pid}.part`;
  writeFileSync(part, bytes);
  renameSync(part, file);
  return bytes;
}

/** `cachedBytes` for float samples. */
export async function cachedFloats(key: unknown, make: () => Promise<Float32Array>): Promise<Float32Array> {
  const bytes = await cachedBytes(key, async () => {
    const x = await make();
    return new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
  });
  // A copy on its own aligned buffer: the caller may keep and change it.
  const out = new Float32Array(bytes.byteLength / 4);
  new Uint8Array(out.buffer).set(bytes);
  return out;
}
