import { Form, Link, useLocation } from "@remix-run/react";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { initials } from "../lib/format.js";
import { buildProfileMenu, dialogHref, type MenuItem } from "../lib/nav.js";
import { navContext, type ShellData } from "../lib/shell.js";
import { applyTheme, currentTheme, type Theme } from "../lib/theme.js";
import { CreditUsage, UsageRing } from "./CreditUsage.js";
import { CsrfInput } from "./Csrf.js";

export function Avatar({ name, photoUrl }: { name: string; photoUrl: string | null }) {
  return photoUrl ? <img className="avatar" src={photoUrl} alt="" width={28} height={28} /> : <span className="avatar avatar-initials" aria-hidden="true">{initials(name)}</span>;
}

const focusables = (menu: HTMLElement | null) => Array.from(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]:not([aria-disabled="true"])') ?? []);

/**
 * The profile menu: name (or "My Account"), workspace, photo or initials and a usage ring on the
 * button; typed items inside. Keyboard: arrows/Home/End move, Escape closes and returns focus.
 */
export function ProfileMenu({ shell, placement }: { shell: ShellData; placement: "sidebar" | "header" }) {
  const [open, setOpen] = useState(false);
  const [theme, setTheme] = useState<Theme>("light");
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const location = useLocation();
  const name = shell.user.displayName || "My Account";
  const items = buildProfileMenu({ ...navContext(shell), workspaceName: shell.workspace.name });

  useEffect(() => setOpen(false), [location.pathname, location.search]);

  useEffect(() => {
    if (!open) return;
    setTheme(currentTheme());
    focusables(menu.current)[0]?.focus();
    const onPointer = (e: PointerEvent) => {
      if (!menu.current?.contains(e.target as Node) && !button.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointer);
    return () => document.removeEventListener("pointerdown", onPointer);
  }, [open]);

  function close(returnFocus: boolean) {
    setOpen(false);
    if (returnFocus) button.current?.focus();
  }

  function onMenuKey(e: KeyboardEvent<HTMLDivElement>) {
    const list = focusables(menu.current);
    const i = list.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => {
      e.preventDefault();
      list[(to + list.length) % list.length]?.focus();
    };
    if (e.key === "ArrowDown") move(i + 1);
    else if (e.key === "ArrowUp") move(i - 1);
    else if (e.key === "Home") move(0);
    else if (e.key === "End") move(list.length - 1);
    else if (e.key === "Escape") {
      e.preventDefault();
      close(true);
    } else if (e.key === "Tab") setOpen(false);
  }

  function toggleTheme() {
    const next: Theme = currentTheme() === "dark" ? "light" : "dark";
    applyTheme(next);
    setTheme(next);
  }

  function renderItem(item: MenuItem) {
    switch (item.type) {
      case "link":
        return (
          <Link key={item.id} role="menuitem" tabIndex={-1} className="menu-item" to={item.dialog ? dialogHref(location, item.dialog) : item.to}
            target={item.newTab ? "_blank" : undefined} rel={item.newTab ? "noopener noreferrer" : undefined}>
            {item.label}
          </Link>
        );
      case "button":
        return item.action === "sign-out" ? (
          <Form key={item.id} method="post" action="/sign-out" className="menu-form" role="none">
            <CsrfInput />
            <button type="submit" role="menuitem" tabIndex={-1} className="menu-item">
              {item.label}
            </button>
          </Form>
        ) : (
          <button key={item.id} type="button" role="menuitem" tabIndex={-1} className="menu-item" onClick={toggleTheme} aria-label={`${item.label}: ${theme === "dark" ? "Dark" : "Light"}. Switch to ${theme === "dark" ? "light" : "dark"}`}>
            {item.label}
            <span className="menu-item-hint">{theme === "dark" ? "Dark" : "Light"}</span>
          </button>
        );
      case "group":
        return (
          <div key={item.id} role="group" aria-label={item.label} className="menu-group">
            <div className="menu-group-label" aria-hidden="true">{item.label}</div>
            {item.items.map(renderItem)}
          </div>
        );
      case "tooltip":
        return (
          <div key={item.id} role="menuitem" tabIndex={-1} aria-disabled="true" className="menu-item menu-item-tooltip" title={item.tooltip}>
            {item.label}
          </div>
        );
      case "separator":
        return <div key={item.id} role="separator" className="menu-separator" />;
    }
  }

  return (
    <div className="profile" data-placement={placement}>
      <button ref={button} type="button" className="profile-button" aria-haspopup="menu" aria-expanded={open} aria-controls={open ? menuId : undefined} onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown" || e.key === "ArrowUp") {
            e.preventDefault();
            setOpen(true);
          }
        }}>
        {/* The usage ring surrounds the avatar, so a collapsed sidebar (4rem) shows both whole. */}
        <span className="avatar-ring">
          <UsageRing used={shell.subscription.used} limit={shell.subscription.limit} size={36} />
          <Avatar name={shell.user.displayName ?? shell.user.email} photoUrl={shell.user.photoUrl} />
        </span>
        <span className="profile-text nav-text">
          <span className="profile-name">{name}</span>
          <span className="profile-workspace">{shell.workspace.name}</span>
        </span>
      </button>
      {open && (
        <div ref={menu} id={menuId} role="menu" aria-label="Profile" className="menu profile-menu" onKeyDown={onMenuKey}>
          <div className="menu-header">
            <div className="profile-name">{name}</div>
            <div className="profile-workspace">{shell.workspace.name}</div>
            <CreditUsage used={shell.subscription.used} limit={shell.subscription.limit} resetsAtUnix={shell.subscription.resetsAtUnix} />
          </div>
          {items.map(renderItem)}
        </div>
      )}
    </div>
  );
}
