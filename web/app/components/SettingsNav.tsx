import { Form, Link, NavLink, useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { buildSettingsNav, type SettingsEntry } from "../lib/nav.js";
import { navContext, type ShellData } from "../lib/shell.js";
import { applyTheme, currentTheme, type Theme } from "../lib/theme.js";
import { CsrfInput } from "./Csrf.js";
import { dialogHref } from "./QueryDialogs.js";

function ThemeChoice() {
  const [theme, setTheme] = useState<Theme>("light");
  useEffect(() => setTheme(currentTheme()), []);
  return (
    <div className="theme-choice" role="radiogroup" aria-labelledby="settings-theme-label">
      <span id="settings-theme-label" className="theme-choice-label">
        Theme
      </span>
      {(["light", "dark"] as const).map((t) => (
        <label key={t}>
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
          {t === "light" ? "Light" : "Dark"}
        </label>
      ))}
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

/** The settings navigation (app-shell.md §2 "Settings navigation"). */
export function SettingsNav({ shell }: { shell: ShellData }) {
  const groups = buildSettingsNav({ ...navContext(shell), hasAffiliateLink: shell.user.hasReferralLink });
  return (
    <nav className="settings-nav" aria-label="Settings">
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
    </nav>
  );
}
