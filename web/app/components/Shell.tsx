import { useEffect, useMemo, useState, type ReactNode } from "react";
import { buildSidebar } from "../lib/nav.js";
import { applyPinnedSidebar, readStored, STORAGE_KEYS } from "../lib/persist.js";
import { navContext, type ShellData } from "../lib/shell.js";
import { applyTheme, currentTheme } from "../lib/theme.js";
import { LowQuotaBanner } from "./LowQuotaBanner.js";
import { MobileNav } from "./MobileNav.js";
import { QueryDialogs } from "./QueryDialogs.js";
import { Sidebar } from "./Sidebar.js";

/** The signed-in frame: sidebar (or mobile header and drawer), banner, page, query dialogs. */
export function Shell({ shell, children }: { shell: ShellData; children: ReactNode }) {
  const model = useMemo(() => buildSidebar(navContext(shell)), [shell]);
  const [pinned, setPinned] = useState(false);
  const darkModeAllowed = shell.flags["dark-mode"] === true;

  useEffect(() => setPinned(readStored(STORAGE_KEYS.pinned) === "true"), []);
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
        <LowQuotaBanner tier={shell.subscription.tier} used={shell.subscription.used} limit={shell.subscription.limit} resetsAtUnix={shell.subscription.resetsAtUnix} />
        <main id="main" tabIndex={-1}>
          {children}
        </main>
      </div>
      <QueryDialogs />
    </div>
  );
}
