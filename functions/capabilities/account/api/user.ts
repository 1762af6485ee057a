import { canBypassVoiceCaptcha } from "../../pvc/records.js";
import { canRequestManualVerification } from "../../pvc/manualVerification.js";
import type { AppContext } from "../../../platform/context.js";
import type { Caller } from "../../../platform/domain/caller.js";
import { currentUsage } from "../../../platform/domain/credits.js";
import { TIERS } from "../../../platform/domain/tiers.js";
import type { ApiRouter } from "../../../platform/http/app.js";
import { json } from "../../../platform/http/types.js";

/** The Subscription wire object (every field the SDK requires, plus the limits our UI reads). */
export async function subscriptionWire(ctx: AppContext, caller: Caller) {
  const [ws, usage, slots] = await Promise.all([caller.workspace(), currentUsage(ctx, caller.workspaceId), ctx.stores.voices.slots(caller.workspaceId)]);
  const tier = TIERS[ws.tier];
  return {
    tier: tier.id,
    character_count: usage.character_count,
    character_limit: usage.character_limit,
    max_character_limit_extension: 0,
    max_credit_limit_extension: 0,
    can_extend_character_limit: tier.canExtendCharacterLimit,
    allowed_to_extend_character_limit: false,
    next_character_count_reset_unix: usage.next_reset_unix,
    voice_slots_used: slots.used,
    professional_voice_slots_used: slots.professional_used,
    professional_voice_slots_used_in_workspace: slots.professional_used,
    voice_limit: tier.voiceLimit,
    max_voice_add_edits: null,
    voice_add_edit_counter: usage.voice_add_edit_counter,
    professional_voice_limit: tier.professionalVoiceLimit,
    can_extend_voice_limit: false,
    can_use_instant_voice_cloning: tier.canUseInstantVoiceCloning,
    can_use_professional_voice_cloning: tier.canUseProfessionalVoiceCloning,
    // Professional clones: the plan skips the voice captcha / may ask for manual verification.
    can_bypass_voice_captcha: canBypassVoiceCaptcha(tier),
    can_request_manual_pro_voice_verification: canRequestManualVerification(tier),
    currency: "usd",
    current_overage: { amount: "0", currency: "usd" },
    status: ws.status,
    billing_period: "monthly_period",
    character_refresh_period: "monthly_period",
    next_invoice: null,
    open_invoices: [],
    has_open_invoices: false,
    max_seats: tier.maxSeats,
    concurrency: tier.concurrency,
    allowed_output_formats: tier.outputFormats,
    force_logging_disabled: ws.force_logging_disabled,
  };
}

export function registerUser(r: ApiRouter): void {
  r.get("/v1/user/subscription", async (_req, rc) => json(await subscriptionWire(rc.app, await rc.caller())));

  r.get("/v1/user", async (_req, rc) => {
    const caller = await rc.caller();
    const [user, ws, member, subscription] = await Promise.all([caller.user(), caller.workspace(), caller.member(), subscriptionWire(rc.app, caller)]);
    const checklistDone = user.onboarding_checklist.items.length > 0 && user.onboarding_checklist.items.every((i) => i.is_completed);
    return json({
      user_id: user.user_id,
      workspace_id: ws.workspace_id,
      subscription,
      is_new_user: rc.app.now() / 1000 - user.created_at < 7 * 24 * 3600,
      can_use_delayed_payment_methods: false,
      is_onboarding_completed: user.is_onboarding_completed,
      is_onboarding_checklist_completed: checklistDone,
      show_compliance_terms: false,
      first_name: user.first_name,
      is_api_key_hashed: true,
      xi_api_key_preview: caller.principal.apiKeyPrefix ? `${caller.principal.apiKeyPrefix}…` : null,
      referral_link_code: user.referral_link_code ?? null,
      partnerstack_partner_default_link: null,
      created_at: user.created_at,
      seat_type: member.seat_type,
      email: user.email,
      // Null when the user gave no name: the shell then shows "My Account".
      display_name: user.first_name,
      photo_url: user.photo_url,
      is_producer: user.is_producer,
      workspace_name: ws.name,
      is_server_admin: await caller.isServerAdmin(),
      onboarding_checklist: user.onboarding_checklist,
      onboarding_survey: user.onboarding_survey ?? null,
    });
  });
}
