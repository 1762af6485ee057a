import type { AppContext } from "../../platform/context.js";
import { premadeVoiceId } from "../../platform/domain/premadeVoices.js";
import { DEFAULT_VOICE_SETTINGS } from "../../platform/domain/voiceSettings.js";
import { ApiError } from "../../platform/http/errors.js";
import { codePointLength } from "../../platform/contract/text.js";
import { wholeAudio } from "../../media/audio/encoder.js";
import type { VoiceRecord } from "../../platform/stores/voices.js";

/**
 * The landing page's text-to-speech box: logged-out visitors try a few premade voices without an
 * account. It spends no workspace's credits and keeps no history; what bounds it is a request
 * limit per visitor (a signed cookie the web server keeps) and per address (for visitors who drop
 * the cookie), a short text, and one synthesis at a time in each process, so visitors never take
 * the engine from the workspaces.
 */
export const LANDING = {
  maxCharacters: 300,
  /** Requests per visitor (cookie) per window. */
  perVisitor: 5,
  /** Requests per client address per window: a shared office or school behind one address. */
  perAddress: 20,
  windowSeconds: 24 * 3600,
  /** Landing syntheses waiting in a process beyond the one running; more are told the system is busy. */
  queue: 4,
  format: "mp3_44100_128" as const,
  voices: ["Avery", "Marcus", "Harriet", "Oliver"],
};

export const landingMessages = {
  limitReached: "You have reached the limit of free generations on this page. Sign up for free to keep creating speech with every voice.",
  tooLong: (max: number) => `The text on this page can be at most ${max} characters. Sign up for free to generate longer texts.`,
  empty: "Please enter some text.",
  unknownVoice: "This voice is not offered on this page.",
  busy: "We are sorry, the system is busy, try again...",
};

/** The premade voices the landing page offers, in its order (as stored: with their previews). */
export async function landingVoices(ctx: AppContext): Promise<VoiceRecord[]> {
  const all = new Map((await ctx.stores.voices.premade()).map((v) => [v.voice_id, v]));
  return LANDING.voices.map((name) => all.get(premadeVoiceId(name))).filter((v): v is VoiceRecord => v !== undefined);
}

/** Checks what the visitor sent, before anything is counted or synthesised. */
export async function checkLandingRequest(ctx: AppContext, text: string, voiceId: string): Promise<{ text: string; voice: VoiceRecord }> {
  const trimmed = text.trim();
  if (!trimmed) throw new ApiError(400, "text_empty", landingMessages.empty);
  if (codePointLength(trimmed) > LANDING.maxCharacters) throw new ApiError(400, "text_too_long", landingMessages.tooLong(LANDING.maxCharacters));
  const voice = (await landingVoices(ctx)).find((v) => v.voice_id === voiceId);
  if (!voice) throw new ApiError(400, "voice_not_offered", landingMessages.unknownVoice);
  return { text: trimmed, voice };
}

interface Gate {
  running: boolean;
  waiting: Array<() => void>;
}
const gates = new WeakMap<object, Gate>();

/** One landing synthesis at a time per process; a short queue; beyond it, 503. */
async function enter(ctx: AppContext): Promise<() => void> {
  let g = gates.get(ctx);
  if (!g) gates.set(ctx, (g = { running: false, waiting: [] }));
  const gate = g;
  if (gate.running) {
    if (gate.waiting.length >= LANDING.queue) throw new ApiError(503, "system_busy", landingMessages.busy, { "retry-after": "5" });
    await new Promise<void>((r) => gate.waiting.push(r));
  }
  gate.running = true;
  return () => {
    const next = gate.waiting.shift();
    if (next) next();
    else gate.running = false;
  };
}

/**
 * Takes one of the visitor's and the address's requests, atomically (parallel requests cannot
 * take more than the limit), or refuses with the sign-up prompt. Returns how many the visitor has
 * left and a function that gives both back (the synthesis failed: the visitor got nothing).
 */
async function takeRequest(ctx: AppContext, visitor: string, address: string): Promise<{ left: number; giveBack: () => Promise<void> }> {
  const now = Math.floor(ctx.now() / 1000);
  const { ledger } = ctx.stores;
  const limit = () => new ApiError(429, "landing_limit_reached", landingMessages.limitReached, { "retry-after": String(LANDING.windowSeconds - (now % LANDING.windowSeconds)) });
  const byAddress = await ledger.takeAttempt("landing-address", address, LANDING.windowSeconds, now, LANDING.perAddress);
  if (byAddress === undefined) throw limit();
  const byVisitor = await ledger.takeAttempt("landing-visitor", visitor, LANDING.windowSeconds, now, LANDING.perVisitor);
  if (byVisitor === undefined) {
    await ledger.returnAttempt("landing-address", address, LANDING.windowSeconds, now);
    throw limit();
  }
  return {
    left: LANDING.perVisitor - byVisitor,
    giveBack: async () => {
      await ledger.returnAttempt("landing-visitor", visitor, LANDING.windowSeconds, now);
      await ledger.returnAttempt("landing-address", address, LANDING.windowSeconds, now);
    },
  };
}

/** Speaks a visitor's text in a landing voice: a whole MP3 file, and the requests the visitor has left. */
export async function speakForVisitor(
  ctx: AppContext,
  input: { text: string; voiceId: string; visitor: string; address: string },
  signal?: AbortSignal,
): Promise<{ audio: Uint8Array; left: number }> {
  const { text, voice } = await checkLandingRequest(ctx, input.text, input.voiceId);
  const taken = await takeRequest(ctx, input.visitor, input.address);
  let leave: (() => void) | undefined;
  try {
    leave = await enter(ctx);
    const engine = await ctx.engine();
    const parts: Array<{ audio: Uint8Array; samples?: number }> = [];
    for await (const c of engine.synthesizeEncoded(
      { text, voice: voice.profile, settings: DEFAULT_VOICE_SETTINGS, seed: voice.profile.seed, model: { id: "eleven_multilingual_v2", quality: "standard", supportsPhonemes: false }, whole: true },
      LANDING.format,
      signal,
    )) {
      parts.push(c);
    }
    return { audio: wholeAudio(LANDING.format, parts), left: taken.left };
  } catch (e) {
    await taken.giveBack().catch((err: unknown) => ctx.log.warn("landing request not given back", { error: err }));
    throw e;
  } finally {
    leave?.();
  }
}
