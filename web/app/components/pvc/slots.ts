import type { VoiceSlots } from "../voices/wire.js";

/**
 * The professional voice slot upsell (voice-creation.md §6): at the plan's professional voice
 * limit, tiers creator, pro and growing business are offered Business (two more slots); scale
 * (and Business itself, the largest self-serve plan) are sent to sales. Said where the user acts,
 * on the professional clone's intro, instead of a refusal after Create new clone.
 */
export const UPGRADE_TO_BUSINESS_TIERS = new Set(["creator", "pro", "growing_business"]);
export const SALES_PATH = "/app/support";
export const SUBSCRIBE_PATH = "/app/settings/subscription";

export const slotMessages = {
  usedAll: (n: number) => `You have used ${n === 1 ? "your professional voice slot" : `all ${n} of your professional voice slots`}.`,
  upgrade: "Upgrade to Business for two more slots.",
  upgradeLink: "Upgrade to Business",
  sales: "Contact sales for more slots.",
  salesLink: "Contact sales",
} as const;

export interface SlotUpsell {
  message: string;
  link: { label: string; to: string };
}

/** The upsell when no professional voice slot is left, else null (also while the plan is unknown). */
export function pvcSlotUpsell(slots: Pick<VoiceSlots, "tier" | "professional_voice_limit" | "professional_voice_slots_used"> | null): SlotUpsell | null {
  if (!slots || slots.professional_voice_limit <= 0 || slots.professional_voice_slots_used < slots.professional_voice_limit) return null;
  const used = slotMessages.usedAll(slots.professional_voice_limit);
  return UPGRADE_TO_BUSINESS_TIERS.has(slots.tier)
    ? { message: `${used} ${slotMessages.upgrade}`, link: { label: slotMessages.upgradeLink, to: SUBSCRIBE_PATH } }
    : { message: `${used} ${slotMessages.sales}`, link: { label: slotMessages.salesLink, to: SALES_PATH } };
}
