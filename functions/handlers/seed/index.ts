import type { AppContext } from "../../platform/context.js";
import { randomToken } from "../../platform/adapters/ids.js";
import { createAccount, createApiKey } from "../../platform/domain/accounts.js";
import { premadeVoiceRecords } from "../../platform/domain/premadeVoices.js";
import type { TierId } from "../../platform/domain/tiers.js";
// Seeding writes every capability's system data (a capability of its own, above the others:
// the embedded stack and the seed Lambda both call it).
import { makePreview } from "../../capabilities/voices/previews.js";
import { generateCommunityPreviews, seedCommunityLibrary } from "../../capabilities/voices/community.js";
import { seedReleaseNotes } from "../../capabilities/engagement/notifications.js";
import { yieldToInteractive } from "../../capabilities/speech/slots.js";

export { PREVIEW_FORMAT } from "../../capabilities/voices/previews.js";

/**
 * Synthesises the preview of every system voice that has none yet (first start, or after its
 * profile changed): the premade voices first, then the community library's. Runs in the
 * background: a voice without a preview just has no preview_url yet. Each waits until no user's
 * request is being served (a slot held) and runs on the background engine's low-priority threads.
 */
export async function generatePremadePreviews(ctx: AppContext, signal?: AbortSignal): Promise<number> {
  const missing = (await ctx.stores.voices.premade()).filter((v) => !v.preview_object_key);
  let made = 0;
  try {
    for (const v of missing) {
      await yieldToInteractive(ctx, signal);
      if (signal?.aborted) break;
      const key = await makePreview(ctx, v, signal, { background: true });
      await ctx.stores.voices.patch(null, v.voice_id, { preview_object_key: key });
      made++;
    }
    if (!signal?.aborted) made += await generateCommunityPreviews(ctx, signal);
  } finally {
    // Its threads are only for this work.
    await ctx.closeBackgroundEngine();
  }
  return made;
}

export const DEMO_EMAIL = "demo@timbre.local";
export const DEMO_TIER: TierId = "pro";

/**
 * Writes the premade voices and the community library; existing records are refreshed so a code
 * change reaches old installs.
 */
export async function seedSystem(ctx: AppContext): Promise<void> {
  const existing = new Map((await ctx.stores.voices.premade()).map((v) => [v.voice_id, v]));
  // Only what changed is written: a restart of an up-to-date install writes nothing here.
  await Promise.all(
    premadeVoiceRecords().map(async (v) => {
      const old = existing.get(v.voice_id);
      // Keep what later seeding steps attached (the preview audio) unless the profile changed.
      const keepPreview = old && stable(old.profile) === stable(v.profile) ? old.preview_object_key : null;
      const record = { ...v, preview_object_key: keepPreview };
      if (!old || stable(old) !== stable(record)) await ctx.stores.voices.put(record);
    }),
  );
  await seedCommunityLibrary(ctx);
  await seedReleaseNotes(ctx);
}

/** JSON with sorted keys: records read back from the store compare equal to freshly built ones. */
function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(",")}]`;
  if (v && typeof v === "object") return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${stable((v as Record<string, unknown>)[k])}`).join(",")}}`;
  return JSON.stringify(v) ?? "null";
}

export interface DemoCredentials {
  email: string;
  password: string;
  api_key: string;
  user_id: string;
  workspace_id: string;
}

/** Creates the demo account once (it administers the server); returns its credentials only when it was created now. */
export async function ensureDemoAccount(ctx: AppContext, opts: { password?: string; apiKey?: string }): Promise<DemoCredentials | undefined> {
  if (await ctx.stores.users.findByEmail(DEMO_EMAIL)) return undefined;
  const password = opts.password ?? randomToken(16);
  const { user, workspace } = await createAccount(ctx, { email: DEMO_EMAIL, password, firstName: "Demo", tier: DEMO_TIER, serverAdmin: true });
  await ctx.stores.workspaces.update(workspace.workspace_id, { name: "Demo Workspace" });
  const { value } = await createApiKey(ctx, { workspaceId: workspace.workspace_id, userId: user.user_id, name: "Demo key", value: opts.apiKey });
  return { email: DEMO_EMAIL, password, api_key: value, user_id: user.user_id, workspace_id: workspace.workspace_id };
}

/** `npm run seed`: a user with a workspace on `tier` and an API key. */
export async function seedUser(ctx: AppContext, input: { email: string; tier: TierId; password?: string; serverAdmin?: boolean }) {
  const password = input.password ?? randomToken(16);
  const { user, workspace } = await createAccount(ctx, { email: input.email, password, tier: input.tier, serverAdmin: input.serverAdmin });
  const { value } = await createApiKey(ctx, { workspaceId: workspace.workspace_id, userId: user.user_id, name: "Seed key" });
  return { user_id: user.user_id, workspace_id: workspace.workspace_id, api_key: value, password: input.password ? undefined : password };
}
