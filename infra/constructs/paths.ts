import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

/** The repository root: NodejsFunction bundles from here with the root package-lock.json. */
export const ROOT = resolve(import.meta.dirname, "..", "..");
export const LOCK_FILE = join(ROOT, "package-lock.json");

/** Lambda entry points (functions/handlers/lambda/*.ts). */
export const LAMBDA_ENTRY = {
  api: join(ROOT, "functions", "handlers", "lambda", "api.ts"),
  web: join(ROOT, "functions", "handlers", "lambda", "web.ts"),
  steps: join(ROOT, "functions", "handlers", "lambda", "steps.ts"),
  seed: join(ROOT, "functions", "handlers", "lambda", "seed.ts"),
  live: join(ROOT, "functions", "handlers", "lambda", "live.ts"),
  assistant: join(ROOT, "functions", "handlers", "lambda", "assistant.ts"),
} as const;

/** Stands in for the Remix server build when `npm run build` has not run (see docs/decisions). */
export const MISSING_WEB_BUILD = join(ROOT, "functions", "handlers", "lambda", "web-build-missing.ts");

/** What `npm run build` produces: the Remix server build and the static client files. */
export interface WebBuild {
  dir: string;
  /** build/web/server/index.js, when it exists. */
  server: string | undefined;
  /** build/web/client, when it exists. */
  client: string | undefined;
}

export function findWebBuild(dir = join(ROOT, "build", "web")): WebBuild {
  const server = join(dir, "server", "index.js");
  const client = join(dir, "client");
  return { dir, server: existsSync(server) ? server : undefined, client: existsSync(client) ? client : undefined };
}
