import { parseRemoteEngines, type RemoteEngineConfig } from "../media/engine/remote/config.js";
import { literalHostRefused, type TargetPolicy } from "./net/addresses.js";
import { z } from "zod";
import { parseTrustProxy, TrustProxyError, type TrustProxy } from "./http/client-address.js";

/**
 * The one reader of the environment. Everything else receives a typed Config.
 * Parsed once; a bad value fails fast with a message naming the variable.
 */
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));

const bool = (fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "") return fallback;
      if (/^(1|true|yes|on)$/i.test(v)) return true;
      if (/^(0|false|no|off)$/i.test(v)) return false;
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: "must be true or false" });
      return z.NEVER;
    });

const EnvSchema = z.object({
  TIMBRE_MODE: z.enum(["embedded", "localstack", "aws"]).default("embedded"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("127.0.0.1"),
  PUBLIC_URL: optionalString,
  DATA_DIR: z.string().default("./.data"),
  /** Piper voices (NAME.onnx + NAME.onnx.json) loaded at start-up; default DATA_DIR/voices/piper. */
  PIPER_VOICES_DIR: optionalString,
  /** Remote speech servers, a JSON array (README "Remote engines"). */
  REMOTE_ENGINES: optionalString,
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),

  DEMO_PASSWORD: optionalString.refine((v) => v === undefined || v.length >= 8, "must be at least 8 characters"),
  DEMO_API_KEY: optionalString.refine((v) => v === undefined || v.length >= 20, "must be at least 20 characters"),
  SESSION_SECRET: optionalString.refine((v) => v === undefined || v.length >= 32, "must be at least 32 characters"),
  /** On AWS the session secret lives in Secrets Manager; the Lambda entries read it once per container. */
  SESSION_SECRET_ARN: optionalString.refine((v) => v === undefined || v.startsWith("arn:"), "must be a Secrets Manager ARN"),
  /** On AWS: a Secrets Manager secret holding the operator's secret settings as JSON (operatorSettings.ts), read at cold start. */
  OPERATOR_SECRETS_ARN: optionalString.refine((v) => v === undefined || v.startsWith("arn:"), "must be a Secrets Manager ARN"),
  /** On AWS: the secret CloudFront adds to every origin request, proving the viewer headers it set. */
  EDGE_SECRET_ARN: optionalString.refine((v) => v === undefined || v.startsWith("arn:"), "must be a Secrets Manager ARN"),
  /** Base URL of /v1 as the web server reaches it (on AWS the API function URL, not CloudFront). */
  API_INTERNAL_URL: optionalString.refine((v) => v === undefined || /^https?:\/\/[^/]/.test(v), "must be an http(s) URL"),
  /**
   * On AWS: the live reading websocket (API Gateway's wss:// stage URL); unset means this origin's
   * stream-input path. Plain ws:// only on loopback (a local stand-in for API Gateway in tests).
   */
  LIVE_READING_URL: optionalString.refine(
    (v) => v === undefined || /^wss:\/\/[^/]/.test(v) || /^ws:\/\/(127\.0\.0\.1|localhost)(:\d+)?\//.test(v),
    "must be a wss:// URL (ws:// only on loopback)",
  ),
  /** On AWS: the support assistant's websocket (API Gateway's wss:// stage URL); unset means this origin's /v1/assistant/stream-input. */
  ASSISTANT_SOCKET_URL: optionalString.refine(
    (v) => v === undefined || /^wss:\/\/[^/]/.test(v) || /^ws:\/\/(127\.0\.0\.1|localhost)(:\d+)?\//.test(v),
    "must be a wss:// URL (ws:// only on loopback)",
  ),
  /**
   * How often the PVC recorder backs up a recording in progress, in seconds (the spec's 30 by
   * default; the recorder's browser test sets a few seconds, so it waits for two short backups).
   */
  PVC_RECORDING_BACKUP_SECONDS: z.coerce.number().int().min(1).max(300).default(30),

  AWS_REGION: z.string().default("us-east-1"),
  TABLE_MAIN: z.string().default("timbre-main"),
  TABLE_HISTORY: z.string().default("timbre-history"),
  TABLE_LEDGER: z.string().default("timbre-ledger"),
  TABLE_LIBRARY: z.string().default("timbre-library"),
  BUCKET: z.string().default("timbre-data"),
  STATE_MACHINES: optionalString,
  DYNAMODB_ENDPOINT: optionalString,
  S3_ENDPOINT: optionalString,
  SFN_ENDPOINT: optionalString,
  LOCALSTACK_ENDPOINT: z.string().default("http://localhost:4566"),

  /** Reverse proxies whose X-Forwarded-For is believed: a hop count or a comma list of addresses/CIDRs. */
  TRUST_PROXY: z.string().default(""),
  /** Largest request body the embedded front reads, in MB. */
  MAX_BODY_MB: z.coerce.number().int().min(1).max(1024).default(60),
  /** A request (headers and body) must arrive within this many seconds. */
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(3600).default(120),
  /** Open connections allowed from one client address at a time. */
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(64),

  /** Outgoing mail (invites): smtp://user:pass@host:587 or smtps://…:465; unset sends none. */
  SMTP_URL: optionalString.refine((v) => v === undefined || /^smtps?:\/\/[^/]/.test(v), "must be an smtp:// or smtps:// URL"),
  MAIL_FROM: z.string().default("Timbre <no-reply@timbre.local>"),
  /** Users (comma list of e-mails) who administer the server: plans, notifications, feedback. */
  SERVER_ADMIN_EMAILS: z.string().default(""),
  /** Deliver webhooks to private, loopback and link-local addresses (after DNS resolution). */
  WEBHOOK_ALLOW_PRIVATE: bool(false),
  /**
   * Deliver webhooks to loopback addresses (a receiver on this machine: 127.0.0.0/8, ::1, and
   * names resolving to them). Off by default in every mode: any member can add a webhook.
   */
  WEBHOOK_ALLOW_LOCAL_TARGETS: bool(false),
  /** Delay before the first retry of a failed webhook delivery; later retries grow from it. */
  WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().int().min(1).max(60).default(30),
  /** `serial` encodes a request's chunks in order on one engine worker (the design before issue 14; the bench's baseline). */
  ENGINE_ENCODING: z.enum(["parallel", "serial"]).default("parallel"),

  /** The support assistant's model: an OpenAI-compatible chat-completions server with tool calling; unset uses the built-in offline assistant. */
  ASSISTANT_LLM_URL: optionalString.refine((v) => v === undefined || /^https?:\/\/[^/]/.test(v), "must be an http(s) URL"),
  ASSISTANT_LLM_API_KEY: optionalString,
  ASSISTANT_LLM_MODEL: z.string().default("gpt-4o-mini"),
  ASSISTANT_LLM_MAX_TOKENS: z.coerce.number().int().min(16).max(4096).default(300),
  ASSISTANT_LLM_MAX_TOOL_ROUNDS: z.coerce.number().int().min(1).max(8).default(3),
  ASSISTANT_LLM_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(120).default(20),
  /** Speech in for the assistant: an OpenAI-compatible transcription server (/v1/audio/transcriptions); unset: the browser's recognition and typing. */
  ASSISTANT_TRANSCRIPTION_URL: optionalString.refine((v) => v === undefined || /^https?:\/\/[^/]/.test(v), "must be an http(s) URL"),
  ASSISTANT_TRANSCRIPTION_API_KEY: optionalString,
  ASSISTANT_TRANSCRIPTION_MODEL: z.string().default("whisper-1"),

  FEATURE_FLAGS: z.string().default(""),
  SIGNUP_ENABLED: bool(true),
  SECURE_COOKIES: bool(false),
});

export type Mode = "embedded" | "localstack" | "aws";

export interface Config {
  mode: Mode;
  port: number;
  host: string;
  publicUrl: string | undefined;
  dataDir: string;
  /** Where the embedded server loads Piper voices from. */
  piperVoicesDir: string;
  /** REMOTE_ENGINES: remote speech servers as JSON (media/engine/remote/config.ts); "" for none. */
  remoteEngines: string;
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  demoPassword: string | undefined;
  demoApiKey: string | undefined;
  sessionSecret: string | undefined;
  /** Where to read the session secret when SESSION_SECRET is not set (aws mode). */
  sessionSecretArn: string | undefined;
  /** Where to read the CloudFront origin secret (aws mode); without it no viewer header is trusted. */
  edgeSecretArn: string | undefined;
  /** OPERATOR_SECRETS_ARN: the operator's secret settings on AWS (operatorSettings.ts). */
  operatorSecretsArn: string | undefined;
  /** Base URL of /v1 for the web server when it is not on the same process (aws mode). */
  apiInternalUrl: string | undefined;
  /** Where the recorder opens the live reading websocket, when not on the page's own origin (aws mode). */
  liveReadingUrl: string | undefined;
  /** Where the call card opens the assistant's websocket, when not on the page's own origin (aws mode). */
  assistantSocketUrl: string | undefined;
  /** The PVC recorder's backup interval, in milliseconds (the root loader gives it to the page). */
  recordingBackupMs: number;
  aws: {
    region: string;
    tables: { main: string; history: string; ledger: string; library: string };
    bucket: string;
    /** JSON map of workflow name -> state machine ARN (aws/localstack modes). */
    stateMachines: Record<string, string>;
    dynamoEndpoint: string | undefined;
    s3Endpoint: string | undefined;
    sfnEndpoint: string | undefined;
    /**
     * The embedded emulators' per-run key: every request to them must carry it (they check no
     * signatures themselves). Set by the embedded stack, never from the environment.
     */
    emulatorKey?: string;
  };
  /** How the embedded front finds the client's address behind reverse proxies. */
  trustProxy: TrustProxy;
  limits: { maxBodyBytes: number; requestTimeoutMs: number; maxConnectionsPerAddress: number };
  /** The support assistant's model and transcription servers (unset: offline assistant, browser recognition and typing). */
  assistant: {
    llm: { url: string; apiKey: string | undefined; model: string; maxTokens: number; maxToolRounds: number; timeoutMs: number } | undefined;
    transcription: { url: string; apiKey: string | undefined; model: string } | undefined;
  };
  /** Flags switched on for every workspace; workspaces may override per flag. */
  featureFlags: Record<string, boolean>;
  signupEnabled: boolean;
  secureCookies: boolean;
  mail: { smtpUrl: string | undefined; from: string };
  /** Lower-cased e-mails of the server's administrators. */
  serverAdminEmails: string[];
  webhooks: {
    /** Private and link-local targets allowed (WEBHOOK_ALLOW_PRIVATE). */
    allowPrivate: boolean;
    /** Loopback targets allowed: WEBHOOK_ALLOW_LOCAL_TARGETS (a developer's localhost receiver), or with allowPrivate. */
    allowLoopback: boolean;
    /** Plain http targets allowed (everywhere but AWS). */
    allowHttp: boolean;
    retryBaseSeconds: number;
  };
  /** How the embedded engine encodes a request's chunks: on the workers that made them, or in order on one. */
  engineEncoding: "parallel" | "serial";
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

/**
 * REMOTE_ENGINES stops the start with its reason when an entry is broken or names a loopback,
 * private or link-local address the webhook target settings do not allow (the same rule as webhook
 * targets; host names are checked again after DNS resolution at each request: platform/net/fetch.ts).
 */
function checkRemoteEngines(json: string | undefined, p: TargetPolicy): void {
  let engines: RemoteEngineConfig[];
  try {
    engines = parseRemoteEngines(json);
  } catch (err) {
    throw new ConfigError(`Invalid configuration: ${(err as Error).message}`);
  }
  for (const r of engines) {
    const refused = literalHostRefused(new URL(r.url), p);
    if (refused)
      throw new ConfigError(
        `Invalid configuration: REMOTE_ENGINES: the engine "${r.id}" points to a ${refused} address (${new URL(r.url).hostname}). Remote engines may reach loopback addresses only with WEBHOOK_ALLOW_LOCAL_TARGETS=true, private and link-local ones only with WEBHOOK_ALLOW_PRIVATE=true.`,
      );
  }
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new ConfigError(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  let stateMachines: Record<string, string> = {};
  if (e.STATE_MACHINES) {
    try {
      stateMachines = z.record(z.string()).parse(JSON.parse(e.STATE_MACHINES));
    } catch {
      throw new ConfigError("Invalid configuration: STATE_MACHINES: must be a JSON object of name -> ARN");
    }
  }
  let trustProxy: TrustProxy;
  try {
    trustProxy = parseTrustProxy(e.TRUST_PROXY);
  } catch (err) {
    if (err instanceof TrustProxyError) throw new ConfigError(`Invalid configuration: TRUST_PROXY: ${err.message}`);
    throw err;
  }
  const localstack = e.TIMBRE_MODE === "localstack" ? e.LOCALSTACK_ENDPOINT : undefined;
  const targets = { allowPrivate: e.WEBHOOK_ALLOW_PRIVATE, allowLoopback: e.WEBHOOK_ALLOW_PRIVATE || e.WEBHOOK_ALLOW_LOCAL_TARGETS, allowHttp: e.TIMBRE_MODE !== "aws" };
  checkRemoteEngines(e.REMOTE_ENGINES, targets);
  return {
    mode: e.TIMBRE_MODE,
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL,
    dataDir: e.DATA_DIR,
    piperVoicesDir: e.PIPER_VOICES_DIR ?? `${e.DATA_DIR.replace(/\/+$/, "")}/voices/piper`,
    remoteEngines: e.REMOTE_ENGINES ?? "",
    logLevel: e.LOG_LEVEL,
    demoPassword: e.DEMO_PASSWORD,
    demoApiKey: e.DEMO_API_KEY,
    sessionSecret: e.SESSION_SECRET,
    sessionSecretArn: e.SESSION_SECRET_ARN,
    edgeSecretArn: e.EDGE_SECRET_ARN,
    operatorSecretsArn: e.OPERATOR_SECRETS_ARN,
    apiInternalUrl: e.API_INTERNAL_URL?.replace(/\/+$/, ""),
    liveReadingUrl: e.LIVE_READING_URL,
    assistantSocketUrl: e.ASSISTANT_SOCKET_URL,
    recordingBackupMs: e.PVC_RECORDING_BACKUP_SECONDS * 1000,
    aws: {
      region: e.AWS_REGION,
      tables: { main: e.TABLE_MAIN, history: e.TABLE_HISTORY, ledger: e.TABLE_LEDGER, library: e.TABLE_LIBRARY },
      bucket: e.BUCKET,
      stateMachines,
      dynamoEndpoint: e.DYNAMODB_ENDPOINT ?? localstack,
      s3Endpoint: e.S3_ENDPOINT ?? localstack,
      sfnEndpoint: e.SFN_ENDPOINT ?? localstack,
    },
    trustProxy,
    limits: {
      maxBodyBytes: e.MAX_BODY_MB * 1024 * 1024,
      requestTimeoutMs: e.REQUEST_TIMEOUT_SECONDS * 1000,
      maxConnectionsPerAddress: e.MAX_CONNECTIONS_PER_ADDRESS,
    },
    assistant: {
      llm: e.ASSISTANT_LLM_URL
        ? {
            url: e.ASSISTANT_LLM_URL.replace(/\/+$/, "").replace(/\/v1$/, ""), apiKey: e.ASSISTANT_LLM_API_KEY, model: e.ASSISTANT_LLM_MODEL,
            maxTokens: e.ASSISTANT_LLM_MAX_TOKENS, maxToolRounds: e.ASSISTANT_LLM_MAX_TOOL_ROUNDS, timeoutMs: e.ASSISTANT_LLM_TIMEOUT_SECONDS * 1000,
          }
        : undefined,
      transcription: e.ASSISTANT_TRANSCRIPTION_URL
        ? { url: e.ASSISTANT_TRANSCRIPTION_URL.replace(/\/+$/, "").replace(/\/v1$/, ""), apiKey: e.ASSISTANT_TRANSCRIPTION_API_KEY, model: e.ASSISTANT_TRANSCRIPTION_MODEL }
        : undefined,
    },
    featureFlags: parseFlags(e.FEATURE_FLAGS),
    signupEnabled: e.SIGNUP_ENABLED,
    secureCookies: e.SECURE_COOKIES,
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM },
    serverAdminEmails: e.SERVER_ADMIN_EMAILS.split(",").map((x) => x.trim().toLowerCase()).filter(Boolean),
    webhooks: {
      ...targets,
      retryBaseSeconds: e.WEBHOOK_RETRY_BASE_SECONDS,
    },
    engineEncoding: e.ENGINE_ENCODING,
  };
}

/** "dark-mode,speech-to-text-ui,-productions" -> { "dark-mode": true, ..., productions: false } */
export function parseFlags(list: string): Record<string, boolean> {
  const flags: Record<string, boolean> = {};
  for (const raw of list.split(",")) {
    const name = raw.trim();
    if (!name) continue;
    if (name.startsWith("-")) flags[name.slice(1)] = false;
    else flags[name] = true;
  }
  return flags;
}

let cached: Config | undefined;

/** The process-wide configuration, read from the environment once. */
export function config(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

/** Tests and the embedded launcher set the configuration explicitly. */
export function setConfig(next: Config): void {
  cached = next;
}
