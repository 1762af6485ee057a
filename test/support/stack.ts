import { randomBytes } from "node:crypto";
import { argon2id } from "hash-wasm";
import { parseConfig, type Config } from "../../functions/platform/config.js";
import type { Logger } from "../../functions/platform/adapters/log.js";
import { startEmbedded, type EmbeddedStack } from "../../infra/local/stack.js";
import type { FrontLimits } from "../../infra/local/front.js";
import { createAccount, createApiKey } from "../../functions/platform/domain/accounts.js";
import { TIERS, type TierId } from "../../functions/platform/domain/tiers.js";
import { newId } from "../../functions/platform/adapters/ids.js";
import { blankFineTuning, blankVerification, type VoiceRecord } from "../../functions/platform/stores/voices.js";
import { createVoice } from "../../functions/capabilities/voices/records.js";

/**
 * A fresh in-memory embedded stack on a random port; close it in afterAll. Its system data comes
 * from the run's snapshot (test/support/global-setup.ts) once a stack of the run has seeded it.
 */
export async function startTestStack(
  opts: { env?: Record<string, string>; web?: boolean; now?: () => number; previews?: boolean; frontLimits?: Partial<FrontLimits>; scheduleMs?: number; challengeSeed?: number; log?: Logger } = {},
): Promise<EmbeddedStack> {
  const config: Config = parseConfig({ PORT: "0", LOG_LEVEL: "warn", ...opts.env });
  return startEmbedded({
    config,
    persist: false,
    web: opts.web ?? false,
    seedDemo: false,
    workflowWaitMs: 0,
    now: opts.now,
    log: opts.log,
    previews: opts.previews,
    frontLimits: opts.frontLimits,
    // Tests that need the webhook schedule ask for it; the others drive dispatch themselves.
    scheduleMs: opts.scheduleMs ?? 0,
    // The same verification sentences on every run: whether a test's reading passes must not
    // depend on the words it drew (the rates over many sentences are the calibration's to measure).
    challengeSeed: opts.challengeSeed ?? 1,
    // Set by test/support/wiring.ts in a test run; scripts that start a test stack seed it.
    systemSnapshots: process.env.TIMBRE_TEST_SYSTEM_SNAPSHOTS || undefined,
  });
}

let counter = 0;

const cheapHashes = new Map<string, Promise<string>>();
/**
 * An argon2id hash of `password` with the cheapest parameters (1 pass, 64 KiB) for the accounts the
 * test support creates straight through the domain, made once per password and process: the
 * product's parameters (19 MiB, 2 passes: about 50-90 ms of CPU per hash and per sign-in) test
 * nothing here that test/account's sign-up and sign-in tests do not, and a suite creates thousands
 * of these accounts. Sign-in verifies it as any argon2id hash (the parameters are in the hash).
 * Accounts made through the API or the pages still get the product's hashing.
 */
export function testPasswordHash(password: string): Promise<string> {
  let hash = cheapHashes.get(password);
  if (!hash) {
    hash = argon2id({ password, salt: new Uint8Array(randomBytes(16)), parallelism: 1, iterations: 1, memorySize: 64, hashLength: 32, outputType: "encoded" });
    cheapHashes.set(password, hash);
  }
  return hash;
}

/** createAccount with testPasswordHash's hash (what the test support's accounts use). */
export async function createTestUser(stack: EmbeddedStack, input: Omit<Parameters<typeof createAccount>[1], "passwordHash">) {
  return createAccount(stack.ctx, { ...input, passwordHash: await testPasswordHash(input.password) });
}

/** A user with its own workspace and an API key, straight through the domain. */
export async function createTestAccount(stack: EmbeddedStack, tier: TierId = "free", password = "correct horse battery") {
  const email = `user${Date.now()}-${++counter}-${Math.random().toString(36).slice(2, 8)}@example.test`;
  const { user, workspace } = await createTestUser(stack, { email, password, tier });
  const { value } = await createApiKey(stack.ctx, { workspaceId: workspace.workspace_id, userId: user.user_id, name: "test" });
  return { email, password, user, workspace, apiKey: value };
}

/** fetch against the stack with an API key. */
export function apiFetch(stack: EmbeddedStack, apiKey: string | undefined, path: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  if (apiKey) headers.set("xi-api-key", apiKey);
  if (init.body && typeof init.body === "string" && !headers.has("content-type")) headers.set("content-type", "application/json");
  return fetch(new URL(path, stack.url), { ...init, headers });
}

/**
 * A workspace's own voice, created through the domain (it takes a voice slot like any voice;
 * cloning endpoints arrive in a later issue). `fields` overrides parts of the record.
 */
export async function insertOwnVoice(stack: EmbeddedStack, workspaceId: string, userId: string, name = "My clone", fields: Partial<VoiceRecord> = {}) {
  const voice: VoiceRecord = {
    voice_id: newId(),
    workspace_id: workspaceId,
    owner_user_id: userId,
    name,
    description: "A test voice",
    category: "cloned",
    labels: { language: "en", accent: "american", gender: "female", age: "young" },
    created_at_unix: Math.floor(Date.now() / 1000),
    profile: { language: "en", gender: "female", age: "young", pitch: 55, pitchRange: 50, rate: 170, timbre: 0, seed: 7 },
    version: 1,
    settings: null,
    preview_object_key: null,
    samples: [],
    is_legacy: false,
    high_quality_base_model_ids: [],
    available_for_tiers: [],
    fine_tuning: blankFineTuning("en"),
    verification: blankVerification("en"),
    sharing: null,
    safety_control: null,
    is_mixed: false,
    engine_refs: {},
    ...fields,
  };
  const ws = await stack.ctx.stores.workspaces.get(workspaceId);
  await createVoice(stack.ctx, TIERS[ws!.tier], voice);
  return voice;
}
