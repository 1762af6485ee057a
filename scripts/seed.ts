import "./lib/quiet.js";
import { parseArgs } from "node:util";
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { config, type Config } from "../functions/platform/config.js";
import { createContext } from "../functions/platform/context.js";
import { createLogger } from "../functions/platform/adapters/log.js";
import { seedUser } from "../functions/handlers/seed/index.js";
import { isTierId, TIER_IDS } from "../functions/platform/domain/tiers.js";
import { ApiError } from "../functions/platform/http/errors.js";
import { acquireLock, readLiveLock } from "../infra/local/lock.js";
import { startEmbedded } from "../infra/local/stack.js";
import type { WorkflowStarter } from "../functions/platform/adapters/workflows.js";

/**
 * `npm run seed -- --email E --tier T [--password P] [--server-admin]`: a user with a workspace on
 * tier T (with --server-admin, one who administers the server: plans, notifications, feedback).
 * Prints one JSON line. When the product runs on this DATA_DIR it goes through that running
 * stack's DynamoDB and S3 (their files are locked by it); otherwise it opens the data itself.
 */
const usage = `usage: npm run seed -- --email E --tier ${TIER_IDS.join("|")} [--password P] [--server-admin]`;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

const { values } = parseArgs({ options: { email: { type: "string" }, tier: { type: "string" }, password: { type: "string" }, "server-admin": { type: "boolean" } }, strict: true });
if (!values.email || !values.tier) fail(usage);
if (!isTierId(values.tier)) fail(`Unknown tier "${values.tier}". ${usage}`);
const tier = values.tier;

const cfg: Config = config();
const dataDir = resolve(cfg.dataDir);
process.umask(0o077);
mkdirSync(dataDir, { recursive: true, mode: 0o700 });
const silent = createLogger("error");

async function run() {
  const live = readLiveLock(dataDir);
  if (live?.dynamo && live.s3 && live.key) {
    const noWorkflows: WorkflowStarter = {
      start: () => Promise.reject(new Error("seeding starts no workflows")),
    };
    const ctx = createContext(
      { ...cfg, mode: "embedded", aws: { ...cfg.aws, dynamoEndpoint: live.dynamo, s3Endpoint: live.s3, emulatorKey: live.key } },
      // The session secret is only used to sign web sessions; seeding creates none.
      { workflows: noWorkflows, sessionSecret: "unused-by-seeding", log: silent },
    );
    try {
      return await seedUser(ctx, { email: values.email!, tier, password: values.password, serverAdmin: values["server-admin"] });
    } finally {
      ctx.aws.ddb.destroy();
      ctx.aws.s3.destroy();
    }
  }
  const lock = acquireLock(dataDir);
  const stack = await startEmbedded({ config: { ...cfg, port: 0 }, persist: true, web: false, log: silent });
  try {
    return await seedUser(stack.ctx, { email: values.email!, tier, password: values.password, serverAdmin: values["server-admin"] });
  } finally {
    await stack.close();
    lock.release();
  }
}

run()
  .then((r) => {
    const line: Record<string, string> = { user_id: r.user_id, workspace_id: r.workspace_id, api_key: r.api_key };
    if (r.password) line.password = r.password;
    process.stdout.write(JSON.stringify(line) + "\n");
    process.exit(0);
  })
  .catch((e: unknown) => {
    if (e instanceof ApiError) fail(e.message);
    if (e && typeof e === "object" && "issues" in e) fail(`Invalid input: ${(e as { issues: Array<{ message: string }> }).issues.map((i) => i.message).join("; ")}`);
    fail(e instanceof Error ? e.message : String(e));
  });
