/** Reports an error the user saw; page crashes are fatal. The browser console is the sink for now. */
export function reportError(error: unknown, opts: { fatal: boolean; where: string }): void {
  console.error(`[timbre] ${opts.fatal ? "fatal" : "non-fatal"} error in ${opts.where}:`, error);
}
