/**
 * A circuit breaker per remote engine. After `failures` failures in a row the engine is "open":
 * requests are refused at once (503 with Retry-After) for `cooldownMs`; then one trial request is
 * let through ("half-open") while the others are still refused; its success closes the breaker,
 * its failure opens it for another cool-down. A request the caller abandons counts for nothing.
 *
 * The clock is passed in, so tests move time instead of waiting.
 */
export type BreakerState = "ok" | "failing" | "open";

export interface BreakerSnapshot {
  state: BreakerState;
  consecutive_failures: number;
  /** The class of the last failure (a RemoteEngineError code), null before any. */
  last_error: string | null;
  last_error_at_unix: number | null;
  /** While open: seconds until a trial request is let through. */
  retry_after_seconds: number | null;
}

export class CircuitBreaker {
  private failuresInRow = 0;
  private openUntil = 0;
  private trialInFlight = false;
  private lastError: string | null = null;
  private lastErrorAt: number | null = null;

  constructor(
    private readonly failures: number,
    private readonly cooldownMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Asks to send a request: null when it may go (call exactly one of succeeded / failed /
   * abandoned afterwards), or the seconds to wait when it is refused.
   */
  admit(): { trial: boolean } | { retryAfterSeconds: number } {
    if (this.failuresInRow < this.failures) return { trial: false };
    const t = this.now();
    if (t < this.openUntil || this.trialInFlight) return { retryAfterSeconds: Math.max(1, Math.ceil((this.openUntil - t) / 1000)) };
    this.trialInFlight = true;
    return { trial: true };
  }

  succeeded(): void {
    this.failuresInRow = 0;
    this.trialInFlight = false;
  }

  failed(code: string): void {
    const t = this.now();
    this.lastError = code;
    this.lastErrorAt = t;
    this.trialInFlight = false;
    this.failuresInRow = Math.min(this.failuresInRow + 1, this.failures);
    if (this.failuresInRow >= this.failures) this.openUntil = t + this.cooldownMs;
  }

  /** The request ended without a verdict (the caller went away): a trial may be tried again. */
  abandoned(): void {
    this.trialInFlight = false;
  }

  snapshot(): BreakerSnapshot {
    const t = this.now();
    const open = this.failuresInRow >= this.failures;
    return {
      state: open ? "open" : this.failuresInRow > 0 ? "failing" : "ok",
      consecutive_failures: this.failuresInRow,
      last_error: this.lastError,
      last_error_at_unix: this.lastErrorAt === null ? null : Math.floor(this.lastErrorAt / 1000),
      retry_after_seconds: open ? Math.max(0, Math.ceil((this.openUntil - t) / 1000)) : null,
    };
  }
}
