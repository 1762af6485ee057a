import { z } from "zod";
import { zipSync } from "fflate";
import type { AppContext } from "../../../platform/context.js";
import type { HistoryRecord } from "../../../platform/stores/history.js";
import { ApiError } from "../../../platform/http/errors.js";
import type { ApiRouter } from "../../../platform/http/app.js";
import { bytes, json } from "../../../platform/http/types.js";
import { jsonBody, q, queryParams } from "../../../platform/http/validate.js";
import { parseOutputFormat } from "../../../media/audio/formats.js";
import { encodeWav, wavHeader } from "../../../media/audio/wav.js";
import { decodeAlaw, decodeMulaw } from "../../../media/audio/g711.js";

export const historyNotFound = (id: string) => new ApiError(404, "history_item_not_found", `A history item with the id ${id} was not found.`);

const EXTENSIONS: Record<string, string> = { "audio/mpeg": "mp3", "audio/wav": "wav", "audio/ogg": "ogg", "audio/basic": "ulaw", "audio/pcm": "pcm" };
export const extensionFor = (contentType: string, outputFormat: string) =>
  EXTENSIONS[contentType.split(";")[0]] ?? (outputFormat.startsWith("alaw") ? "alaw" : outputFormat.split("_")[0]);

async function alignmentOf(ctx: AppContext, h: HistoryRecord) {
  if (!h.alignment_key) return null;
  const got = await ctx.blobs.getBytes(h.alignment_key);
  return got ? (JSON.parse(Buffer.from(got.bytes).toString("utf8")) as { alignment: unknown; normalized_alignment: unknown }) : null;
}

/** The SpeechHistoryItemResponse wire object. */
export function historyWire(h: HistoryRecord, alignments: unknown = null) {
  return {
    history_item_id: h.history_item_id,
    request_id: h.request_id,
    voice_id: h.voice_id,
    model_id: h.model_id,
    voice_name: h.voice_name,
    voice_category: h.voice_category,
    // Speech to speech has no text.
    text: h.source === "STS" ? null : h.text,
    date_unix: h.date_unix,
    character_count_change_from: h.character_count_change_from,
    character_count_change_to: h.character_count_change_to,
    content_type: h.content_type,
    state: "created",
    settings: h.replay.settings,
    share_link_id: null,
    source: h.source,
    alignments,
    dialogue: h.dialogue,
    output_format: h.output_format,
    // Timbre: the audio's length, for lists that show it before playing (null on older items).
    duration_secs: h.duration_secs ?? null,
  };
}

const ListQuery = z.object({
  page_size: q.int(1, 1000).default(100),
  start_after_history_item_id: z.string().max(64).optional(),
  voice_id: z.string().max(64).optional(),
  model_id: z.string().max(64).optional(),
  date_before_unix: z.coerce.number().int().optional(),
  date_after_unix: z.coerce.number().int().optional(),
  sort_direction: z.enum(["asc", "desc"]).optional(),
  search: z.string().max(200).optional(),
  source: z.enum(["TTS", "STS", "Flows"]).optional(),
});

const DownloadBody = z.object({
  history_item_ids: z.array(z.string().min(1).max(64)).min(1, "Provide at least one history item id").max(100),
  // "default": as generated; "wav": converted (the two the SDK documents).
  output_format: z.enum(["default", "wav"]).nullish(),
});

/** A stored item as WAV: PCM and G.711 are rewrapped here (linear and cheap), the rest decoded in a worker. */
async function asWav(ctx: AppContext, h: HistoryRecord, audio: Uint8Array): Promise<Uint8Array> {
  const format = parseOutputFormat(h.output_format);
  switch (format.codec) {
    case "wav":
      return audio;
    case "pcm": {
      const out = new Uint8Array(44 + audio.length);
      out.set(wavHeader(format.sampleRate, audio.length));
      out.set(audio, 44);
      return out;
    }
    case "ulaw":
      return encodeWav(decodeMulaw(audio), format.sampleRate);
    case "alaw":
      return encodeWav(decodeAlaw(audio), format.sampleRate);
    default:
      return ctx.analyzer().toWav(audio, { maxBytes: 512 * 1024 * 1024, maxSeconds: 4 * 3600 });
  }
}

export function registerHistory(r: ApiRouter): void {
  r.onInvalidParam("history_item_id", historyNotFound);
  r.get("/v1/history", async (req, rc) => {
    const caller = await rc.caller();
    const p = queryParams(req, ListQuery);
    const { items, hasMore } = await rc.app.stores.history.list(caller.workspaceId, {
      userId: caller.userId,
      pageSize: p.page_size,
      startAfterId: p.start_after_history_item_id,
      voiceId: p.voice_id,
      modelId: p.model_id,
      search: p.search,
      source: p.source,
      dateBeforeUnix: p.date_before_unix,
      dateAfterUnix: p.date_after_unix,
      ascending: p.sort_direction === "asc",
    });
    const last = items.at(-1);
    return json({
      history: items.map((h) => historyWire(h)),
      last_history_item_id: last?.history_item_id ?? null,
      has_more: hasMore,
      scanned_until: last?.date_unix ?? null,
    });
  });

  r.get("/v1/history/:history_item_id", async (req, rc) => {
    const caller = await rc.caller();
    const h = await rc.app.stores.history.ownedBy(caller.workspaceId, caller.userId, req.params.history_item_id);
    if (!h) throw historyNotFound(req.params.history_item_id);
    return json(historyWire(h, await alignmentOf(rc.app, h)));
  });

  r.get("/v1/history/:history_item_id/audio", async (req, rc) => {
    const caller = await rc.caller();
    const h = await rc.app.stores.history.ownedBy(caller.workspaceId, caller.userId, req.params.history_item_id);
    if (!h) throw historyNotFound(req.params.history_item_id);
    const audio = await rc.app.blobs.getBytes(h.audio_key);
    if (!audio) throw historyNotFound(req.params.history_item_id);
    return bytes(audio.bytes, h.content_type, { "content-disposition": `attachment; filename="${h.history_item_id}.${extensionFor(h.content_type, h.output_format)}"` });
  });

  r.delete("/v1/history/:history_item_id", async (req, rc) => {
    const caller = await rc.caller();
    const h = await rc.app.stores.history.ownedBy(caller.workspaceId, caller.userId, req.params.history_item_id);
    if (!h) throw historyNotFound(req.params.history_item_id);
    await rc.app.stores.history.delete(h);
    await rc.app.blobs.deleteMany([h.audio_key, ...(h.alignment_key ? [h.alignment_key] : []), ...(h.sts_input ? [h.sts_input.key] : [])]);
    return json({ status: "ok" });
  });

  r.post("/v1/history/download", async (req, rc) => {
    const caller = await rc.caller();
    const body = jsonBody(req, DownloadBody);
    const wav = body.output_format === "wav";
    const ids = [...new Set(body.history_item_ids)];
    const items = await Promise.all(ids.map((id) => rc.app.stores.history.ownedBy(caller.workspaceId, caller.userId, id)));
    const missing = ids.filter((_, i) => !items[i]);
    if (missing.length) throw new ApiError(400, "history_item_not_found", `History items not found: ${missing.join(", ")}`);
    const found = items as HistoryRecord[];
    const stored = await Promise.all(found.map((h) => rc.app.blobs.getBytes(h.audio_key)));
    // One at a time: each conversion is a worker job, and 100 long items must not pile up in memory.
    const audios: Uint8Array[] = [];
    for (let i = 0; i < found.length; i++) audios.push(wav ? await asWav(rc.app, found[i], stored[i]!.bytes) : stored[i]!.bytes);
    const typeOf = (h: HistoryRecord) => (wav ? "audio/wav" : h.content_type);
    const extOf = (h: HistoryRecord) => (wav ? "wav" : extensionFor(h.content_type, h.output_format));
    if (found.length === 1) {
      const [h] = found;
      return bytes(audios[0], typeOf(h), { "content-disposition": `attachment; filename="${h.history_item_id}.${extOf(h)}"` });
    }
    const files: Record<string, Uint8Array> = {};
    found.forEach((h, i) => {
      const stamp = new Date(h.date_unix * 1000).toISOString().replace(/[:]/g, "-").slice(0, 19);
      const safeVoice = h.voice_name.replace(/[^\w-]+/g, "_").slice(0, 40);
      files[`${stamp}_${safeVoice}_${h.history_item_id}.${extOf(h)}`] = audios[i];
    });
    // Audio is already compressed; storing keeps the zip fast.
    const zip = zipSync(files, { level: 0 });
    return bytes(zip, "application/zip", { "content-disposition": `attachment; filename="history_${Date.now()}.zip"` });
  });
}
