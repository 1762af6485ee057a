import type { AppContext } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import { randomToken } from "../../platform/adapters/ids.js";

/**
 * The affiliate programme (app-shell.md §2, §4, §9): a referral code and link per user, made on
 * request. Eligibility for the promotion (7 days, 10% chance, some tiers) is decided in the web
 * app, which stores when it first showed it.
 */
export const AFFILIATE_COMMISSION_PERCENT = 22;
export const AFFILIATE_COMMISSION_MONTHS = 12;
export const AFFILIATE_ELIGIBLE_AFTER_DAYS = 7;
export const AFFILIATE_PROMO_CHANCE = 0.1;
/** The spec's tiers (creator, pro, growing_business, scale_2024_08_10) as this server names them. */
export const AFFILIATE_TIERS = ["creator", "pro", "scale", "business"];

export const affiliateLink = (ctx: AppContext, code: string) => `${ctx.config.publicUrl ?? ""}/sign-up?via=${code}`;

export async function generateAffiliateLink(ctx: AppContext, caller: Caller): Promise<{ referral_link_code: string; link: string }> {
  const user = await caller.user();
  const code = user.referral_link_code ?? randomToken(10);
  if (!user.referral_link_code) await ctx.stores.users.update(user.user_id, { referral_link_code: code });
  return { referral_link_code: code, link: affiliateLink(ctx, code) };
}
