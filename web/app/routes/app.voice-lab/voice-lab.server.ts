import type { AppLoadContext } from "@remix-run/node";
import { api } from "../../lib/api.server.js";
import { requireAuth } from "../../lib/session.server.js";
import { CollectionsWire, type Collection, type VoiceSlots } from "../../components/voices/wire.js";
import { voiceSlots } from "../app.voice-library/library.server.js";

export interface MyVoicesData {
  slots: VoiceSlots | null;
  collections: Collection[];
}

/** My Voices' server side: voice slots for the Add a new voice dialog and the collections. The list loads in the browser. */
export async function loadMyVoices(request: Request, context: AppLoadContext): Promise<MyVoicesData> {
  const auth = await requireAuth(request, context);
  const client = api(context, request, auth);
  const [slots, collections] = await Promise.all([
    voiceSlots(client),
    client
      .call("/v1/voices/collections", { schema: CollectionsWire })
      .then((r) => r.collections)
      .catch(() => []),
  ]);
  return { slots, collections };
}
