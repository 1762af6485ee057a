import { voiceMessages } from "../../../../functions/platform/contract/voices.js";

/**
 * 'Voice limit of {n} reached' with its variants (voice-creation.md §8): where a plan above offers
 * more voice slots, the message offers the upgrade; on the largest plan it says how to make room.
 */
export const voiceLimitMessages = {
  upgrade: "Upgrade your plan to add more voices.",
  upgradeLink: "Upgrade",
  makeRoom: "Delete a voice you no longer use to add another.",
} as const;

/** Tiers with a larger voice limit above them (the self-serve plans below Scale and Business). */
const CAN_UPGRADE = new Set(["free", "starter", "creator", "pro"]);

const LIMIT = new RegExp(`\\b${voiceMessages.voiceLimitReached(0).replace("0", "\\d+")}`);

export const isVoiceLimitMessage = (message: string | null | undefined): boolean => !!message && LIMIT.test(message);

export function voiceLimitVariant(tier: string | undefined): { text: string; link: { label: string; to: string } | null } {
  return tier === undefined || CAN_UPGRADE.has(tier)
    ? { text: voiceLimitMessages.upgrade, link: { label: voiceLimitMessages.upgradeLink, to: "/app/settings/subscription" } }
    : { text: voiceLimitMessages.makeRoom, link: null };
}
