import type { AppContext } from "../../platform/context.js";
import type { StoredVoiceProfile } from "../../platform/stores/voices.js";
import { publicKey, workspaceKey } from "../../platform/adapters/s3.js";
import type { VoiceRecord } from "../../platform/stores/voices.js";
import type { RemoteTarget } from "../../media/engine/remote/index.js";
import { remoteFailure, resolveRemoteParts } from "../engines/speak.js";
import { wholeAudio } from "../../media/audio/encoder.js";
import { DEFAULT_VOICE_SETTINGS } from "../../platform/domain/voiceSettings.js";

/**
 * Voice previews: a sentence in the voice's own language, synthesised by the engine (in its
 * worker threads) and stored where the preview route serves it without credentials.
 */
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

export const previewKey = (voiceId: string) => publicKey("voices", voiceId, "preview.mp3");

/**
 * Synthesises and stores a preview; returns its object key. `background` (the first start's
 * previews): on the background engine, whose low-priority threads leave the cores to users'
 * requests even in the middle of a preview (AppContext.backgroundEngine).
 */
export async function makePreview(
  ctx: AppContext,
  v: { voice_id: string; name: string; profile: StoredVoiceProfile },
  signal?: AbortSignal,
  opts: { background?: boolean; remote?: RemoteTarget; key?: string } = {},
): Promise<string> {
  const engine = opts.background ? await ctx.backgroundEngine() : await ctx.engine();
  const say = PREVIEW_TEXT[v.profile.language] ?? PREVIEW_TEXT.en;
  const parts: Array<{ audio: Uint8Array; samples?: number }> = [];
  for await (const c of engine.synthesizeEncoded(
    { text: say(v.name), voice: v.profile, settings: DEFAULT_VOICE_SETTINGS, seed: v.profile.seed, model: { id: "eleven_multilingual_v2", quality: "standard", supportsPhonemes: false }, background: opts.background, remote: opts.remote },
    PREVIEW_FORMAT,
    signal,
  )) {
    parts.push(c);
  }
  const key = opts.key ?? previewKey(v.voice_id);
  // A file with its Info frame: players start it on the first word, without LAME's priming.
  await ctx.blobs.put(key, wholeAudio(PREVIEW_FORMAT, parts), "audio/mpeg");
  return key;
}

/** Previews being made through a workspace's engine now ("WORKSPACE/VOICE"): a second request waits for the first. */
const making = new Map<string, Promise<string>>();

/**
 * The preview of a workspace engine's voice, made through the workspace's engine on its first
 * request and kept (privately, under the workspace) for the next: free, as the hosted service's
 * previews are; one synthesis per voice however many ask at once. The caller has been checked
 * to see the voice; the engine is the caller's workspace's own (resolveRemoteParts).
 */
export async function workspaceEnginePreview(ctx: AppContext, workspaceId: string, v: VoiceRecord): Promise<string> {
  const id = `${workspaceId}/${v.voice_id}`;
  let p = making.get(id);
  if (!p) {
    p = (async () => {
      const [part] = await resolveRemoteParts(ctx, workspaceId, [v]);
      const key = workspaceKey(workspaceId, "voices", v.voice_id, "preview.mp3");
      try {
        // Its name without the engine's ("af_bella (kokoro)" says "Hi, I'm af_bella").
        await makePreview(ctx, { ...v, name: v.name.replace(/ \([^)]*\)$/, ""), profile: part.profile }, undefined, { remote: part.remote, key });
      } catch (e) {
        throw remoteFailure(e);
      }
      await ctx.stores.voices.patch(workspaceId, v.voice_id, { preview_object_key: key });
      return key;
    })().finally(() => making.delete(id));
    making.set(id, p);
  }
  return p;
}
