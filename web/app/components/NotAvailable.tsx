import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import type { IconName } from "../lib/nav.js";
import { EmptyState } from "./ui/EmptyState.js";

export interface NextStep {
  label: string;
  to: string;
}

/** What works today, offered from every page that does not yet. */
export const DEFAULT_NEXT_STEP: NextStep = { label: "Create speech in Text to Speech", to: "/app/speech-synthesis/text-to-speech" };

/**
 * The honest state of a page whose feature is not built yet: no placeholder content, and one
 * clear next step to something that works, so the page is never a dead end.
 */
export function NotAvailable({ feature, children, next = DEFAULT_NEXT_STEP, icon = "info" }: { feature: string; children?: ReactNode; next?: NextStep | null; icon?: IconName }) {
  return (
    <EmptyState
      icon={icon}
      title="Not available yet"
      id="not-available-title"
      action={
        next && (
          <Link className="button button-primary" to={next.to}>
            {next.label}
          </Link>
        )
      }
    >
      <p>{feature} is not available in Timbre yet. Nothing on this page is simulated; it will work once the feature is built.</p>
      {children}
    </EmptyState>
  );
}
