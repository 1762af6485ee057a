import { useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import type { SidebarModel } from "../lib/nav.js";
import type { ShellData } from "../lib/shell.js";
import { Icon } from "./Icon.js";
import { ProfileMenu } from "./ProfileMenu.js";
import { Brand, FooterLinks, LinkList, ResourceLinks, UpgradeButton } from "./Sidebar.js";
import { SidebarNav } from "./SidebarNav.js";

/**
 * Below large screens: a header with the open-sidebar button and the profile menu, and a drawer
 * with the navigation plus the Audio Tools, Contact and Documentation groups. It closes on route
 * change, on Escape and on the backdrop.
 */
export function MobileNav({ shell, model }: { shell: ShellData; model: SidebarModel }) {
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const opener = useRef<HTMLButtonElement>(null);
  const closer = useRef<HTMLButtonElement>(null);

  useEffect(() => setOpen(false), [location.pathname]);
  useEffect(() => {
    if (open) closer.current?.focus();
  }, [open]);

  function close() {
    setOpen(false);
    opener.current?.focus();
  }

  return (
    <>
      <header className="mobile-header">
        <button ref={opener} type="button" className="icon-button" aria-label="Open sidebar" aria-expanded={open} aria-controls="mobile-drawer" onClick={() => setOpen(true)}>
          <Icon name="menu" />
        </button>
        <Brand />
        <ProfileMenu shell={shell} placement="header" />
      </header>
      {open && (
        <>
          <div className="drawer-backdrop" onClick={close} aria-hidden="true" />
          <div id="mobile-drawer" className="drawer" role="dialog" aria-modal="true" aria-label="Navigation"
            onKeyDown={(e) => {
              if (e.key === "Escape") close();
            }}>
            <div className="sidebar-header">
              <Brand />
              <button ref={closer} type="button" className="icon-button" aria-label="Close sidebar" onClick={close}>
                <Icon name="close" />
              </button>
            </div>
            <SidebarNav model={model} />
            {model.mobileSections.map((s) => (
              <div className="nav-section" key={s.id}>
                <div className="nav-section-label">{s.label}</div>
                <LinkList links={s.links} label={s.label ?? s.id} />
              </div>
            ))}
            <ResourceLinks model={model} />
            <UpgradeButton model={model} />
            <FooterLinks model={model} />
          </div>
        </>
      )}
    </>
  );
}
