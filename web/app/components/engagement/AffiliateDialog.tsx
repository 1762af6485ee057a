import { Link, useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { CopyButton } from "../CopyButton.js";
import { useCsrfToken } from "../Csrf.js";
import { Dialog } from "../Dialog.js";
import { dialogHref } from "../../lib/nav.js";
import { useToast } from "../ui/Toast.js";
import { useShell } from "../../lib/shell.js";
import { AFFILIATE, affiliatePromoEligible } from "./engagement.js";

/**
 * The affiliate dialog (app-shell.md §2): the sign-up view while the user has no referral code,
 * the active-account view (their link) once they have one.
 */
export function AffiliateDialog({ onClose }: { onClose: () => void }) {
  const shell = useShell();
  const csrf = useCsrfToken();
  const toast = useToast();
  const [link, setLink] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const hasCode = Boolean(shell?.user.referralCode) || link !== null;

  async function generate() {
    setBusy(true);
    const form = new FormData();
    form.set("csrf", csrf);
    try {
      const res = await fetch("/app/affiliate-link", { method: "POST", body: form, headers: { accept: "application/json" } });
      if (!res.ok) {
        await res.text();
        throw new Error(String(res.status));
      }
      setLink(((await res.json()) as { link: string }).link);
    } catch {
      toast.show({ message: AFFILIATE.failed, kind: "error" });
    } finally {
      setBusy(false);
    }
  }

  // A user with a code sees their link: fetch it (the same call returns the existing one).
  useEffect(() => {
    if (shell?.user.referralCode && !link) void generate();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shell?.user.referralCode]);

  return (
    <Dialog title="Affiliate program" onClose={onClose}>
      <p>{AFFILIATE.commission}</p>
      {!hasCode ? (
        <>
          <h3>Become an affiliate</h3>
          <p>Generate your referral link and share it. People who create an account through it are counted as your referrals.</p>
          <button type="button" className="button button-primary" disabled={busy} onClick={() => void generate()}>
            {busy ? "Generating…" : "Generate my affiliate link"}
          </button>
        </>
      ) : link ? (
        <div>
          <h3>Your referral link</h3>
          <div className="secret-row">
          <code className="secret" data-testid="affiliate-link">
            {link}
          </code>
          <CopyButton value={link} label="Copy link" />
          </div>
        </div>
      ) : (
        <p className="muted">Loading your link…</p>
      )}
    </Dialog>
  );
}

const FIRST_SHOWN_KEY = "timbre.affiliatePromo.firstShown";

/** The affiliate promotion: for eligible accounts, shown with a 10% chance; its first showing is remembered. */
export function AffiliatePromo() {
  const shell = useShell();
  const location = useLocation();
  const [show, setShow] = useState(false);
  useEffect(() => {
    if (!shell) return;
    const first = localStorage.getItem(FIRST_SHOWN_KEY);
    if (first === "dismissed") return;
    const eligible = first !== null || affiliatePromoEligible({ accountAgeDays: (Date.now() / 1000 - shell.user.createdAtUnix) / 86_400, tier: shell.subscription.tier, hasLink: shell.user.hasReferralLink, random: Math.random() });
    if (!eligible) return;
    if (first === null) localStorage.setItem(FIRST_SHOWN_KEY, String(Date.now()));
    setShow(true);
  }, [shell]);
  if (!show) return null;
  return (
    <div className="promo" role="status">
      <span>{AFFILIATE.commission}</span>
      <Link className="button button-small" to={dialogHref(location, "affiliate")}>
        Become an affiliate
      </Link>
      <button
        type="button"
        className="icon-button"
        aria-label="Dismiss"
        onClick={() => {
          localStorage.setItem(FIRST_SHOWN_KEY, "dismissed");
          setShow(false);
        }}
      >
        ×
      </button>
    </div>
  );
}
