/**
 * Browser-side preferences of the shell, kept in localStorage (they are per device and never
 * security relevant). Every access tolerates storage being unavailable.
 */
export const STORAGE_KEYS = {
  submenu: "timbre.sidebar.submenu",
  pinned: "timbre.sidebar.pinned",
  lowQuotaDismissedAt: "timbre.lowQuotaBanner.dismissedAt",
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
 * Runs inline in <head> before the first paint: applies the pinned-sidebar preference so the
 * server-rendered page does not jump when React takes over.
 */
export const PINNED_SIDEBAR_SCRIPT = `try{if(localStorage.getItem(${JSON.stringify(STORAGE_KEYS.pinned)})==="true")document.documentElement.dataset.sidebarPinned="true"}catch(e){}`;

export function applyPinnedSidebar(pinned: boolean): void {
  if (pinned) document.documentElement.dataset.sidebarPinned = "true";
  else delete document.documentElement.dataset.sidebarPinned;
  writeStored(STORAGE_KEYS.pinned, pinned ? "true" : null);
}
