import { randomBytes } from "node:crypto";
import { isIP } from "node:net";
import { config, ConfigError, parseConfig, setConfig, type Config } from "../../platform/config.js";
import { withOperatorSecrets } from "../../platform/operatorSettings.js";
import { createContext, type AppContext } from "../../platform/context.js";
import { StepFunctionsStarter, type WorkflowStarter } from "../../platform/adapters/workflows.js";
import type { FunctionUrlEvent } from "../../platform/http/lambda.js";
import { EDGE_PROOF_HEADER, VIEWER_IP_HEADER } from "./edge-headers.js";
import { readSecretString } from "../../platform/adapters/secrets.js";
import { safeEqual } from "../../platform/adapters/ids.js";
// Plugs the CPU tasks into runCpu (inline: a Lambda container serves one request at a time).
import "../offload/index.js";


export interface BootOptions {
  /** "required": the function signs or verifies sessions; "none": it signs nothing (steps, seeding). */
  sessionSecret: "required" | "none";
}

export interface Booted {
  ctx: AppContext;
  /** The CloudFront origin secret, when this function sits behind the distribution. */
  edgeSecret: string | undefined;
}

async function resolveSessionSecret(cfg: Config, need: BootOptions["sessionSecret"]): Promise<string> {
  if (cfg.sessionSecret) return cfg.sessionSecret;
  if (cfg.sessionSecretArn) return readSecretString(cfg.aws.region, cfg.sessionSecretArn, "SESSION_SECRET_ARN");
  if (need === "required") throw new ConfigError("Invalid configuration: SESSION_SECRET_ARN: required (or SESSION_SECRET)");
  // A throwaway secret: nothing such a function could sign would verify anywhere else.
  return randomBytes(32).toString("base64url");
}

/**
 * The configuration with the operator's secret settings (OPERATOR_SECRETS_ARN: keys, REMOTE_ENGINES)
 * read once at cold start and checked as any setting is; the process-wide configuration becomes it.
 */
export async function withSecretSettings(
  cfg: Config,
  read: (region: string, arn: string) => Promise<string> = (region, arn) => readSecretString(region, arn, "OPERATOR_SECRETS_ARN"),
  env: Record<string, string | undefined> = process.env,
): Promise<Config> {
  if (!cfg.operatorSecretsArn) return cfg;
  let merged: Record<string, string | undefined>;
  try {
    merged = withOperatorSecrets(env, await read(cfg.aws.region, cfg.operatorSecretsArn));
  } catch (e) {
    throw new ConfigError(`Invalid configuration: ${e instanceof Error ? e.message : String(e)}`);
  }
  const next = parseConfig(merged);
  setConfig(next);
  return next;
}

const notStarted: WorkflowStarter = {
  start: () => Promise.reject(new Error("workflow starter used before the context was built")),
};

/** The AppContext of one Lambda container: configuration from the environment, secrets, Step Functions. */
export async function bootContext(opts: BootOptions): Promise<Booted> {
  const cfg = await withSecretSettings(config());
  const [sessionSecret, edgeSecret] = await Promise.all([
    resolveSessionSecret(cfg, opts.sessionSecret),
    cfg.edgeSecretArn ? readSecretString(cfg.aws.region, cfg.edgeSecretArn, "EDGE_SECRET_ARN") : undefined,
  ]);
  const ctx = createContext(cfg, { workflows: notStarted, sessionSecret });
  ctx.workflows = new StepFunctionsStarter(ctx.aws.sfn, cfg.aws.stateMachines);
  return { ctx, edgeSecret };
}

/**
 * Behind CloudFront the Function URL sees an edge server as the caller. When the request carries
 * CloudFront's origin secret, the viewer address CloudFront recorded replaces it (sign-in limits
 * count per address); otherwise nothing a caller sent is trusted. The proof never reaches the app,
 * and the scheme is https: Function URLs and the distribution accept nothing else.
 */
export function fromEdge(event: FunctionUrlEvent, edgeSecret: string | undefined): FunctionUrlEvent {
  const { [EDGE_PROOF_HEADER]: proof, [VIEWER_IP_HEADER]: viewerIp, ...headers } = event.headers;
  const trusted = edgeSecret !== undefined && proof !== undefined && safeEqual(proof, edgeSecret);
  const sourceIp = trusted && viewerIp && isIP(viewerIp) ? viewerIp : event.requestContext.http.sourceIp;
  return {
    ...event,
    headers: { ...headers, "x-forwarded-proto": "https" },
    requestContext: { ...event.requestContext, http: { ...event.requestContext.http, sourceIp } },
  };
}
