import { z } from "zod";
import { OUTPUT_FORMATS, parseOutputFormat } from "../../../media/audio/formats.js";
import { assertOutputFormat } from "../../../platform/domain/speechRules.js";
import type { ApiRouter, RouteContext } from "../../../platform/http/app.js";
import type { RouteHandler } from "../../../platform/http/router.js";
import { json, stream } from "../../../platform/http/types.js";
import { jsonBody, queryParams } from "../../../platform/http/validate.js";
import {
  CreateVoiceFromPreviewBody,
  PREVIEW_TEXT_MAX,
  PREVIEW_TEXT_MIN,
  PreviewTextBody,
  VoiceDesignBody,
  VoiceRemixBody,
} from "../../../platform/contract/voiceCreation.js";
import { designVoices, previewTextForDescription } from "../design.js";
import { createVoiceFromPreview, generatedVoiceNotFound } from "../save.js";
import { unixSeconds } from "../../../platform/context.js";
import { assertCanManage, voiceNotFound } from "../../voices/records.js";
import { publicBase, settingsFor } from "../../voices/api/voices.js";
import { wireContext } from "../../voices/manage.js";
import { voiceWire } from "../../voices/wire.js";

/**
 * Text to voice (contract §7): voice design, its legacy previews call, remix, saving a preview
 * as a voice, streaming a preview; and Timbre's helpers for the dialog (text limits, preview
 * text for a description). Designing needs the voice_lab permission.
 */
const DesignQuery = z.object({
  output_format: z.enum(OUTPUT_FORMATS as unknown as [string, ...string[]]).default("mp3_44100_128"),
});

export function registerTextToVoice(r: ApiRouter): void {
  const design =
    (legacy: boolean): RouteHandler<RouteContext> =>
    async (req, rc) => {
      const caller = await rc.caller();
      await caller.require("voice_lab");
      const { output_format } = queryParams(req, DesignQuery);
      assertOutputFormat(await caller.tier(), output_format);
      const body = jsonBody(req, VoiceDesignBody);
      // The legacy call has no model: it is the older one, without reference audio.
      const input = legacy ? { ...body, model_id: null, reference_audio_base64: null, prompt_strength: null } : body;
      return json(await designVoices(rc.app, caller, { body: input, format: parseOutputFormat(output_format), requestId: req.requestId }));
    };
  r.post("/v1/text-to-voice/design", design(false));
  r.post("/v1/text-to-voice/create-previews", design(true));

  r.post("/v1/text-to-voice/:voice_id/remix", async (req, rc) => {
    const caller = await rc.caller();
    await caller.require("voice_lab");
    const { output_format } = queryParams(req, DesignQuery);
    assertOutputFormat(await caller.tier(), output_format);
    const body = jsonBody(req, VoiceRemixBody);
    const v = await rc.app.stores.voices.get(caller.workspaceId, req.params.voice_id);
    if (!v) throw voiceNotFound(req.params.voice_id);
    await assertCanManage(caller, v);
    const input = { ...body, model_id: null, reference_audio_base64: null, reference_voice_id: null, quality: null, should_enhance: null };
    return json(await designVoices(rc.app, caller, { body: input, format: parseOutputFormat(output_format), requestId: req.requestId, remixOf: v }));
  });

  const create: RouteHandler<RouteContext> = async (req, rc) => {
    const caller = await rc.caller();
    await caller.require("voice_lab");
    const body = jsonBody(req, CreateVoiceFromPreviewBody);
    const voice = await createVoiceFromPreview(rc.app, caller, body);
    const w = await wireContext(rc.app, caller, publicBase(rc.app, req), [voice]);
    return json({ ...voiceWire(voice, w), settings: await settingsFor(rc.app, caller, voice) });
  };
  r.post("/v1/text-to-voice", create);
  r.post("/v1/text-to-voice/create-voice-from-preview", create);

  r.get("/v1/text-to-voice/text-limits", async (_req, rc) => {
    await rc.caller();
    return json({ minimum_characters: PREVIEW_TEXT_MIN, maximum_characters: PREVIEW_TEXT_MAX });
  });

  r.post("/v1/text-to-voice/generate-preview-text", async (req, rc) => {
    await rc.caller();
    const body = jsonBody(req, PreviewTextBody);
    return json(previewTextForDescription(body.voice_description.trim()));
  });

  r.get("/v1/text-to-voice/:generated_voice_id/stream", async (req, rc) => {
    const caller = await rc.caller();
    const g = await rc.app.stores.generatedVoices.get(caller.workspaceId, req.params.generated_voice_id, unixSeconds(rc.app));
    if (!g) throw generatedVoiceNotFound(req.params.generated_voice_id);
    const object = await rc.app.blobs.getStream(g.audio_object_key);
    if (!object) throw generatedVoiceNotFound(req.params.generated_voice_id);
    return stream(object.stream, g.media_type, object.length !== undefined ? { "content-length": String(object.length) } : {});
  });
}
