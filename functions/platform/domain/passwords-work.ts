import { argon2id, argon2Verify } from "hash-wasm";

/**
 * The argon2id computations themselves: pure functions of their input, run in a worker thread
 * by the embedded server (passwords.ts) or inline where one request has the process to itself.
 */
export type PasswordTask = { op: "hash"; password: string; salt: Uint8Array } | { op: "verify"; password: string; encoded: string };

/** argon2id with the OWASP baseline (19 MiB, 2 passes, 1 lane); WASM, so it bundles for Lambda anywhere. */
export async function runPasswordTask(t: PasswordTask): Promise<string | boolean> {
  if (t.op === "hash") {
    return argon2id({ password: t.password, salt: t.salt, parallelism: 1, iterations: 2, memorySize: 19_456, hashLength: 32, outputType: "encoded" });
  }
  if (!t.encoded.startsWith("$argon2id$")) return false;
  try {
    return await argon2Verify({ password: t.password, hash: t.encoded });
  } catch {
    return false;
  }
}
