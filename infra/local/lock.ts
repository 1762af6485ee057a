import { closeSync, existsSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";

/**
 * One running stack per data folder. The lock file also tells `npm run seed` where the
 * running stack's DynamoDB and S3 listen (their LevelDB and files are held by that process).
 */
export interface LockInfo {
  pid: number;
  url: string | null;
  dynamo: string | null;
  s3: string | null;
  /** The emulators' per-run key (emulators.ts); the file is 0600 in a 0700 folder. */
  key?: string | null;
  started_at: string;
}

export const lockPath = (dataDir: string) => join(dataDir, "timbre.lock");

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The lock of a live process on this folder, if any (a stale lock from a crash reads as none). */
export function readLiveLock(dataDir: string): LockInfo | undefined {
  const file = lockPath(dataDir);
  if (!existsSync(file)) return undefined;
  try {
    const info = JSON.parse(readFileSync(file, "utf8")) as LockInfo;
    return info.pid !== process.pid && alive(info.pid) ? info : undefined;
  } catch {
    return undefined;
  }
}

export class AlreadyRunningError extends Error {
  override name = "AlreadyRunningError";
}

export interface Lock {
  update(info: Partial<LockInfo>): void;
  release(): void;
}

export function acquireLock(dataDir: string): Lock {
  const file = lockPath(dataDir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx", 0o600);
      let info: LockInfo = { pid: process.pid, url: null, dynamo: null, s3: null, started_at: new Date().toISOString() };
      writeSync(fd, JSON.stringify(info));
      closeSync(fd);
      let released = false;
      return {
        update(patch) {
          info = { ...info, ...patch };
          const f = openSync(file, "w", 0o600);
          writeSync(f, JSON.stringify(info));
          closeSync(f);
        },
        release() {
          if (released) return;
          released = true;
          rmSync(file, { force: true });
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const live = readLiveLock(dataDir);
      if (live) {
        throw new AlreadyRunningError(
          `Timbre is already running on ${dataDir} (pid ${live.pid}${live.url ? `, ${live.url}` : ""}). ` +
            `Stop it first, or start another copy with a different DATA_DIR.`,
        );
      }
      rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  throw new AlreadyRunningError(`Could not take the lock ${file}`);
}
