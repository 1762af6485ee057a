import { z } from "zod";
import type { AppContext } from "../context.js";
import type { VoiceRecord } from "../adapters/dynamo/voices.js";
import type { Caller } from "../domain/caller.js";
import { DEFAULT_VOICE_SETTINGS, VoiceSettingsInput, mergeSettings } from "../domain/voiceSettings.js";
import { ApiError } from "../http/errors.js";
import type { ApiRouter, RouteContext } from "../http/app.js";
import type { RouteHandler } from "../http/router.js";
import { bytes, json, type ApiRequest } from "../http/types.js";
import { jsonBody, q, queryParams } from "../http/validate.js";

export const voiceNotFound = (id: string) => new ApiError(404, "voice_not_found", `A voice with the voice_id ${id} was not found.`);

/** The Voice wire object. */
export function voiceWire(base: string, v: VoiceRecord, caller: Caller) {
  const own = v.workspace_id === caller.workspaceId;
  return {
    voice_id: v.voice_id,
    name: v.name,
    samples: own
      ? v.samples.map((s) => ({
          sample_id: s.sample_id,
          file_name: s.file_name,
          mime_type: s.mime_type,
          size_bytes: s.size_bytes,
          hash: s.hash,
          duration_secs: s.duration_secs,
          remove_background_noise: s.remove_background_noise,
          has_isolated_audio: false,
          has_isolated_audio_preview: false,
          speaker_separation: null,
          trim_start: s.trim_start,
          trim_end: s.trim_end,
        }))
      : null,
    category: v.category,
    fine_tuning: {
      is_allowed_to_fine_tune: own && v.category === "professional",
      state: {},
      verification_failures: v.verification_failures,
      verification_attempts_count: v.verification_attempts_count,
      manual_verification_requested: false,
      language: v.labels.language ?? v.profile.language,
      progress: {},
      message: {},
      dataset_duration_seconds: null,
      verification_attempts: null,
      slice_ids: null,
      manual_verification: null,
      max_verification_attempts: 5,
      next_max_verification_attempts_reset_unix_ms: null,
    },
    labels: v.labels,
    description: v.description,
    preview_url: v.preview_object_key ? `${base}/v1/voices/${v.voice_id}/preview` : null,
    available_for_tiers: v.available_for_tiers,
    settings: v.settings,
    sharing: null,
    high_quality_base_model_ids: v.high_quality_base_model_ids,
    verified_languages: [],
    collection_ids: [],
    safety_control: null,
    voice_verification: {
      requires_verification: v.requires_verification,
      is_verified: v.is_verified,
      verification_failures: v.verification_failures,
      verification_attempts_count: v.verification_attempts_count,
      language: v.labels.language ?? null,
      verification_attempts: null,
    },
    permission_on_resource: own ? "admin" : null,
    is_owner: own && v.owner_user_id === caller.userId,
    is_legacy: v.is_legacy,
    is_mixed: false,
    favorited_at_unix: null,
    created_at_unix: v.created_at_unix,
    is_bookmarked: false,
  };
}

/** The origin clients reach us at: PUBLIC_URL, else the forwarded host (CloudFront), else the Host header. */
export function publicBase(ctx: AppContext, req: ApiRequest): string {
  if (ctx.config.publicUrl) return ctx.config.publicUrl.replace(/\/$/, "");
  const host = req.headers["x-forwarded-host"] ?? req.headers.host ?? `localhost:${ctx.config.port}`;
  const proto = req.headers["x-forwarded-proto"] ?? "http";
  return `${proto}://${host}`;
}

/** Premade voices and the workspace's own, each workspace seeing only its own. */
async function visibleVoices(ctx: AppContext, caller: Caller): Promise<VoiceRecord[]> {
  const [premade, own] = await Promise.all([ctx.stores.voices.premade(), ctx.stores.voices.ofWorkspace(caller.workspaceId)]);
  return [...premade, ...own];
}

const VOICE_TYPES = ["personal", "community", "default", "workspace", "non-default", "non-community", "saved"] as const;

const V2Query = z.object({
  next_page_token: z.string().max(512).optional(),
  page_size: q.int(1, 100).default(10),
  search: z.string().max(200).optional(),
  sort: z.enum(["created_at_unix", "name"]).optional(),
  sort_direction: z.enum(["asc", "desc"]).optional(),
  voice_type: z.enum(VOICE_TYPES).optional(),
  category: z.enum(["premade", "cloned", "generated", "professional", "famous", "high_quality"]).optional(),
  fine_tuning_state: z.string().optional(),
  collection_id: z.string().optional(),
  gender: z.string().optional(),
  age: z.string().optional(),
  language: q.list().optional(),
  accent: z.string().optional(),
  use_cases: q.list().optional(),
  include_total_count: q.bool().optional(),
  voice_ids: q.list().refine((l) => l.length <= 100, "Maximum 100 voice IDs").optional(),
  show_legacy: q.bool().optional(),
});

function matchesType(v: VoiceRecord, type: (typeof VOICE_TYPES)[number] | undefined, caller: Caller): boolean {
  const premade = v.category === "premade";
  const personal = !premade && v.owner_user_id === caller.userId;
  const workspace = !premade && !personal;
  switch (type) {
    case undefined:
      return true;
    case "default":
      return premade;
    case "personal":
      return personal;
    case "workspace":
      return workspace;
    case "community":
      return false; // library voices arrive with the voice library
    case "non-default":
    case "saved":
      return !premade;
    case "non-community":
      return personal || workspace;
  }
}

function searchable(v: VoiceRecord): string {
  return [v.name, v.description ?? "", v.category, ...Object.values(v.labels)].join(" ").toLowerCase();
}

interface PageToken {
  k: string | number;
  id: string;
}

export function registerVoices(r: ApiRouter): void {
  r.onInvalidParam("voice_id", voiceNotFound);
  r.get("/v1/voices", async (req, rc) => {
    const caller = await rc.caller();
    const { show_legacy } = queryParams(req, z.object({ show_legacy: q.bool().optional() }));
    const voices = (await visibleVoices(rc.app, caller)).filter((v) => show_legacy || !v.is_legacy);
    voices.sort((a, b) => a.name.localeCompare(b.name));
    return json({ voices: voices.map((v) => voiceWire(publicBase(rc.app, req), v, caller)) });
  });

  r.get("/v2/voices", async (req, rc) => {
    const caller = await rc.caller();
    const p = queryParams(req, V2Query);
    const terms = (p.search ?? "").toLowerCase().split(/\s+/).filter(Boolean);
    const lower = (s?: string) => s?.toLowerCase();
    let voices = (await visibleVoices(rc.app, caller)).filter(
      (v) =>
        (p.show_legacy || !v.is_legacy || terms.length > 0) &&
        matchesType(v, p.voice_type, caller) &&
        (!p.category || v.category === p.category) &&
        (!p.gender || lower(v.labels.gender) === lower(p.gender)) &&
        (!p.age || lower(v.labels.age) === lower(p.age)) &&
        (!p.accent || lower(v.labels.accent) === lower(p.accent)) &&
        (!p.language || p.language.some((l) => lower(v.labels.language) === lower(l))) &&
        (!p.use_cases || p.use_cases.some((u) => lower(v.labels.use_case) === lower(u))) &&
        (!p.voice_ids || p.voice_ids.includes(v.voice_id)) &&
        (!p.collection_id || false) &&
        (!p.fine_tuning_state || false) &&
        terms.every((t) => searchable(v).includes(t)),
    );
    const sort = p.sort ?? "created_at_unix";
    const dir = (p.sort_direction ?? (sort === "name" ? "asc" : "desc")) === "asc" ? 1 : -1;
    const key = (v: VoiceRecord): string | number => (sort === "name" ? v.name.toLowerCase() : v.created_at_unix);
    const cmp = (a: { k: string | number; id: string }, b: { k: string | number; id: string }) =>
      (a.k < b.k ? -1 : a.k > b.k ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0) * dir;
    voices.sort((a, b) => cmp({ k: key(a), id: a.voice_id }, { k: key(b), id: b.voice_id }));
    const total = voices.length;
    if (p.next_page_token) {
      let after: PageToken;
      try {
        after = z.object({ k: z.union([z.string(), z.number()]), id: z.string() }).parse(JSON.parse(Buffer.from(p.next_page_token, "base64url").toString()));
      } catch {
        throw new ApiError(400, "invalid_page_token", "The next_page_token is not valid for this query.");
      }
      voices = voices.filter((v) => cmp({ k: key(v), id: v.voice_id }, after) > 0);
    }
    const page = voices.slice(0, p.page_size);
    const hasMore = voices.length > page.length;
    const last = page.at(-1);
    return json({
      voices: page.map((v) => voiceWire(publicBase(rc.app, req), v, caller)),
      has_more: hasMore,
      total_count: total,
      next_page_token: hasMore && last ? Buffer.from(JSON.stringify({ k: key(last), id: last.voice_id })).toString("base64url") : null,
    });
  });

  r.get("/v1/voices/settings/default", async () => json(DEFAULT_VOICE_SETTINGS));

  r.get("/v1/voices/:voice_id", async (req, rc) => {
    const caller = await rc.caller();
    const v = await rc.app.stores.voices.visibleTo(caller.workspaceId, req.params.voice_id);
    if (!v) throw voiceNotFound(req.params.voice_id);
    const settings = await settingsFor(rc.app, caller, v);
    return json({ ...voiceWire(publicBase(rc.app, req), v, caller), settings });
  });

  // Preview audio is what <audio src> loads, so premade previews need no credentials; a
  // workspace's own voices stay private to it.
  r.get("/v1/voices/:voice_id/preview", async (req, rc) => {
    const id = req.params.voice_id;
    const premade = (await rc.app.stores.voices.premade()).find((v) => v.voice_id === id);
    const voice = premade ?? (await rc.app.stores.voices.visibleTo((await rc.caller()).workspaceId, id));
    if (!voice?.preview_object_key) throw voiceNotFound(id);
    const audio = await rc.app.blobs.getBytes(voice.preview_object_key);
    if (!audio) throw voiceNotFound(id);
    return bytes(audio.bytes, audio.contentType, { "cache-control": premade ? "public, max-age=3600" : "private, max-age=300" });
  });

  r.get("/v1/voices/:voice_id/settings", async (req, rc) => {
    const caller = await rc.caller();
    const v = await rc.app.stores.voices.visibleTo(caller.workspaceId, req.params.voice_id);
    if (!v) throw voiceNotFound(req.params.voice_id);
    return json(await settingsFor(rc.app, caller, v));
  });

  const editSettings: RouteHandler<RouteContext> = async (req, rc) => {
    const caller = await rc.caller();
    const input = jsonBody(req, VoiceSettingsInput);
    const v = await rc.app.stores.voices.visibleTo(caller.workspaceId, req.params.voice_id);
    if (!v) throw voiceNotFound(req.params.voice_id);
    const next = mergeSettings(await settingsFor(rc.app, caller, v), input);
    if (v.workspace_id === caller.workspaceId) await rc.app.stores.voices.patch(caller.workspaceId, v.voice_id, { settings: next });
    else await rc.app.stores.voices.putWorkspaceSettings(caller.workspaceId, v.voice_id, next);
    return json({ status: "ok" });
  };
  r.post("/v1/voices/:voice_id/settings/edit", editSettings);
  r.post("/v1/voices/:voice_id/settings", editSettings);

  r.delete("/v1/voices/:voice_id", async (req, rc) => {
    const caller = await rc.caller();
    const id = req.params.voice_id;
    const v = await rc.app.stores.voices.visibleTo(caller.workspaceId, id);
    if (!v) throw voiceNotFound(id);
    if (v.workspace_id !== caller.workspaceId) throw new ApiError(403, "voice_not_owned", "Only your own voices can be deleted; premade voices cannot.");
    if (v.owner_user_id !== caller.userId && !(await caller.isAdmin())) {
      throw new ApiError(403, "voice_not_owned", "Only the voice's owner or a workspace admin can delete it.");
    }
    await rc.app.stores.voices.delete(caller.workspaceId, id);
    await rc.app.stores.voices.deleteWorkspaceSettings(caller.workspaceId, id);
    await rc.app.workflows.start("voice-purge", { workspace_id: caller.workspaceId, voice_id: id });
    return json({ status: "ok" });
  });
}

/** The settings a workspace uses for a voice: its own voice's, its override of a premade one, or the defaults. */
export async function settingsFor(ctx: AppContext, caller: Caller, v: VoiceRecord) {
  if (v.workspace_id === caller.workspaceId && v.settings) return v.settings;
  return (await ctx.stores.voices.workspaceSettings(caller.workspaceId, v.voice_id)) ?? v.settings ?? DEFAULT_VOICE_SETTINGS;
}
