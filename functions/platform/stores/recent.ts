/**
 * Records read on nearly every request (an API key by its hash, a session by its hash), kept
 * for a few seconds: a request then starts its own work without first waiting on a store round
 * trip. The store that owns the records forgets one whenever it writes it, so in one process a
 * revoked key or an ended session is refused at once; another process (another Lambda
 * container) may accept it for at most the time to live. Absent records are never kept.
 */
export class RecentRecords<T> {
  private readonly entries = new Map<string, { value: T; until: number }>();
  /** Bumped by every forget(): a read that started before it must not put its answer back. */
  private generation = 0;
  /** Loads on their way, by key (at most one each). */
  private readonly loading = new Map<string, Promise<T | undefined>>();

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
    if (pending) return pending;
    const generation = this.generation;
    const loaded = (async () => {
      try {
        const value = await load();
        if (value !== undefined && generation === this.generation && this.ttlMs > 0) {
          this.entries.set(key, { value, until: this.clock() + this.ttlMs });
          // Oldest first: a Map iterates in insertion order.
          if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
        }
        return value;
      } finally {
        if (this.loading.get(key) === loaded) this.loading.delete(key);
      }
    })();
    this.loading.set(key, loaded);
    return loaded;
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
