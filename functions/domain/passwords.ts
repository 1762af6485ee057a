import { randomBytes } from "node:crypto";
import { TaskPool } from "../adapters/worker-threads.js";
import { runPasswordTask, type PasswordTask } from "./passwords-work.js";

/**
 * Password hashing. argon2id is deliberately expensive (about 50 ms of CPU and 19 MiB each), so
 * a server that answers many requests at once must not run it on its request loop: the embedded
 * stack hands it to worker threads (`usePasswordWorkers`). A Lambda container serves one request
 * at a time, so there it runs inline and stalls nobody.
 */
let pool: TaskPool<PasswordTask, string | boolean> | undefined;
let users = 0;

/** Moves hashing to worker threads until every user has released it (several stacks may share a process in tests). */
export function usePasswordWorkers(size = 2): () => Promise<void> {
  users++;
  pool ??= new TaskPool(
    { ts: new URL("./passwords-worker.ts", import.meta.url), js: new URL("./passwords-worker.js", import.meta.url) },
    import.meta.url,
    size,
  );
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    if (--users > 0) return;
    const p = pool;
    pool = undefined;
    await p?.close();
  };
}

/** True when hashing runs off the calling thread (for tests and the README's claim). */
export const passwordWorkersActive = () => pool !== undefined;

const run = (t: PasswordTask) => (pool ? pool.run(t) : runPasswordTask(t));

export async function hashPassword(password: string): Promise<string> {
  return (await run({ op: "hash", password, salt: new Uint8Array(randomBytes(16)) })) as string;
}

export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  return (await run({ op: "verify", password, encoded })) === true;
}

/** A hash to verify against when the account does not exist, so timing does not reveal which e-mails are registered. */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(12).toString("hex"));
  return decoy;
}
