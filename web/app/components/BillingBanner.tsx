import { Link } from "@remix-run/react";
import { SUBSCRIPTION_PATH } from "../lib/nav.js";

/** The spec's billing messages (app-shell.md §8), from the workspace's subscription status. */
export const BILLING_MESSAGES = {
  failedPayment: "You have an incomplete or failed payment.",
  freeDisabled: "Your free tier access has been disabled. Please upgrade to a paid plan.",
} as const;

export function billingMessage(status: string): string | null {
  if (status === "incomplete" || status === "past_due") return BILLING_MESSAGES.failedPayment;
  if (status === "free_disabled") return BILLING_MESSAGES.freeDisabled;
  return null;
}

/** Shown on every page while the status asks for it; not dismissible (it goes when the status changes). */
export function BillingBanner({ status }: { status: string }) {
  const message = billingMessage(status);
  if (!message) return null;
  return (
    <div className={`banner ${status === "free_disabled" ? "banner-error" : "banner-warning"}`} role="alert" data-testid="billing-banner">
      <p>
        {message} <Link to={SUBSCRIPTION_PATH}>Update subscription?</Link>
      </p>
    </div>
  );
}
