/**
 * Light or dark theme. The choice is a plain preference cookie (not HttpOnly: the browser sets
 * it) so the server renders the right theme on the first paint.
 */
export type Theme = "light" | "dark";
export const THEME_COOKIE = "timbre_theme";

export function themeFromCookie(cookieHeader: string | null): Theme {
  const m = /(?:^|;\s*)timbre_theme=(light|dark)(?:;|$)/.exec(cookieHeader ?? "");
  return m?.[1] === "dark" ? "dark" : "light";
}

export function currentTheme(): Theme {
  return document.documentElement.dataset.theme === "dark" ? "dark" : "light";
}

export function applyTheme(theme: Theme, remember = true): void {
  document.documentElement.dataset.theme = theme;
  document.documentElement.style.colorScheme = theme;
  if (remember) document.cookie = `${THEME_COOKIE}=${theme}; Path=/; Max-Age=${400 * 24 * 3600}; SameSite=Lax`;
}
