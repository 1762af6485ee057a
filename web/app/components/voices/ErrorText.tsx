import { Link } from "@remix-run/react";
import { useShell } from "../../lib/shell.js";
import { isVoiceLimitMessage, voiceLimitVariant } from "./voiceLimit.js";

/**
 * An error message of a dialog that adds voices (role=alert). A voice-limit refusal gets its
 * variant: the upgrade link, or how to make room on the largest plans.
 */
export function ErrorText({ message, id, className = "form-error" }: { message: string; id?: string; className?: string }) {
  const shell = useShell();
  const variant = isVoiceLimitMessage(message) ? voiceLimitVariant(shell?.subscription.tier) : null;
  return (
    <p className={className} role="alert" id={id}>
      {message}
      {variant && (
        <>
          {" "}
          {variant.text}
          {variant.link && (
            <>
              {" "}
              <Link to={variant.link.to}>{variant.link.label}</Link>
            </>
          )}
        </>
      )}
    </p>
  );
}
