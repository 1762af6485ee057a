/**
 * Records read on nearly every request (an API key by its hash, a session by its hash), kept
 * for a few seconds: a request then starts its own work without first waiting on a store round
 * trip. The store that owns the records forgets one whenever it writes it, so in one process a
 * revoked key or an ended session is refused at once; another process (another Lambda
 * container) may accept it for at most the time to live. Absent records are never kept.
 */
/** A load on its way (its promise, set as soon as it starts). */
interface Loading<T> {
  promise?: Promise<T | undefined>;
}

export class RecentRecords<T> {
  private readonly entries = new Map<string, { value: T; until: number }>();
  /** Bumped by every forget(): a read that started before it must not put its answer back. */
  private generation = 0;
  /** Loads on their way, by key (at most one each). */
  private readonly loading = new Map<string, Loading<T>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /**
   * The kept record, or `load()`'s answer (kept when present and nothing was forgotten meanwhile).
   * Callers asking for the same key while its load is on its way share that load: a wave of
   * requests with a key the process has not seen yet reads it once, not once each (issue 24).
   */
  async get(key: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
    const hit = this.entries.get(key);
    if (hit) {
      if (hit.until > this.clock()) return hit.value;
      this.entries.delete(key);
    }
    const pending = this.loading.get(key);
    if (pending) return pending.promise!;
    const entry: Loading<T> = {};
    let started: Promise<T | undefined>;
    try {
      started = load();
    } catch (e) {
      started = Promise.reject(e);
    }
    // keep() awaits before its cleanup, so the cleanup always comes after this set.
    entry.promise = this.keep(key, started, this.generation, entry);
    this.loading.set(key, entry);
    return entry.promise;
  }

  private async keep(key: string, started: Promise<T | undefined>, generation: number, entry: Loading<T>): Promise<T | undefined> {
    try {
      const value = await started;
      if (value !== undefined && generation === this.generation && this.ttlMs > 0) {
        this.entries.set(key, { value, until: this.clock() + this.ttlMs });
        // Oldest first: a Map iterates in insertion order.
        if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      }
      return value;
    } finally {
      // Only its own entry: a write may have dropped it and a newer load taken its place.
      if (this.loading.get(key) === entry) this.loading.delete(key);
    }
  }

  /** Changes a kept record in place (its time to live unchanged); nothing when it is not kept. */
  update(key: string, change: (value: T) => T): void {
    const hit = this.entries.get(key);
    if (hit) hit.value = change(hit.value);
  }

  forget(key: string): void {
    this.generation++;
    this.entries.delete(key);
    // A read that begins after the write must not join a load that began before it.
    this.loading.delete(key);
  }
}
