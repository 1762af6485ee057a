/**
 * Browser-side preferences of the shell, kept in localStorage (they are per device and never
 * security relevant). Every access tolerates storage being unavailable.
 */
export const STORAGE_KEYS = {
  submenu: "timbre.sidebar.submenu",
  lowQuotaDismissedAt: "timbre.lowQuotaBanner.dismissedAt",
  /** The model last chosen on each speech tab (text to speech, voice changer). */
  ttsModel: "timbre.speech.model.tts",
  stsModel: "timbre.speech.model.sts",
} as const;

type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

export function readStored(key: StorageKey): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStored(key: StorageKey, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Private mode or storage full: the preference just is not remembered.
  }
}

/**
 * The pinned sidebar is a preference cookie (like the theme), so the server renders it on the
 * first paint and no inline script is needed before it (the Content-Security-Policy allows none).
 */
export const PINNED_COOKIE = "timbre_sidebar_pinned";

export function pinnedFromCookie(cookieHeader: string | null): boolean {
  return /(?:^|;\s*)timbre_sidebar_pinned=true(?:;|$)/.test(cookieHeader ?? "");
}

export function applyPinnedSidebar(pinned: boolean): void {
  if (pinned) document.documentElement.dataset.sidebarPinned = "true";
  else delete document.documentElement.dataset.sidebarPinned;
  document.cookie = pinned ? `${PINNED_COOKIE}=true; Path=/; Max-Age=${400 * 24 * 3600}; SameSite=Lax` : `${PINNED_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
}

export function isSidebarPinned(): boolean {
  return document.documentElement.dataset.sidebarPinned === "true";
}
