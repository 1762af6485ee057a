import { useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useMemo, useState, type ReactNode } from "react";
import { buildSidebar } from "../lib/nav.js";
import { applyPinnedSidebar, isSidebarPinned } from "../lib/persist.js";
import { navContext, type ShellData } from "../lib/shell.js";
import { applyTheme, currentTheme } from "../lib/theme.js";
import { LowQuotaBanner } from "./LowQuotaBanner.js";
import { BillingBanner } from "./BillingBanner.js";
import { MobileNav } from "./MobileNav.js";
import { QueryDialogs } from "./QueryDialogs.js";
import { ShellTools } from "./engagement/ShellTools.js";
import { AffiliatePromo } from "./engagement/AffiliateDialog.js";
import { Sidebar } from "./Sidebar.js";
import { PageSkeleton } from "./ui/Skeleton.js";

/** Shown only when a page takes this long to load, so fast navigations do not flash. */
const SKELETON_DELAY_MS = 150;

/** True while the loaders of another page run (longer than the delay). */
function useSlowNavigation(): boolean {
  const navigation = useNavigation();
  const location = useLocation();
  const toOtherPage = navigation.state === "loading" && navigation.location.pathname !== location.pathname;
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    if (!toOtherPage) return setSlow(false);
    const timer = setTimeout(() => setSlow(true), SKELETON_DELAY_MS);
    return () => clearTimeout(timer);
  }, [toOtherPage]);
  return slow && toOtherPage;
}

/** The signed-in frame: sidebar (or mobile header and drawer), banner, page, query dialogs. */
export function Shell({ shell, children }: { shell: ShellData; children: ReactNode }) {
  const model = useMemo(() => buildSidebar(navContext(shell)), [shell]);
  const [pinned, setPinned] = useState(false);
  const darkModeAllowed = shell.flags["dark-mode"] === true;
  const loading = useSlowNavigation();

  useEffect(() => setPinned(isSidebarPinned()), []);
  useEffect(() => {
    // Without the dark-mode flag the app stays light whatever was chosen before.
    if (!darkModeAllowed && currentTheme() === "dark") applyTheme("light", false);
  }, [darkModeAllowed]);

  function changePinned(next: boolean) {
    setPinned(next);
    applyPinnedSidebar(next);
  }

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Sidebar shell={shell} model={model} pinned={pinned} onPinnedChange={changePinned} />
      <div className="shell-main">
        <MobileNav shell={shell} model={model} />
        <BillingBanner status={shell.subscription.status} />
        <LowQuotaBanner tier={shell.subscription.tier} used={shell.subscription.used} limit={shell.subscription.limit} resetsAtUnix={shell.subscription.resetsAtUnix} />
        <ShellTools shell={shell} />
        <AffiliatePromo />
        <main id="main" tabIndex={-1}>
          {loading && <PageSkeleton />}
          {/* Hidden, not unmounted: a navigation that does not complete leaves the page as it was. */}
          <div className="page-slot" hidden={loading}>
            {children}
          </div>
        </main>
      </div>
      <QueryDialogs />
    </div>
  );
}
