/**
 * The assistant's dynamic variables (speech-generation.md §7 Support assistant), read from the
 * account on the server: the page never supplies them, so a user cannot talk the assistant into
 * another tier, figure or permission.
 */
import type { AppContext } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import { currentUsage } from "../../platform/domain/credits.js";
import type { PermissionId } from "../../platform/domain/permissions.js";
import { TIERS } from "../../platform/domain/tiers.js";

export interface DynamicVariables {
  firstName: string | null;
  tier: string;
  /** The user's geo location: Timbre does not locate its users, so it is not known. */
  location: string | null;
  twoFactorAuthEnabled: boolean;
  maxSeats: number;
  /** YYYY-MM-DD. */
  accountCreatedDate: string;
  canUseProfessionalVoiceCloning: boolean;
  currentCreditsUsage: number;
  totalAvailableMonthlyCredits: number;
  /** YYYY-MM-DD. */
  nextCharacterResetDate: string;
  /** What the user said they came for: Timbre's onboarding does not ask, so it is not known. */
  goal: string | null;
}

/** What the assistant knows about its user: the spec's variables plus the permissions its tools obey. */
export interface AssistantAccount {
  vars: DynamicVariables;
  email: string;
  tierId: string;
  voiceLimit: number;
  canUseInstantVoiceCloning: boolean;
  permissions: ReadonlySet<PermissionId>;
}

const day = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString().slice(0, 10);

export async function loadAccount(ctx: AppContext, caller: Caller): Promise<AssistantAccount> {
  const [user, ws, usage, permissions] = await Promise.all([caller.user(), caller.workspace(), currentUsage(ctx, caller.workspaceId), caller.permissions()]);
  const tier = TIERS[ws.tier];
  return {
    vars: {
      firstName: user.first_name,
      tier: tier.name,
      location: null,
      twoFactorAuthEnabled: Boolean(user.two_factor),
      maxSeats: tier.maxSeats,
      accountCreatedDate: day(user.created_at),
      canUseProfessionalVoiceCloning: tier.canUseProfessionalVoiceCloning && permissions.has("create_professional_voice_clone"),
      currentCreditsUsage: usage.character_count,
      totalAvailableMonthlyCredits: usage.character_limit,
      nextCharacterResetDate: day(usage.next_reset_unix),
      goal: null,
    },
    email: user.email,
    tierId: tier.id,
    voiceLimit: tier.voiceLimit,
    canUseInstantVoiceCloning: tier.canUseInstantVoiceCloning,
    permissions,
  };
}
