import { randomBytes } from "node:crypto";
import { runCpu } from "../offload/index.js";

/**
 * Password hashing. argon2id is deliberately expensive (about 50-90 ms of CPU and 19 MiB each),
 * so it runs through the offload module: in worker threads on the embedded server, inline in a
 * Lambda container that serves one request at a time.
 */
export async function hashPassword(password: string): Promise<string> {
  return (await runCpu("password", { op: "hash", password, salt: new Uint8Array(randomBytes(16)) })) as string;
}

export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  return (await runCpu("password", { op: "verify", password, encoded })) === true;
}

/** A hash to verify against when the account does not exist, so timing does not reveal which e-mails are registered. */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(12).toString("hex"));
  return decoy;
}
