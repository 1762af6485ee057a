import { MODELS } from "../../../platform/domain/models.js";
import type { ApiRouter } from "../../../platform/http/app.js";
import { json } from "../../../platform/http/types.js";

export function modelWire(m: (typeof MODELS)[number], customRate?: number) {
  return {
    model_id: m.model_id,
    name: m.name,
    description: m.description,
    can_be_finetuned: m.can_be_finetuned,
    can_do_text_to_speech: m.can_do_text_to_speech,
    can_do_voice_conversion: m.can_do_voice_conversion,
    can_use_style: m.can_use_style,
    can_use_speaker_boost: m.can_use_speaker_boost,
    serves_pro_voices: m.serves_pro_voices,
    token_cost_factor: customRate ?? m.character_cost_multiplier,
    requires_alpha_access: m.requires_alpha_access,
    max_characters_request_free_user: m.maximum_text_length_per_request,
    max_characters_request_subscribed_user: m.maximum_text_length_per_request,
    maximum_text_length_per_request: m.maximum_text_length_per_request,
    languages: m.languages,
    model_rates: { character_cost_multiplier: customRate ?? m.character_cost_multiplier, cost_discount_multiplier: 1 },
    concurrency_group: m.concurrency_group,
    high_quality_base_model_ids: [],
  };
}

export function registerModels(r: ApiRouter): void {
  r.get("/v1/models", async (_req, rc) => {
    const ws = await (await rc.caller()).workspace();
    return json(MODELS.map((m) => modelWire(m, ws.custom_model_rates[m.model_id])));
  });
}
