import { useLocation } from "@remix-run/react";
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import type { SidebarModel } from "../lib/nav.js";
import { LARGE_QUERY, useMediaQuery } from "../lib/useMediaQuery.js";
import type { ShellData } from "../lib/shell.js";
import { Icon } from "./Icon.js";
import { ProfileMenu } from "./ProfileMenu.js";
import { Brand, FooterLinks, LinkList, ResourceLinks, UpgradeButton } from "./Sidebar.js";
import { SidebarNav } from "./SidebarNav.js";

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

/** The elements Tab can reach inside `root`, in order (hidden ones left out). */
function tabbables(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => el.getClientRects().length > 0 && !el.closest("[inert]"));
}

/**
 * Below large screens: a header with the open-sidebar button and the profile menu, and a drawer
 * with the navigation plus the Audio Tools, Contact and Documentation groups. The drawer is a
 * modal dialog: the page behind it is inert, Tab stays inside, Escape and the backdrop close it,
 * and focus returns to the menu button. It also closes on route change, and when the screen becomes large.
 */
export function MobileNav({ shell, model }: { shell: ShellData; model: SidebarModel }) {
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const opener = useRef<HTMLButtonElement>(null);
  const closer = useRef<HTMLButtonElement>(null);
  const drawer = useRef<HTMLDialogElement>(null);

  useEffect(() => setOpen(false), [location.pathname]);
  // A screen that becomes large (a tablet turned to landscape, a window widened) has no header and shows the sidebar:
  // the drawer closes instead of staying a modal over the wide layout with its menu button gone.
  const large = useMediaQuery(LARGE_QUERY);
  useEffect(() => {
    if (large) setOpen(false);
  }, [large]);

  useEffect(() => {
    const dialog = drawer.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      closer.current?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  useEffect(() => {
    const dialog = drawer.current;
    if (!dialog) return;
    // Escape (the dialog's cancel), the backdrop or a route change: focus goes back to the menu button.
    const onClose = () => {
      setOpen(false);
      opener.current?.focus({ preventScroll: true });
    };
    const onBackdrop = (e: MouseEvent) => {
      if (e.target === dialog) dialog.close();
    };
    dialog.addEventListener("close", onClose);
    dialog.addEventListener("click", onBackdrop);
    return () => {
      dialog.removeEventListener("close", onClose);
      dialog.removeEventListener("click", onBackdrop);
      if (dialog.open) dialog.close();
    };
  }, []);

  function trapTab(e: KeyboardEvent<HTMLDialogElement>) {
    if (e.key !== "Tab" || !drawer.current) return;
    const items = tabbables(drawer.current);
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
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
      <dialog ref={drawer} id="mobile-drawer" className="drawer" aria-label="Navigation" onKeyDown={trapTab}>
        {open && (
          <div className="drawer-body">
            <div className="sidebar-header">
              <Brand />
              <button ref={closer} type="button" className="icon-button" aria-label="Close sidebar" onClick={() => drawer.current?.close()}>
                <Icon name="close" />
              </button>
            </div>
            {/* The Audio Tools group below lists Voice Isolator, Voice Changer and Sound Effects: once. */}
            <SidebarNav model={{ ...model, sections: model.drawerSections }} />
            {model.mobileSections.map((s) => (
              <div className="nav-section" key={s.id}>
                <div className="nav-section-label">{s.label}</div>
                <LinkList links={s.links} label={s.label ?? s.id} />
              </div>
            ))}
            {/* Guides, API Reference and Changelog are the Documentation group above; only More remains. */}
            <ResourceLinks model={model} includeTopLinks={false} />
            <div className="drawer-footer">
              <UpgradeButton model={model} />
              <FooterLinks model={model} />
            </div>
          </div>
        )}
      </dialog>
    </>
  );
}
