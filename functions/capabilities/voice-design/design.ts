/**
 * Voice Design (text to voice): a description becomes three preview voices. The prompt is read
 * (./prompt.ts), refused when it names a real person (blocked_generation) or a language the
 * engine does not speak, turned into three profiles (./profiles.ts), charged for its preview
 * text, spoken by the engine, and each preview is kept for a day as a generated voice that
 * POST /v1/text-to-voice can save. A failure after the charge refunds it.
 */
import { randomInt } from "node:crypto";
import type { AppContext } from "../../platform/context.js";
import { unixSeconds } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import type { VoiceRecord } from "../../platform/stores/voices.js";
import type { GeneratedVoiceKind, GeneratedVoiceRecord } from "../../platform/stores/generatedVoices.js";
import { workspaceKey } from "../../platform/adapters/s3.js";
import { newId } from "../../platform/adapters/ids.js";
import { charge, refund, requireUsablePlan } from "../../platform/domain/credits.js";
import { ApiError, ValidationError } from "../../platform/http/errors.js";
import { codePointLength } from "../../platform/contract/text.js";
import type { OutputFormat } from "../../media/audio/formats.js";
import { supportedLanguages } from "../../media/engine/espeak/voices.js";
import {
  AUTO_SEED_BELOW,
  DESIGN_DEFAULTS,
  GENERATED_VOICE_TTL_SECONDS,
  PREVIEW_TEXT_MAX,
  PREVIEW_TEXT_MIN,
  VOICE_DESIGN_V3,
  designMessages,
  type VoiceDesignBody,
} from "../../platform/contract/voiceCreation.js";
import { parsePrompt, type PromptTraits } from "./prompt.js";
import { designProfiles, remixProfiles, type DesignedVoice } from "./profiles.js";
import { previewTextFor } from "./previewText.js";
import { LANGUAGE_DISPLAY } from "./lexicon.js";
import { speakEncoded } from "../voice-clone/render.js";
import { referenceFromAudio, referenceFromVoice } from "../voice-clone/reference.js";

export interface DesignRequest {
  body: VoiceDesignBody;
  format: OutputFormat;
  requestId: string;
  /** Remix: the caller's voice the description changes. */
  remixOf?: VoiceRecord;
  signal?: AbortSignal;
}

export interface PreviewWire {
  audio_base_64: string;
  generated_voice_id: string;
  media_type: string;
  duration_secs: number;
  language: string;
}

export const blockedGeneration = () => new ApiError(400, "blocked_generation", designMessages.blockedGeneration);

/** Reads a description and refuses what the engine must not or cannot do. */
export function readPrompt(description: string): PromptTraits {
  const traits = parsePrompt(description);
  if (traits.namedPerson) throw blockedGeneration();
  if (traits.unspokenLanguage) {
    const spoken = supportedLanguages().map((l) => l.name).join(", ");
    throw new ApiError(400, "unsupported_language", designMessages.unsupportedLanguage(traits.unspokenLanguage, spoken));
  }
  return traits;
}

/** The preview text: the caller's (trimmed, within the limits), or one written for the description. */
export function previewText(body: Pick<VoiceDesignBody, "text" | "auto_generate_text">, traits: PromptTraits, description: string): string {
  const given = body.text?.trim() ?? "";
  if (!given) {
    if (body.auto_generate_text) return previewTextFor(traits, description);
    throw new ValidationError([{ loc: ["body", "text"], msg: designMessages.previewTextRequired, type: "value_error" }]);
  }
  const n = codePointLength(given);
  if (n < PREVIEW_TEXT_MIN || n > PREVIEW_TEXT_MAX) {
    throw new ValidationError([{ loc: ["body", "text"], msg: designMessages.previewTextRange(PREVIEW_TEXT_MIN, PREVIEW_TEXT_MAX), type: "value_error" }]);
  }
  return given;
}

async function referenceProfile(ctx: AppContext, caller: Caller, body: VoiceDesignBody, traits: PromptTraits, signal?: AbortSignal) {
  if (body.reference_audio_base64) {
    if ((body.model_id ?? "eleven_multilingual_ttv_v2") !== VOICE_DESIGN_V3) throw new ApiError(400, "reference_needs_v3", designMessages.referenceNeedsV3);
    const bytes = Buffer.from(body.reference_audio_base64, "base64");
    return referenceFromAudio(ctx, bytes, traits.language, signal);
  }
  if (body.reference_voice_id) return referenceFromVoice(ctx, caller, body.reference_voice_id);
  return null;
}

export async function designVoices(ctx: AppContext, caller: Caller, req: DesignRequest): Promise<{ previews: PreviewWire[]; text: string }> {
  const { body } = req;
  const description = body.voice_description.trim();
  const traits = readPrompt(description);
  const text = previewText(body, traits, description);
  const seed = body.seed ?? randomInt(0, AUTO_SEED_BELOW);
  const options = {
    seed,
    guidanceScale: body.guidance_scale ?? DESIGN_DEFAULTS.guidanceScale,
    // The newer model has no quality slider (voice-creation.md §2.2): its default applies.
    quality: body.model_id === VOICE_DESIGN_V3 ? DESIGN_DEFAULTS.quality : (body.quality ?? DESIGN_DEFAULTS.quality),
    loudness: body.loudness ?? DESIGN_DEFAULTS.loudness,
    promptStrength: body.prompt_strength ?? (req.remixOf ? 0.75 : DESIGN_DEFAULTS.promptStrength),
  };
  let voices: DesignedVoice[];
  let kind: GeneratedVoiceKind = "design";
  if (req.remixOf) {
    kind = "remix";
    voices = remixProfiles(req.remixOf.profile, traits, options);
  } else {
    const reference = await referenceProfile(ctx, caller, body, traits, req.signal);
    voices = designProfiles(traits, { ...options, reference });
  }

  const chargeKey = `ttv:${req.requestId}`;
  await requireUsablePlan(caller);
  await charge(ctx, { workspaceId: caller.workspaceId, key: chargeKey, amount: codePointLength(text) });
  try {
    const now = unixSeconds(ctx);
    const rendered = await Promise.all(
      voices.map(async (v) => {
        const audio = await speakEncoded(ctx, v.profile, text, req.format, { settings: v.settings, seed, signal: req.signal });
        const id = newId();
        const key = workspaceKey(caller.workspaceId, "generated", `${id}.${extensionOf(req.format.codec)}`);
        await ctx.blobs.put(key, audio.audio, req.format.contentType);
        const record: GeneratedVoiceRecord = {
          generated_voice_id: id,
          workspace_id: caller.workspaceId,
          user_id: caller.userId,
          kind,
          description,
          profile: v.profile,
          settings: v.settings,
          labels: v.labels,
          language: v.profile.language,
          text,
          audio_object_key: key,
          media_type: req.format.contentType,
          duration_secs: audio.durationSecs,
          source_voice_id: req.remixOf?.voice_id ?? null,
          clone: null,
          created_at_unix: now,
          expires_at_unix: now + GENERATED_VOICE_TTL_SECONDS,
        };
        await ctx.stores.generatedVoices.put(record);
        return { record, audio: audio.audio };
      }),
    );
    await sweepGenerated(ctx, caller.workspaceId).catch((e: unknown) => ctx.log.warn("generated voice sweep failed", { error: String(e) }));
    return {
      text,
      previews: rendered.map(({ record, audio }) => ({
        audio_base_64: body.stream_previews ? "" : Buffer.from(audio).toString("base64"),
        generated_voice_id: record.generated_voice_id,
        media_type: record.media_type,
        duration_secs: record.duration_secs,
        language: record.language,
      })),
    };
  } catch (e) {
    await refund(ctx, caller.workspaceId, chargeKey).catch(() => undefined);
    throw e;
  }
}

export function extensionOf(codec: OutputFormat["codec"]): string {
  return codec === "opus" ? "ogg" : codec === "ulaw" || codec === "alaw" ? "raw" : codec;
}

/** Expired previews of the workspace: their records and their audio. */
export async function sweepGenerated(ctx: AppContext, ws: string): Promise<void> {
  const expired = await ctx.stores.generatedVoices.sweepExpired(ws, unixSeconds(ctx));
  const keys = expired.flatMap((g) => [g.audio_object_key, ...(g.clone?.samples.flatMap((s) => [s.object_key, ...(s.isolated_object_key ? [s.isolated_object_key] : [])]) ?? [])]);
  if (keys.length) await ctx.blobs.deleteMany(keys);
}

/** The description's language, for the "Generate preview text" call. */
export function previewTextForDescription(description: string): { text: string; language: string } {
  const traits = readPrompt(description);
  return { text: previewTextFor(traits, description), language: LANGUAGE_DISPLAY[traits.language] ?? traits.language };
}
