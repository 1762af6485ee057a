import { Form, Link, NavLink, useLocation } from "@remix-run/react";
import { useEffect, useId, useState } from "react";
import { matchesAny } from "../lib/match.js";
import { buildSettingsNav, dialogHref, type SettingsEntry } from "../lib/nav.js";
import { navContext, type ShellData } from "../lib/shell.js";
import { applyTheme, currentTheme, type Theme } from "../lib/theme.js";
import { CsrfInput } from "./Csrf.js";
import { Icon } from "./Icon.js";

function ThemeChoice() {
  const [theme, setTheme] = useState<Theme>("light");
  useEffect(() => setTheme(currentTheme()), []);
  return (
    <div className="theme-choice" role="radiogroup" aria-labelledby="settings-theme-label">
      <span id="settings-theme-label" className="theme-choice-label">
        Theme
      </span>
      <span className="segmented">
        {(["light", "dark"] as const).map((t) => (
          <label key={t} className="segment">
            <input
              type="radio"
              name="theme"
              value={t}
              checked={theme === t}
              onChange={() => {
                applyTheme(t);
                setTheme(t);
              }}
            />
            <span>{t === "light" ? "Light" : "Dark"}</span>
          </label>
        ))}
      </span>
    </div>
  );
}

function Entry({ entry }: { entry: SettingsEntry }) {
  const location = useLocation();
  switch (entry.kind) {
    case "link":
      return entry.newTab ? (
        <a className="settings-link" href={entry.to} target="_blank" rel="noopener noreferrer">
          {entry.label}
        </a>
      ) : (
        <NavLink className="settings-link" to={entry.to} end>
          {entry.label}
        </NavLink>
      );
    case "dialog":
      return (
        <Link className="settings-link" to={dialogHref(location, entry.dialog)}>
          {entry.label}
        </Link>
      );
    case "theme":
      return <ThemeChoice />;
    case "residency":
      return (
        <p className="residency" title="Where this workspace's data is stored">
          <span className="residency-dot" aria-hidden="true" /> Data residency: {entry.label}
        </p>
      );
    case "sign-out":
      return (
        <Form method="post" action="/sign-out">
          <CsrfInput />
          <button type="submit" className="settings-link settings-sign-out">
            {entry.label}
          </button>
        </Form>
      );
  }
}

/**
 * The settings navigation (app-shell.md §2 "Settings navigation"): a column beside the page on
 * wide screens; on a phone a one-line menu button above the page (so the page comes first)
 * that opens the same list, closed again by any navigation or Escape.
 */
export function SettingsNav({ shell }: { shell: ShellData }) {
  const groups = buildSettingsNav({ ...navContext(shell), hasAffiliateLink: shell.user.hasReferralLink });
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const listId = useId();
  const current = groups.flatMap((g) => g.entries).find((e) => e.kind === "link" && !e.newTab && matchesAny([e.to], location.pathname));

  useEffect(() => setOpen(false), [location.pathname, location.search]);

  return (
    <nav
      className="settings-nav"
      aria-label="Settings"
      data-open={open ? "true" : undefined}
      onKeyDown={(e) => {
        if (e.key === "Escape" && open) {
          setOpen(false);
          (e.currentTarget.querySelector(".settings-menu-toggle") as HTMLElement | null)?.focus();
        }
      }}
    >
      <button type="button" className="settings-menu-toggle" aria-expanded={open} aria-controls={listId} onClick={() => setOpen((o) => !o)}>
        <span className="muted">Settings</span>
        <span className="settings-menu-current">{current?.label ?? "Menu"}</span>
        <Icon name="chevron" />
      </button>
      <div id={listId} className="settings-groups">
        {groups.map((g) => (
          <div key={g.id} className="settings-group">
            <h2 className="settings-group-label">{g.label}</h2>
            <ul>
              {g.entries.map((e) => (
                <li key={e.id}>
                  <Entry entry={e} />
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </nav>
  );
}
