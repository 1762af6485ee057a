/**
 * The shared video player's behaviour (app-shell.md, "Video player"): controls appear on hover or
 * focus and hide 2 s after the pointer leaves; the playback rate cycles 1x, 1.5x, 2x.
 */
export const CONTROLS_HIDE_MS = 2000;
export const PLAYBACK_RATES = [1, 1.5, 2] as const;

/** The rate after `rate` in the cycle (any other rate starts it again at 1x). */
export function nextRate(rate: number): number {
  const i = PLAYBACK_RATES.indexOf(rate as (typeof PLAYBACK_RATES)[number]);
  return PLAYBACK_RATES[(i + 1) % PLAYBACK_RATES.length];
}

/** How a rate is written on its button: "1x", "1.5x", "2x". */
export const rateLabel = (rate: number) => `${rate}x`;

/** m:ss, for the time shown beside the controls. */
export function clock(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "0:00";
  const s = Math.floor(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/**
 * Whether the controls show: while the pointer is over the player or focus is inside it, and
 * until CONTROLS_HIDE_MS after the pointer left (a timer the component keeps). Paused at the
 * start, they show too: there is nothing to watch yet and the play button is the way in.
 */
export function controlsVisible(s: { hovered: boolean; focused: boolean; lingering: boolean; started: boolean }): boolean {
  return s.hovered || s.focused || s.lingering || !s.started;
}
