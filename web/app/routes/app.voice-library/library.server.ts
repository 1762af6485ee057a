import { data, type AppLoadContext } from "@remix-run/node";
import { api, ApiFailure, type ApiClient } from "../../lib/api.server.js";
import { isVisible } from "../../lib/nav.js";
import { getShell } from "../../lib/shell.server.js";
import { navContext } from "../../lib/shell.js";
import { VoicesPageWire } from "../../components/tts/wire.js";
import { isPathId } from "../../../../functions/platform/contract/ids.js";
import { LibraryVoiceWire, VoiceSlotsWire, type LibraryVoice, type VoiceSlots } from "../../components/voices/wire.js";

/** The subscription's voice slots and cloning abilities, for the Add a new voice dialog (null if unavailable). */
export async function voiceSlots(client: ApiClient): Promise<VoiceSlots | null> {
  return client.call("/v1/user/subscription", { schema: VoiceSlotsWire }).catch(() => null);
}

export interface LibraryPageData {
  opened: LibraryVoice | null;
  missing: { voiceId: string; voices: Array<{ voice_id: string; name: string }> } | null;
  slots: VoiceSlots | null;
}

/**
 * The library page's server side: the voice opened with ?voiceId (Text to Speech sends voices
 * the user does not have here), or, when it is not in the library, the user's own voices to
 * offer instead. The grid itself loads in the browser, page by page.
 */
export async function loadLibraryPage(request: Request, context: AppLoadContext): Promise<LibraryPageData> {
  const { auth, shell } = await getShell(request, context);
  // Hidden in isolated environments, like its navigation entry.
  if (!isVisible({ hiddenWhenIsolated: true }, navContext(shell))) throw data({ message: "Page not found" }, { status: 404 });
  const client = api(context, request, auth);
  const voiceId = new URL(request.url).searchParams.get("voiceId")?.trim().slice(0, 128) || null;
  const [slots, opened] = await Promise.all([
    voiceSlots(client),
    voiceId && isPathId(voiceId)
      ? client.call(`/v1/shared-voices/${encodeURIComponent(voiceId)}`, { schema: LibraryVoiceWire }).catch((e: unknown) => {
          if (e instanceof ApiFailure && (e.status === 404 || e.status === 400)) return null;
          throw e;
        })
      : Promise.resolve(null),
  ]);
  const missing =
    voiceId && !opened
      ? {
          voiceId,
          voices: await client
            .call("/v2/voices?page_size=12&sort=name&sort_direction=asc", { schema: VoicesPageWire })
            .then((r) => r.voices.map((v) => ({ voice_id: v.voice_id, name: v.name })))
            .catch(() => []),
        }
      : null;
  return { opened, missing, slots };
}
