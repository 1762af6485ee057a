import { Link, useLocation, useNavigate } from "@remix-run/react";
import { useEffect, useRef, useState, type MouseEvent } from "react";
import { matchesAny } from "../lib/match.js";
import { dialogHref, linkPatterns, menuForRoute, SUBMENU_NAVIGATION_DELAY_MS, type NavLink, type SidebarModel, type SubmenuId } from "../lib/nav.js";
import { readStored, STORAGE_KEYS, writeStored } from "../lib/persist.js";
import { Icon } from "./Icon.js";

/** One navigation entry: a route link, a dialog link, a new-tab link or a submenu opener. */
export function NavEntry({ link, onOpenSubmenu }: { link: NavLink; onOpenSubmenu?: (link: NavLink) => void }) {
  const location = useLocation();
  const active = !link.dialog && matchesAny(linkPatterns(link), location.pathname);
  const body = (
    <>
      {link.icon ? <Icon name={link.icon} /> : <span className="icon icon-blank" aria-hidden="true" />}
      <span className="nav-text">{link.label}</span>
      {link.badge && <span className="badge nav-text">{link.badge}</span>}
      {link.submenu && (
        <span className="nav-text nav-chevron">
          <Icon name="chevron" />
        </span>
      )}
    </>
  );
  if (link.newTab) {
    return (
      <a className="nav-link" href={link.to} target="_blank" rel="noopener noreferrer" title={link.label}>
        {body}
      </a>
    );
  }
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    // Modified clicks (new tab, new window) keep the browser's behaviour.
    if (!link.submenu || !onOpenSubmenu || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    onOpenSubmenu(link);
  };
  return (
    <Link className="nav-link" to={link.dialog ? dialogHref(location, link.dialog) : link.to} aria-current={active ? "page" : undefined} onClick={onClick} title={link.label}>
      {body}
    </Link>
  );
}

/**
 * The main menu and its submenus as two sliding panels. The shown menu follows the route: a
 * submenu's pages show the submenu, main-menu and settings pages the main menu; only where the
 * route decides nothing does the remembered submenu (last opened, across sessions) come back.
 * Opening a submenu slides to it, remembers it and navigates to its first page after a short
 * delay; Back slides home.
 */
export function SidebarNav({ model }: { model: SidebarModel }) {
  const location = useLocation();
  const navigate = useNavigate();
  const route = menuForRoute(model, location.pathname, matchesAny);
  const [submenu, setSubmenu] = useState<SubmenuId | null>(route.kind === "submenu" ? route.id : null);
  const [animate, setAnimate] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const backButton = useRef<HTMLButtonElement>(null);
  const routeKey = route.kind === "submenu" ? route.id : route.kind;

  useEffect(() => {
    // Restoring happens without the slide; later changes animate.
    const frame = requestAnimationFrame(() => setAnimate(true));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer.current);
    };
  }, []);

  useEffect(() => {
    if (route.kind === "submenu") {
      setSubmenu(route.id);
      writeStored(STORAGE_KEYS.submenu, route.id);
    } else if (route.kind === "main") {
      setSubmenu(null);
    } else {
      const stored = readStored(STORAGE_KEYS.submenu);
      setSubmenu(model.submenus.find((m) => m.id === stored)?.id ?? null);
    }
    // The route's decision is what matters, not the object identity.
  }, [routeKey, location.pathname]);

  function openSubmenu(link: NavLink) {
    if (!link.submenu) return;
    setSubmenu(link.submenu);
    writeStored(STORAGE_KEYS.submenu, link.submenu);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => navigate(link.to), SUBMENU_NAVIGATION_DELAY_MS);
    requestAnimationFrame(() => backButton.current?.focus({ preventScroll: true }));
  }

  function back() {
    clearTimeout(timer.current);
    setSubmenu(null);
    writeStored(STORAGE_KEYS.submenu, null);
  }

  const current = model.submenus.find((m) => m.id === submenu);
  return (
    <div className="nav-viewport">
      <div className="nav-panels" data-view={current ? "submenu" : "main"} data-animate={animate ? "true" : undefined}>
        <nav className="nav-panel" aria-label="Main" data-active={current ? "false" : "true"}>
          {model.sections.map((section) => (
            <div className="nav-section" key={section.id}>
              {section.label && <div className="nav-section-label nav-text">{section.label}</div>}
              <ul>
                {section.links.map((link) => (
                  <li key={link.id}>
                    <NavEntry link={link} onOpenSubmenu={openSubmenu} />
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
        {/* The second panel is a landmark only while it holds a submenu. */}
        <div className="nav-panel" data-active={current ? "true" : "false"}>
          {current && (
            <nav aria-label={current.header}>
              <button ref={backButton} type="button" className="nav-link nav-back" onClick={back} title="Back">
                <Icon name="back" />
                <span className="nav-text">Back</span>
              </button>
              <div className="submenu-header nav-text" role="heading" aria-level={2}>
                {current.header}
              </div>
              <ul>
                {current.links.map((link) => (
                  <li key={link.id}>
                    <NavEntry link={link} />
                  </li>
                ))}
              </ul>
            </nav>
          )}
        </div>
      </div>
    </div>
  );
}
