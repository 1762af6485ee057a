import { resolve, sep } from "node:path";

/** Structured JSON logs, one line each, carrying the request id when there is one. */
export type Level = "debug" | "info" | "warn" | "error";
const ORDER: Record<Level | "silent", number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

/** The project folder (or the Lambda bundle's), whose absolute path stays out of the logs. */
const here = import.meta.dirname ?? "";
const ROOT = /[\\/]functions[\\/]platform[\\/]adapters$/.test(here) ? resolve(here, "..", "..", "..") : process.cwd();

/** A stack trace with paths relative to the project: where the code is, not where it is installed. */
export function relativeStack(stack: string | undefined, root = ROOT): string | undefined {
  if (!stack || root.length <= 1) return stack;
  const prefix = root.endsWith(sep) ? root : root + sep;
  return stack.split(`file://${prefix}`).join("").split(prefix).join("");
}

export function createLogger(level: Level | "silent", base: Record<string, unknown> = {}, sink: (line: string) => void = (l) => process.stdout.write(l + "\n")): Logger {
  const min = ORDER[level];
  const emit = (lvl: Level, msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[lvl] < min) return;
    const extra: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(fields ?? {})) extra[k] = v instanceof Error ? { name: v.name, message: v.message, stack: relativeStack(v.stack) } : v;
    sink(JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...base, ...extra }));
  };
  return {
    debug: (m, f) => emit("debug", m, f),
    info: (m, f) => emit("info", m, f),
    warn: (m, f) => emit("warn", m, f),
    error: (m, f) => emit("error", m, f),
    child: (fields) => createLogger(level, { ...base, ...fields }, sink),
  };
}
