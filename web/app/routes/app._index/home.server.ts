import type { AppLoadContext } from "@remix-run/node";
import { api } from "../../lib/api.server.js";
import type { WebSession } from "../../lib/session.server.js";
import { HistoryPageWire, VoicesPageWire } from "../../components/tts/wire.js";
import { mostUsedVoices, type HomeData } from "../../components/home/usage.js";
import { ChecklistWire } from "../../components/onboarding/checklist.js";

/** Generations read to find the voices used most (one page of /v1/history). */
const HISTORY_SAMPLE = 100;
export const LATEST_SHOWN = 5;
export const VOICES_SHOWN = 4;

/** What Home shows beyond the shell: recent generations and voices, from /v1 as the user. */
export async function loadHome(context: AppLoadContext, request: Request, auth: WebSession): Promise<HomeData> {
  const client = api(context, request, auth);
  const checklist = await client.call("/v1/user/onboarding-checklist", { schema: ChecklistWire }).catch(() => null);
  const history = await client.call(`/v1/history?page_size=${HISTORY_SAMPLE}`, { schema: HistoryPageWire }).catch(() => null);
  const items = history?.history ?? [];
  const used = mostUsedVoices(items, VOICES_SHOWN);
  if (used.length) return { latest: items.slice(0, LATEST_SHOWN), voices: used, voicesAreSuggestions: false, checklist };
  const defaults = await client
    .call(`/v2/voices?voice_type=default&sort=created_at_unix&sort_direction=asc&page_size=${VOICES_SHOWN}`, { schema: VoicesPageWire })
    .catch(() => null);
  const voices = (defaults?.voices ?? []).map((v) => ({ voice_id: v.voice_id, name: v.name, uses: 0, description: v.description, preview_url: v.preview_url }));
  return { latest: items.slice(0, LATEST_SHOWN), voices, voicesAreSuggestions: true, checklist };
}
