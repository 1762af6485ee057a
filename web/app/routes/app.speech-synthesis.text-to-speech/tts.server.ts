import { redirect, type AppLoadContext } from "@remix-run/node";
import { api, ApiFailure } from "../../lib/api.server.js";
import { isPathId } from "../../../../functions/platform/contract/ids.js";
import type { WebSession } from "../../lib/session.server.js";
import { ModelsWire, VoicesPageWire, VoiceWire, type Model, type Voice } from "../../components/tts/wire.js";

/** Premade voices offered first (and as the other speakers of a new dialogue). */
const STARTER_VOICES = 4;

export interface TextToSpeechData {
  models: Model[];
  /** The voice to start with: ?voice_id when it is one of the user's voices, else the first default voice. */
  voice: Voice | null;
  /** A few default voices, oldest first: fallbacks for new dialogue speakers. */
  starterVoices: Voice[];
}

/** The voice library, where a voice that is not the user's is opened (speech-generation.md §2). */
export const voiceLibraryHref = (voiceId: string) => `/app/voice-library?voiceId=${encodeURIComponent(voiceId)}`;

/** Models and the starting voice, read from /v1 as the signed-in user. */
export async function loadTextToSpeech(context: AppLoadContext, request: Request, auth: WebSession): Promise<TextToSpeechData> {
  const client = api(context, request, auth);
  const voiceId = new URL(request.url).searchParams.get("voice_id")?.trim() || null;
  // Not even the shape of an id ("." would resolve to /v1/voices/ itself): no voice of the user's.
  if (voiceId && !isPathId(voiceId)) throw redirect(voiceLibraryHref(voiceId.slice(0, 128)));
  const starters = client.call(`/v2/voices?voice_type=default&sort=created_at_unix&sort_direction=asc&page_size=${STARTER_VOICES}`, { schema: VoicesPageWire });
  const requested = voiceId
    ? client.call(`/v1/voices/${encodeURIComponent(voiceId)}`, { schema: VoiceWire }).catch((e: unknown) => {
        // Not among the user's voices (premade or their workspace's): open it in the library.
        if (e instanceof ApiFailure && (e.status === 404 || e.status === 400)) throw redirect(voiceLibraryHref(voiceId));
        throw e;
      })
    : Promise.resolve(null);
  const [models, starterPage, voice] = await Promise.all([client.call("/v1/models", { schema: ModelsWire }), starters, requested]);
  const first = starterPage.voices[0];
  // The list carries a voice's own settings only; /v1/voices/{id} adds the workspace's.
  const fallback = voice ?? (first ? await client.call(`/v1/voices/${encodeURIComponent(first.voice_id)}`, { schema: VoiceWire }) : null);
  return { models, voice: fallback, starterVoices: starterPage.voices };
}
