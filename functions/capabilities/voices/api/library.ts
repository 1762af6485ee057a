import { z } from "zod";
import type { ApiRouter } from "../../../platform/http/app.js";
import { json } from "../../../platform/http/types.js";
import { jsonBody, q, queryParams } from "../../../platform/http/validate.js";
import { ValidationError } from "../../../platform/http/errors.js";
import { SIMILAR_AUDIO_MAX_BYTES, SIMILAR_TOP_K_MAX, SIMILARITY_THRESHOLD_MAX, SimilarVoicesByIdBody } from "../../../platform/contract/voices.js";
import { AddSharedVoiceBody, LIBRARY_CATEGORIES, LIBRARY_PAGE_SIZE_DEFAULT, LIBRARY_PAGE_SIZE_MAX, LIBRARY_SORT_VALUES, PublishVoiceBody } from "../../../platform/contract/voices.js";
import { addLibraryVoice, publishVoice, unpublishOwnVoice } from "../library.js";
import { searchSharedVoices, sharedVoice } from "../sharedVoices.js";
import { similarToAudio, similarToVoice } from "../similar.js";
import { field, parseMultipart } from "../../../platform/http/multipart.js";
import { parseWith } from "../../../platform/http/validate.js";
import { voiceWire } from "../wire.js";
import { wireContext } from "../manage.js";
import { publicBase } from "./voices.js";

/** The voice library: search, add to My Voices, publish and unpublish one's own voice. */
const SharedVoicesQuery = z.object({
  page_size: q.int(1, LIBRARY_PAGE_SIZE_MAX).default(LIBRARY_PAGE_SIZE_DEFAULT),
  page: q.int(0, 10_000).default(0),
  category: z.enum(LIBRARY_CATEGORIES).optional(),
  gender: z.string().max(50).optional(),
  age: z.string().max(50).optional(),
  accent: z.string().max(50).optional(),
  language: z.string().max(20).optional(),
  locale: z.string().max(20).optional(),
  search: z.string().max(200).optional(),
  use_cases: q.list().refine((l) => l.length <= 10, "At most 10 use cases").optional(),
  descriptives: q.list().refine((l) => l.length <= 10, "At most 10 descriptives").optional(),
  featured: q.bool().optional(),
  min_notice_period_days: q.int(0, 10_000).optional(),
  include_custom_rates: q.bool().optional(),
  include_live_moderated: q.bool().optional(),
  reader_app_enabled: q.bool().optional(),
  owner_id: z.string().max(64).optional(),
  sort: z.enum(LIBRARY_SORT_VALUES).optional(),
  last_sort_id: z.string().regex(/^\d{15}#\d{12}#[A-Za-z0-9]{1,64}$/, "Not a last_sort_id this API answered").optional(),
});

/** The multipart fields of POST /v1/similar-voices besides the file. */
const SimilarFields = z.object({
  similarity_threshold: z.coerce.number().min(0).max(SIMILARITY_THRESHOLD_MAX).optional(),
  top_k: z.coerce.number().int().min(1).max(SIMILAR_TOP_K_MAX).optional(),
});

export function registerLibrary(r: ApiRouter): void {
  r.get("/v1/shared-voices", async (req, rc) => {
    const caller = await rc.caller();
    const p = queryParams(req, SharedVoicesQuery);
    return json(await searchSharedVoices(rc.app, caller, publicBase(rc.app, req), p));
  });

  // Timbre's own: one listed voice by id (the library page opens a voice Text to Speech sent it).
  r.get("/v1/shared-voices/:voice_id", async (req, rc) => {
    const caller = await rc.caller();
    return json(await sharedVoice(rc.app, caller, publicBase(rc.app, req), req.params.voice_id));
  });

  r.post("/v1/similar-voices", async (req, rc) => {
    const caller = await rc.caller();
    // The file bound is checked while parsing: a larger upload is cut there and refused.
    const form = await parseMultipart(req, { maxFileBytes: SIMILAR_AUDIO_MAX_BYTES, maxFiles: 1, maxFields: 10, maxFieldBytes: 1024 });
    const blank = (v: string | undefined) => (v === undefined || v.trim() === "" ? undefined : v);
    const p = parseWith("body", SimilarFields, { similarity_threshold: blank(field(form, "similarity_threshold")), top_k: blank(field(form, "top_k")) });
    const file = form.files.find((f) => f.field === "audio_file");
    return json(await similarToAudio(rc.app, caller, publicBase(rc.app, req), file, { threshold: p.similarity_threshold, topK: p.top_k }));
  });

  r.post("/v1/similar-voices-by-id", async (req, rc) => {
    const caller = await rc.caller();
    const body = jsonBody(req, SimilarVoicesByIdBody);
    return json(await similarToVoice(rc.app, caller, publicBase(rc.app, req), body.voice_id, { threshold: body.similarity_threshold ?? undefined, topK: body.top_k ?? undefined }));
  });

  r.post("/v1/voices/add/:public_user_id/:voice_id", async (req, rc) => {
    const caller = await rc.caller();
    const body = jsonBody(req, AddSharedVoiceBody);
    const voiceId = await addLibraryVoice(rc.app, caller, req.params.public_user_id, req.params.voice_id, body);
    return json({ voice_id: voiceId });
  });

  // Timbre's own: the SDK has no call for sharing one's voice (contract §2).
  r.post("/v1/voices/:voice_id/sharing", async (req, rc) => {
    const caller = await rc.caller();
    const body = jsonBody(req, PublishVoiceBody);
    if (body.labels && Object.keys(body.labels).some((k) => !["language", "accent", "gender", "age"].includes(k))) {
      throw new ValidationError([{ loc: ["body", "labels"], msg: "Labels can be language, accent, gender or age", type: "value_error" }]);
    }
    await publishVoice(rc.app, caller, req.params.voice_id, body);
    const v = (await rc.app.stores.voices.get(caller.workspaceId, req.params.voice_id))!;
    return json(voiceWire(v, await wireContext(rc.app, caller, publicBase(rc.app, req), [v])));
  });

  r.delete("/v1/voices/:voice_id/sharing", async (req, rc) => {
    const caller = await rc.caller();
    const listing = await unpublishOwnVoice(rc.app, caller, req.params.voice_id);
    return json({ status: "ok", disable_at_unix: listing.disable_at_unix });
  });
}
