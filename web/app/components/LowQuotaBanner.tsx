import { Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { formatDate, formatPercent } from "../lib/format.js";
import { SUBSCRIPTION_PATH } from "../lib/nav.js";
import { readStored, STORAGE_KEYS, writeStored } from "../lib/persist.js";
import { shouldShowLowQuotaBanner, usagePercent } from "../lib/usage.js";

/** Non-free tiers at 80%+ usage; dismissing hides it for 24 hours (on this device). */
export function LowQuotaBanner({ tier, used, limit, resetsAtUnix }: { tier: string; used: number; limit: number; resetsAtUnix: number | null }) {
  // Decided after hydration: the dismissal time lives in localStorage.
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const stored = Number(readStored(STORAGE_KEYS.lowQuotaDismissedAt));
    setVisible(shouldShowLowQuotaBanner({ tier, used, limit, dismissedAt: Number.isFinite(stored) && stored > 0 ? stored : null, now: Date.now() }));
  }, [tier, used, limit]);

  if (!visible) return null;
  const percent = usagePercent(used, limit);
  return (
    <div className="banner banner-warning" role="status" data-testid="low-quota-banner">
      <p>
        You have used {formatPercent(percent)} of your credits for this period
        {resetsAtUnix !== null ? ` (they reset on ${formatDate(resetsAtUnix)})` : ""}. <Link to={SUBSCRIPTION_PATH}>Update subscription?</Link>
      </p>
      <button
        type="button"
        className="icon-button"
        aria-label="Dismiss low credit warning"
        onClick={() => {
          writeStored(STORAGE_KEYS.lowQuotaDismissedAt, String(Date.now()));
          setVisible(false);
        }}
      >
        ×
      </button>
    </div>
  );
}
