import { Link } from "@remix-run/react";
import { SUBSCRIPTION_PATH, type NavLink, type SidebarModel } from "../lib/nav.js";
import type { ShellData } from "../lib/shell.js";
import { Icon } from "./Icon.js";
import { ProfileMenu } from "./ProfileMenu.js";
import { NavEntry, SidebarNav } from "./SidebarNav.js";

export function Brand() {
  return (
    <Link to="/app" className="brand" aria-label="Timbre home">
      <img src="/favicon.svg" alt="" width={28} height={28} />
      <span className="nav-text brand-name">Timbre</span>
    </Link>
  );
}

export function UpgradeButton({ model }: { model: SidebarModel }) {
  if (!model.showUpgrade) return null;
  return (
    <Link to={SUBSCRIPTION_PATH} className="nav-link upgrade-button">
      <Icon name="upgrade" />
      <span className="nav-text">Upgrade</span>
    </Link>
  );
}

export function LinkList({ links, label }: { links: NavLink[]; label: string }) {
  return (
    <ul aria-label={label}>
      {links.map((l) => (
        <li key={l.id}>
          <NavEntry link={l} />
        </li>
      ))}
    </ul>
  );
}

export function FooterLinks({ model }: { model: SidebarModel }) {
  return (
    <div className="footer-links nav-text">
      {model.footerLinks.map((l) => (
        <a key={l.id} href={l.to} target="_blank" rel="noopener noreferrer">
          {l.label}
        </a>
      ))}
    </div>
  );
}

/** Resources: the top links, then the secondary links behind "More". */
export function ResourceLinks({ model, includeTopLinks = true }: { model: SidebarModel; includeTopLinks?: boolean }) {
  return (
    <nav className="nav-resources" aria-label="Resources">
      {includeTopLinks && <LinkList links={model.topLinks} label="Documentation" />}
      <details className="nav-more">
        <summary className="nav-link" title="More">
          <Icon name="more" />
          <span className="nav-text">More</span>
        </summary>
        <LinkList links={model.secondaryLinks} label="More links" />
      </details>
    </nav>
  );
}

/**
 * The desktop sidebar: collapsed to 4rem, expanded to 16rem on hover or focus, or pinned open
 * (pinning is offered on extra-wide screens only; CSS hides the button elsewhere).
 */
export function Sidebar({ shell, model, pinned, onPinnedChange }: { shell: ShellData; model: SidebarModel; pinned: boolean; onPinnedChange: (pinned: boolean) => void }) {
  return (
    <aside className="sidebar" aria-label="Sidebar">
      <div className="sidebar-header">
        <Brand />
        <button type="button" className="icon-button pin-button nav-text" aria-pressed={pinned} aria-label={pinned ? "Unpin sidebar" : "Pin sidebar"} onClick={() => onPinnedChange(!pinned)}>
          <Icon name="pin" />
        </button>
      </div>
      <div className="sidebar-scroll">
        <SidebarNav model={model} />
        <ResourceLinks model={model} />
      </div>
      <div className="sidebar-footer">
        <UpgradeButton model={model} />
        <ProfileMenu shell={shell} placement="sidebar" />
        <FooterLinks model={model} />
      </div>
    </aside>
  );
}
