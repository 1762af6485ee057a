import type { AppContext } from "../context.js";
import { randomToken } from "../adapters/ids.js";
import { createAccount, createApiKey } from "./accounts.js";
import { premadeVoiceRecords } from "./premadeVoices.js";
import type { TierId } from "./tiers.js";
import { publicKey } from "../adapters/s3.js";
import { DEFAULT_VOICE_SETTINGS } from "./voiceSettings.js";

/** What each premade voice says in its preview, in its own language. */
const PREVIEW_TEXT: Record<string, (name: string) => string> = {
  en: (n) => `Hi, I'm ${n}. I can read your stories, explain your products and bring your characters to life.`,
  de: (n) => `Hallo, ich bin ${n}. Ich lese Ihre Geschichten vor und erkläre Ihre Produkte.`,
  fr: (n) => `Bonjour, je suis ${n}. Je peux lire vos histoires et présenter vos produits.`,
  es: (n) => `Hola, soy ${n}. Puedo leer tus historias y presentar tus productos.`,
  it: (n) => `Ciao, sono ${n}. Posso leggere le tue storie e presentare i tuoi prodotti.`,
  pt: (n) => `Olá, eu sou ${n}. Posso ler as suas histórias e apresentar os seus produtos.`,
  pl: (n) => `Cześć, jestem ${n}. Mogę czytać twoje historie i przedstawiać twoje produkty.`,
  nl: (n) => `Hallo, ik ben ${n}. Ik kan je verhalen voorlezen en je producten presenteren.`,
  sv: (n) => `Hej, jag heter ${n}. Jag kan läsa dina berättelser och presentera dina produkter.`,
  hi: (n) => `नमस्ते, मैं ${n} हूँ। मैं आपकी कहानियाँ पढ़ सकती हूँ।`,
};

export const PREVIEW_FORMAT = "mp3_44100_128";

/**
 * Synthesises the preview of every premade voice that has none yet (first start, or after its
 * profile changed). Runs in the background: a voice without a preview just has no preview_url.
 */
export async function generatePremadePreviews(ctx: AppContext, signal?: AbortSignal): Promise<number> {
  const missing = (await ctx.stores.voices.premade()).filter((v) => !v.preview_object_key);
  if (!missing.length) return 0;
  const engine = await ctx.engine();
  let made = 0;
  for (const v of missing) {
    if (signal?.aborted) break;
    const say = PREVIEW_TEXT[v.profile.language] ?? PREVIEW_TEXT.en;
    const parts: Uint8Array[] = [];
    for await (const c of engine.synthesizeEncoded(
      { text: say(v.name), voice: v.profile, settings: DEFAULT_VOICE_SETTINGS, seed: v.profile.seed, model: { id: "eleven_multilingual_v2", quality: "standard", supportsPhonemes: false } },
      PREVIEW_FORMAT,
      signal,
    )) {
      parts.push(c.audio);
    }
    const key = publicKey("voices", v.voice_id, "preview.mp3");
    await ctx.blobs.put(key, Buffer.concat(parts), "audio/mpeg");
    await ctx.stores.voices.patch(null, v.voice_id, { preview_object_key: key });
    made++;
  }
  return made;
}

export const DEMO_EMAIL = "demo@timbre.local";
export const DEMO_TIER: TierId = "pro";

/** Writes the premade voices; existing records are refreshed so a code change reaches old installs. */
export async function seedSystem(ctx: AppContext): Promise<void> {
  const existing = new Map((await ctx.stores.voices.premade()).map((v) => [v.voice_id, v]));
  for (const v of premadeVoiceRecords()) {
    const old = existing.get(v.voice_id);
    // Keep what later seeding steps attached (the preview audio) unless the profile changed.
    const keepPreview = old && JSON.stringify(old.profile) === JSON.stringify(v.profile) ? old.preview_object_key : null;
    await ctx.stores.voices.put({ ...v, preview_object_key: keepPreview });
  }
}

export interface DemoCredentials {
  email: string;
  password: string;
  api_key: string;
  user_id: string;
  workspace_id: string;
}

/** Creates the demo account once; returns its credentials only when it was created now. */
export async function ensureDemoAccount(ctx: AppContext, opts: { password?: string; apiKey?: string }): Promise<DemoCredentials | undefined> {
  if (await ctx.stores.users.findByEmail(DEMO_EMAIL)) return undefined;
  const password = opts.password ?? randomToken(16);
  const { user, workspace } = await createAccount(ctx, { email: DEMO_EMAIL, password, firstName: "Demo", tier: DEMO_TIER });
  await ctx.stores.workspaces.update(workspace.workspace_id, { name: "Demo Workspace" });
  const { value } = await createApiKey(ctx, { workspaceId: workspace.workspace_id, userId: user.user_id, name: "Demo key", value: opts.apiKey });
  return { email: DEMO_EMAIL, password, api_key: value, user_id: user.user_id, workspace_id: workspace.workspace_id };
}

/** `npm run seed`: a user with a workspace on `tier` and an API key. */
export async function seedUser(ctx: AppContext, input: { email: string; tier: TierId; password?: string }) {
  const password = input.password ?? randomToken(16);
  const { user, workspace } = await createAccount(ctx, { email: input.email, password, tier: input.tier });
  const { value } = await createApiKey(ctx, { workspaceId: workspace.workspace_id, userId: user.user_id, name: "Seed key" });
  return { user_id: user.user_id, workspace_id: workspace.workspace_id, api_key: value, password: input.password ? undefined : password };
}
