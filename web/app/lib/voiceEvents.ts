/**
 * "The user's voices changed" inside this page: a voice saved in a dialog that opens over any
 * page (Voice Design, an instant clone) shows up in My Voices at once, without a reload (issue 28
 * §10). A window event, so the dialogs need not know which lists are on screen.
 */
const EVENT = "timbre:voices-changed";

export function announceVoicesChanged(): void {
  if (typeof window !== "undefined") window.dispatchEvent(new Event(EVENT));
}

/** Calls `onChange` on each announcement until the returned function is called. */
export function onVoicesChanged(onChange: () => void): () => void {
  window.addEventListener(EVENT, onChange);
  return () => window.removeEventListener(EVENT, onChange);
}
