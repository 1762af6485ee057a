import { z } from "zod";
import { accessibleVoice } from "../access.js";
import type { AppContext } from "../../../platform/context.js";
import type { StoredVoiceSettings, VoiceRecord } from "../../../platform/stores/voices.js";
import type { Caller } from "../../../platform/domain/caller.js";
import { DEFAULT_VOICE_SETTINGS, VoiceSettingsInput, mergeSettings } from "../../../platform/domain/voiceSettings.js";
import { ApiError, ValidationError } from "../../../platform/http/errors.js";
import type { ApiRouter, RouteContext } from "../../../platform/http/app.js";
import type { RouteHandler } from "../../../platform/http/router.js";
import { bytes, json, stream, type ApiRequest } from "../../../platform/http/types.js";
import { field, parseMultipart } from "../../../platform/http/multipart.js";
import { jsonBody, parseWith, q, queryParams } from "../../../platform/http/validate.js";
import { EditVoiceFields, FINE_TUNING_STATES, MAX_SAMPLES, SAMPLE_MAX_BYTES, VOICE_CATEGORIES, VOICE_TYPES } from "../../../platform/contract/voices.js";
import { assertCanManage, voiceNotFound } from "../records.js";
import { deleteSample, deleteVoice, editVoice, filterVoices, nameRank, sampleAudio, visibleVoices, wireContext, workspaceMemberships } from "../manage.js";
import { libraryAccents } from "../accents.js";
import { voiceWire } from "../wire.js";
import { workspaceEnginePreview } from "../previews.js";
import { isWorkspaceEngineVoice } from "../../engines/speak.js";

export { voiceNotFound };

/** The origin clients reach us at: PUBLIC_URL, else the forwarded host (CloudFront), else the Host header. */
export function publicBase(ctx: AppContext, req: ApiRequest): string {
  if (ctx.config.publicUrl) return ctx.config.publicUrl.replace(/\/$/, "");
  const host = req.headers["x-forwarded-host"] ?? req.headers.host ?? `localhost:${ctx.config.port}`;
  const proto = req.headers["x-forwarded-proto"] ?? "http";
  return `${proto}://${host}`;
}

/** Voices as the wire shows them to this caller, with their listings and collections. */
async function wireAll(rc: RouteContext, req: ApiRequest, caller: Caller, voices: VoiceRecord[], early?: Parameters<typeof wireContext>[4]) {
  const w = await wireContext(rc.app, caller, publicBase(rc.app, req), voices, early);
  return voices.map((v) => voiceWire(v, w));
}

const LabelFilters = {
  gender: z.string().max(50).optional(),
  age: z.string().max(50).optional(),
  accent: z.string().max(50).optional(),
  language: q.list().optional(),
  use_cases: q.list().optional(),
  min_notice_period_days: q.int(0, 10_000).optional(),
  include_custom_rates: q.bool().optional(),
  include_live_moderated: q.bool().optional(),
};

const V2Query = z.object({
  next_page_token: z.string().max(512).optional(),
  page_size: q.int(1, 100).default(10),
  search: z.string().max(200).optional(),
  sort: z.enum(["created_at_unix", "name"]).optional(),
  sort_direction: z.enum(["asc", "desc"]).optional(),
  voice_type: z.enum(VOICE_TYPES).optional(),
  category: z.enum(VOICE_CATEGORIES).optional(),
  fine_tuning_state: z.enum(FINE_TUNING_STATES).optional(),
  collection_id: z.string().max(64).optional(),
  ...LabelFilters,
  high_quality: q.bool().optional(),
  include_total_count: q.bool().optional(),
  voice_ids: q.list().refine((l) => l.length <= 100, "Maximum 100 voice IDs").optional(),
  show_legacy: q.bool().optional(),
});

const PageToken = z.object({ r: z.number().int().min(0).max(2).default(0), k: z.union([z.string(), z.number()]), id: z.string() });

export function registerVoices(r: ApiRouter): void {
  r.onInvalidParam("voice_id", voiceNotFound);
  r.get("/v1/voices", async (req, rc) => {
    const caller = await rc.caller();
    const { show_legacy } = queryParams(req, z.object({ show_legacy: q.bool().optional() }));
    const early = { memberships: workspaceMemberships(rc.app, caller) };
    early.memberships.catch(() => undefined); // awaited in wireAll
    const voices = (await visibleVoices(rc.app, caller)).filter((v) => show_legacy || !v.is_legacy);
    voices.sort((a, b) => a.name.localeCompare(b.name));
    return json({ voices: await wireAll(rc, req, caller, voices, early) });
  });

  r.get("/v2/voices", async (req, rc) => {
    const caller = await rc.caller();
    const p = queryParams(req, V2Query);
    const early = { memberships: workspaceMemberships(rc.app, caller) };
    early.memberships.catch(() => undefined); // awaited in wireContext
    const all = await visibleVoices(rc.app, caller);
    const w = await wireContext(rc.app, caller, publicBase(rc.app, req), all, early);
    let voices = await filterVoices(rc.app, caller, all, p, w.listings!);
    const sort = p.sort ?? "created_at_unix";
    const dir = (p.sort_direction ?? (sort === "name" ? "asc" : "desc")) === "asc" ? 1 : -1;
    const key = (v: VoiceRecord): string | number => (sort === "name" ? v.name.toLowerCase() : v.created_at_unix);
    // A search lists name matches first (nameRank), each group in the requested order.
    type Position = z.infer<typeof PageToken>;
    const at = (v: VoiceRecord): Position => ({ r: nameRank(v, p.search), k: key(v), id: v.voice_id });
    const cmp = (a: Position, b: Position) => a.r - b.r || (a.k < b.k ? -1 : a.k > b.k ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0) * dir;
    voices.sort((a, b) => cmp(at(a), at(b)));
    const total = voices.length;
    if (p.next_page_token) {
      let after: z.infer<typeof PageToken>;
      try {
        after = PageToken.parse(JSON.parse(Buffer.from(p.next_page_token, "base64url").toString()));
      } catch {
        throw new ApiError(400, "invalid_page_token", "The next_page_token is not valid for this query.");
      }
      voices = voices.filter((v) => cmp(at(v), after) > 0);
    }
    const page = voices.slice(0, p.page_size);
    const hasMore = voices.length > page.length;
    const last = page.at(-1);
    return json({
      voices: page.map((v) => voiceWire(v, w)),
      has_more: hasMore,
      total_count: total,
      next_page_token: hasMore && last ? Buffer.from(JSON.stringify(at(last))).toString("base64url") : null,
    });
  });

  r.get("/v1/voices/settings/default", async () => json(DEFAULT_VOICE_SETTINGS));

  r.get("/v1/voices/accents", async (req, rc) => {
    await rc.caller();
    const p = queryParams(req, z.object({ language: z.string().max(20).optional(), model_id: z.string().max(64).optional() }));
    return json({ accents: libraryAccents({ language: p.language, modelId: p.model_id }) });
  });

  r.get("/v1/voices/:voice_id", async (req, rc) => {
    const caller = await rc.caller();
    const v = await accessibleVoice(rc.app, caller, req.params.voice_id);
    if (!v) throw voiceNotFound(req.params.voice_id);
    const settings = await settingsFor(rc.app, caller, v);
    return json({ ...(await wireAll(rc, req, caller, [v]))[0], settings });
  });

  // Preview audio is what <audio src> loads, so premade and library previews need no
  // credentials; a workspace's own voices stay private to it.
  r.get("/v1/voices/:voice_id/preview", async (req, rc) => {
    const id = req.params.voice_id;
    let key: string | null | undefined;
    let isPublic = true;
    const premade = (await rc.app.stores.voices.premade()).find((v) => v.voice_id === id);
    if (premade) key = premade.preview_object_key;
    else {
      const listing = await rc.app.stores.library.listing(id);
      if (listing?.status === "listed") key = listing.preview_object_key;
      else {
        isPublic = false;
        const caller = await rc.caller();
        const v = await accessibleVoice(rc.app, caller, id);
        key = v?.preview_object_key;
        // A workspace engine's voice: made through the engine on first request (free), then kept.
        if (v && !key && v.workspace_id === caller.workspaceId && isWorkspaceEngineVoice(v)) key = await workspaceEnginePreview(rc.app, caller.workspaceId, v);
      }
    }
    if (!key) throw voiceNotFound(id);
    const audio = await rc.app.blobs.getBytes(key);
    if (!audio) throw voiceNotFound(id);
    return bytes(audio.bytes, audio.contentType, { "cache-control": isPublic ? "public, max-age=3600" : "private, max-age=300" });
  });

  r.get("/v1/voices/:voice_id/settings", async (req, rc) => {
    const caller = await rc.caller();
    const v = await accessibleVoice(rc.app, caller, req.params.voice_id);
    if (!v) throw voiceNotFound(req.params.voice_id);
    return json(await settingsFor(rc.app, caller, v));
  });

  const editSettings: RouteHandler<RouteContext> = async (req, rc) => {
    const caller = await rc.caller();
    const input = jsonBody(req, VoiceSettingsInput);
    const v = await accessibleVoice(rc.app, caller, req.params.voice_id);
    if (!v) throw voiceNotFound(req.params.voice_id);
    // A workspace's own voice is changed for everyone it is shared with: only those who may edit it
    // (its owner, a workspace admin, an editor or admin it is shared with), not a viewer.
    if (v.workspace_id === caller.workspaceId) await assertCanManage(caller, v);
    // remove_background_noise is per request (generate.ts), never a voice's stored setting.
    const next = mergeSettings(await settingsFor(rc.app, caller, v), { ...input, remove_background_noise: null });
    if (v.workspace_id === caller.workspaceId) await rc.app.stores.voices.patch(caller.workspaceId, v.voice_id, { settings: next });
    else await rc.app.stores.voices.putWorkspaceSettings(caller.workspaceId, v.voice_id, next);
    return json({ status: "ok" });
  };
  r.post("/v1/voices/:voice_id/settings/edit", editSettings);
  r.post("/v1/voices/:voice_id/settings", editSettings);

  r.post("/v1/voices/:voice_id/edit", async (req, rc) => {
    const caller = await rc.caller();
    const form = await parseMultipart(req, { maxFileBytes: SAMPLE_MAX_BYTES, maxFiles: MAX_SAMPLES, maxFields: 20, maxFieldBytes: 16 * 1024 });
    let labels: unknown;
    const rawLabels = field(form, "labels");
    if (rawLabels !== undefined && rawLabels !== "") {
      try {
        labels = JSON.parse(rawLabels);
      } catch {
        throw new ValidationError([{ loc: ["body", "labels"], msg: "labels must be a JSON object", type: "json_invalid" }]);
      }
    }
    const fields = parseWith("body", EditVoiceFields, {
      name: field(form, "name"),
      description: field(form, "description"),
      labels,
      remove_background_noise: field(form, "remove_background_noise") === "true",
    });
    await editVoice(rc.app, caller, req.params.voice_id, { ...fields, files: form.files.filter((f) => f.field === "files") });
    return json({ status: "ok" });
  });

  r.delete("/v1/voices/:voice_id", async (req, rc) => {
    await deleteVoice(rc.app, await rc.caller(), req.params.voice_id);
    return json({ status: "ok" });
  });

  r.delete("/v1/voices/:voice_id/samples/:sample_id", async (req, rc) => {
    await deleteSample(rc.app, await rc.caller(), req.params.voice_id, req.params.sample_id);
    return json({ status: "ok" });
  });

  r.get("/v1/voices/:voice_id/samples/:sample_id/audio", async (req, rc) => {
    const audio = await sampleAudio(rc.app, await rc.caller(), req.params.voice_id, req.params.sample_id);
    const headers: Record<string, string> = { "content-disposition": `attachment; filename="${audio.fileName.replace(/[^\w. -]/g, "_")}"` };
    if (audio.length !== undefined) headers["content-length"] = String(audio.length);
    return stream(audio.stream, audio.contentType, headers);
  });
}

/** The settings a workspace uses for a voice: its own voice's, its override of a premade one, or the defaults. */
/**
 * The settings a voice speaks with in the caller's workspace. `early`: the workspace's settings
 * for a voice id, already being read (text to speech reads them beside the permission checks).
 */
export async function settingsFor(ctx: AppContext, caller: Caller, v: VoiceRecord, early?: { voiceId: string; settings: Promise<StoredVoiceSettings | undefined> }) {
  if (v.workspace_id === caller.workspaceId && v.settings) return v.settings;
  const stored = early?.voiceId === v.voice_id ? await early.settings : await ctx.stores.voices.workspaceSettings(caller.workspaceId, v.voice_id);
  return stored ?? v.settings ?? DEFAULT_VOICE_SETTINGS;
}
