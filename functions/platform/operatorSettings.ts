import { parseConfig } from "./config.js";

/**
 * The settings an operator gives a deployment on AWS, where there is no shell environment to set:
 * plain ones as CDK context (`-c operatorSettings='{"ASSISTANT_LLM_URL":"https://…"}'`), passed to
 * the functions as environment variables; secret ones (keys, and REMOTE_ENGINES, which holds keys)
 * in a Secrets Manager secret of the operator's (`-c operatorSecretsArn=arn:…`), a JSON object read
 * by the functions at cold start (OPERATOR_SECRETS_ARN) and never written into the template.
 * Each name means what it means under `npm start` (README, Configuration).
 */
export const OPERATOR_SETTINGS = [
  "ASSISTANT_LLM_URL",
  "ASSISTANT_LLM_MODEL",
  "ASSISTANT_LLM_MAX_TOKENS",
  "ASSISTANT_LLM_MAX_TOOL_ROUNDS",
  "ASSISTANT_LLM_TIMEOUT_SECONDS",
  "ASSISTANT_TRANSCRIPTION_URL",
  "ASSISTANT_TRANSCRIPTION_MODEL",
  "WEBHOOK_ALLOW_PRIVATE",
] as const;
export const OPERATOR_SECRETS = ["ASSISTANT_LLM_API_KEY", "ASSISTANT_TRANSCRIPTION_API_KEY", "REMOTE_ENGINES"] as const;

type Names = readonly string[];

/** A JSON object of string values whose keys are all in `allowed`; the error names keys, never values. */
function settingsObject(x: unknown, allowed: Names, what: string): Record<string, string> {
  if (typeof x !== "object" || x === null || Array.isArray(x)) throw new Error(`${what}: expected a JSON object of settings`);
  const out: Record<string, string> = {};
  const unknown: string[] = [];
  for (const [k, v] of Object.entries(x)) {
    if (!allowed.includes(k)) unknown.push(k);
    else if (typeof v === "string") out[k] = v;
    else if (typeof v === "number" || typeof v === "boolean") out[k] = String(v);
    else throw new Error(`${what}: ${k} must be a string`);
  }
  if (unknown.length) throw new Error(`${what}: unknown setting${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")} (allowed: ${allowed.join(", ")})`);
  return out;
}

/** The plain settings, checked as the product checks them (at synth, so a bad URL never deploys). */
export function checkOperatorSettings(x: unknown): Record<string, string> {
  const parsed = typeof x === "string" ? parseJson(x, "operatorSettings") : x;
  const settings = settingsObject(parsed, OPERATOR_SETTINGS, "operatorSettings");
  parseConfig({ ...settings });
  return settings;
}

/** The environment with the secret's settings added (cold start on AWS), the secret's shape checked; values never in an error. */
export function withOperatorSecrets(env: Record<string, string | undefined>, secretString: string): Record<string, string | undefined> {
  return { ...env, ...settingsObject(parseJson(secretString, "OPERATOR_SECRETS_ARN"), OPERATOR_SECRETS, "OPERATOR_SECRETS_ARN") };
}

function parseJson(s: string, what: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    throw new Error(`${what}: not valid JSON`);
  }
}
