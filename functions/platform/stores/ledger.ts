import { withoutKeys as strip, type Stored, type Table } from "./table.js";

/**
 * The ledger table holds hot counters: a workspace's credit usage, idempotency records
 * for charges, and rate-limit windows. Every change is one conditional single-item write.
 */
export interface UsageRecord {
  workspace_id: string;
  character_count: number;
  character_limit: number;
  /** Kept alongside the count because condition expressions cannot add: `remaining >= :cost`. */
  remaining: number;
  period_start_unix: number;
  next_reset_unix: number;
  voice_add_edit_counter: number;
}

export type ChargeState = "pending" | "charged" | "refunded";

export interface ChargeRecord {
  workspace_id: string;
  key: string;
  amount: number;
  state: ChargeState;
  updated_at: number;
  /** The spending caps this charge counts against (their ids and period), so a refund gives back to them too. */
  caps?: Array<{ id: string; period: number }>;
}

const keys = {
  usage: (ws: string) => ({ pk: `WS#${ws}`, sk: "USAGE" }),
  charge: (ws: string, key: string) => ({ pk: `WS#${ws}`, sk: `CHARGE#${key}` }),
  window: (scope: string, id: string, start: number) => ({ pk: `RL#${scope}#${id}`, sk: `W#${start}` }),
  slot: (ws: string, n: number) => ({ pk: `WS#${ws}`, sk: `SLOT#${n}` }),
  regen: (ws: string, fingerprint: string) => ({ pk: `WS#${ws}`, sk: `REGEN#${fingerprint}` }),
  idempotency: (ws: string, key: string) => ({ pk: `WS#${ws}`, sk: `IDEM#${key}` }),
  cap: (ws: string, id: string, period: number) => ({ pk: `WS#${ws}`, sk: `CAP#${id}#${period}` }),
};

export type KeyBinding = "new" | "same" | "mismatch";

/**
 * `sliding`: the limit holds over any span of one window, not per fixed window (where `max`
 * attempts just before a boundary and `max` just after it all get through). Attempts are counted
 * in buckets of a third of the window, and an attempt counts the buckets of the window before its
 * own: so a refusal lasts between one window and one window and a third after the attempts.
 */
export interface AttemptOptions {
  sliding?: boolean;
}

const SLIDING_BUCKETS = 3;

function buckets(windowSeconds: number, opts: AttemptOptions): { size: number; back: number } {
  if (!opts.sliding) return { size: windowSeconds, back: 0 };
  const size = Math.max(1, Math.floor(windowSeconds / SLIDING_BUCKETS));
  return { size, back: Math.ceil(windowSeconds / size) };
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

export class Ledger {
  constructor(private readonly table: Table) {}

  async createUsage(u: UsageRecord): Promise<boolean> {
    return this.table.put({ ...keys.usage(u.workspace_id), ...u }, { ifAbsent: true });
  }

  async usage(ws: string): Promise<UsageRecord | undefined> {
    const item = await this.table.get<Stored<UsageRecord>>(keys.usage(ws));
    return item ? strip(item) : undefined;
  }

  /** Starts a new period, once, whatever the concurrency: conditional on the old reset time. */
  async resetPeriod(ws: string, expectedNextReset: number, periodStart: number, nextReset: number): Promise<UsageRecord | undefined> {
    const item = await this.table.update<Stored<UsageRecord>>(keys.usage(ws), {
      UpdateExpression: "SET character_count = :zero, remaining = character_limit, period_start_unix = :start, next_reset_unix = :next",
      ConditionExpression: "next_reset_unix = :expected",
      ExpressionAttributeValues: { ":zero": 0, ":start": periodStart, ":next": nextReset, ":expected": expectedNextReset },
    });
    return item ? strip(item) : undefined;
  }

  /** Deducts `amount` when at least `amount - overage` remains; undefined when it does not. */
  async deduct(ws: string, amount: number, overage = 0): Promise<UsageRecord | undefined> {
    const item = await this.table.update<Stored<UsageRecord>>(keys.usage(ws), {
      UpdateExpression: "ADD remaining :neg, character_count :amount",
      ConditionExpression: "attribute_exists(pk) AND remaining >= :need",
      ExpressionAttributeValues: { ":neg": -amount, ":amount": amount, ":need": amount - overage },
    });
    return item ? strip(item) : undefined;
  }

  async credit(ws: string, amount: number): Promise<UsageRecord | undefined> {
    const item = await this.table.update<Stored<UsageRecord>>(keys.usage(ws), {
      UpdateExpression: "ADD remaining :amount, character_count :neg",
      ConditionExpression: "attribute_exists(pk)",
      ExpressionAttributeValues: { ":amount": amount, ":neg": -amount },
    });
    return item ? strip(item) : undefined;
  }

  /** Changes the limit (tier change) and moves `remaining` by the same delta. */
  async setLimit(ws: string, expectedLimit: number, newLimit: number): Promise<UsageRecord | undefined> {
    const item = await this.table.update<Stored<UsageRecord>>(keys.usage(ws), {
      UpdateExpression: "SET character_limit = :new ADD remaining :delta",
      ConditionExpression: "character_limit = :old",
      ExpressionAttributeValues: { ":new": newLimit, ":old": expectedLimit, ":delta": newLimit - expectedLimit },
    });
    return item ? strip(item) : undefined;
  }

  async bumpVoiceEdits(ws: string): Promise<void> {
    await this.table.update(keys.usage(ws), {
      UpdateExpression: "ADD voice_add_edit_counter :one",
      ExpressionAttributeValues: { ":one": 1 },
    });
  }

  /**
   * Counts `amount` against a spending cap (an API key's or a member's limit) for the period that
   * started at `period`, when the cap's use stays within `limit`; the use after it, or undefined
   * when it would not fit. Atomic like `deduct`.
   */
  async capAdd(ws: string, id: string, period: number, amount: number, limit: number, ttl: number): Promise<number | undefined> {
    if (amount > limit) return undefined;
    const item = await this.table.update<{ used: number }>(keys.cap(ws, id, period), {
      UpdateExpression: "SET #ttl = :ttl ADD used :amount",
      ConditionExpression: "attribute_not_exists(used) OR used <= :room",
      ExpressionAttributeNames: { "#ttl": "ttl" },
      ExpressionAttributeValues: { ":amount": amount, ":room": limit - amount, ":ttl": ttl },
    });
    return item?.used;
  }

  async capSubtract(ws: string, id: string, period: number, amount: number): Promise<void> {
    await this.table.update(keys.cap(ws, id, period), {
      UpdateExpression: "ADD used :neg",
      ConditionExpression: "attribute_exists(used)",
      ExpressionAttributeValues: { ":neg": -amount },
    });
  }

  async capUsed(ws: string, id: string, period: number): Promise<number> {
    return (await this.table.get<{ used: number }>(keys.cap(ws, id, period)))?.used ?? 0;
  }

  /** Opens an idempotency record; false when one exists for this key. */
  async openCharge(c: ChargeRecord, ttl: number): Promise<boolean> {
    return this.table.put({ ...keys.charge(c.workspace_id, c.key), ...c, ttl }, { ifAbsent: true });
  }

  async charge(ws: string, key: string): Promise<ChargeRecord | undefined> {
    const item = await this.table.get<Stored<ChargeRecord>>(keys.charge(ws, key));
    return item ? strip(item) : undefined;
  }

  /** Moves a charge record between states, conditional on its current state (and age for takeovers). */
  async transitionCharge(
    ws: string,
    key: string,
    from: ChargeState,
    to: ChargeState,
    now: number,
    fields: { amount?: number; olderThan?: number; caps?: ChargeRecord["caps"] } = {},
  ): Promise<boolean> {
    const values: Record<string, unknown> = { ":from": from, ":to": to, ":now": now };
    let condition = "#state = :from";
    let update = "SET #state = :to, updated_at = :now";
    if (fields.olderThan !== undefined) {
      condition += " AND updated_at < :older";
      values[":older"] = fields.olderThan;
    }
    if (fields.amount !== undefined) {
      update += ", amount = :amount";
      values[":amount"] = fields.amount;
    }
    if (fields.caps !== undefined) {
      update += ", caps = :caps";
      values[":caps"] = fields.caps;
    }
    const r = await this.table.update(keys.charge(ws, key), {
      UpdateExpression: update,
      ConditionExpression: condition,
      ExpressionAttributeNames: { "#state": "state" },
      ExpressionAttributeValues: values,
    });
    return r !== undefined;
  }

  /**
   * Binds a client's idempotency key to the fingerprint of the request that first used it (for
   * `ttlSeconds`). "same" is a replay of that request; "mismatch" is the key reused for another.
   */
  async bindIdempotencyKey(ws: string, key: string, fingerprint: string, now: number, ttlSeconds: number): Promise<KeyBinding> {
    const k = keys.idempotency(ws, key);
    const fresh = await this.table.put(
      { ...k, fingerprint, created_at: now, ttl: now + ttlSeconds },
      // An expired binding (TTL deletion is lazy) is as good as none.
      { condition: "attribute_not_exists(pk) OR #ttl < :now", names: { "#ttl": "ttl" }, values: { ":now": now } },
    );
    if (fresh) return "new";
    const existing = await this.table.get<{ fingerprint: string }>(k);
    return existing?.fingerprint === fingerprint ? "same" : "mismatch";
  }

  /** Lowers a charged record's amount (a partly delivered generation), once: conditional on the old amount. */
  async reduceCharge(ws: string, key: string, from: number, to: number, now: number): Promise<boolean> {
    const r = await this.table.update(keys.charge(ws, key), {
      UpdateExpression: "SET amount = :to, updated_at = :now",
      ConditionExpression: "#state = :charged AND amount = :from",
      ExpressionAttributeNames: { "#state": "state" },
      ExpressionAttributeValues: { ":to": to, ":from": from, ":now": now, ":charged": "charged" },
    });
    return r !== undefined;
  }

  async dropCharge(ws: string, key: string, state: ChargeState): Promise<void> {
    await this.table.delete(keys.charge(ws, key), { expression: "#state = :s", names: { "#state": "state" }, values: { ":s": state } });
  }

  /** Counts a hit in a fixed window and returns the count so far in that window. */
  async hit(scope: string, id: string, windowSeconds: number, now: number): Promise<number> {
    const start = Math.floor(now / windowSeconds) * windowSeconds;
    const item = await this.table.update<{ count: number }>(keys.window(scope, id, start), {
      UpdateExpression: "ADD #count :one SET #ttl = :ttl",
      ExpressionAttributeNames: { "#count": "count", "#ttl": "ttl" },
      ExpressionAttributeValues: { ":one": 1, ":ttl": start + windowSeconds * 2 },
    });
    return item?.count ?? 1;
  }

  /**
   * Takes one attempt of at most `max` in a window (fixed, or sliding: `AttemptOptions`),
   * atomically: the count rises only while it is below `max`, so parallel callers can never take
   * more than `max` between them. Returns the count including this attempt (and the earlier
   * buckets', when sliding), or undefined when none is left.
   */
  async takeAttempt(scope: string, id: string, windowSeconds: number, now: number, max: number, opts: AttemptOptions = {}): Promise<number | undefined> {
    const { size, back } = buckets(windowSeconds, opts);
    const start = Math.floor(now / size) * size;
    const earlier = back ? sum(await this.bucketCounts(scope, id, start, size, back)) : 0;
    if (earlier >= max) return undefined;
    const item = await this.table.update<{ count: number }>(keys.window(scope, id, start), {
      UpdateExpression: "ADD #count :one SET #ttl = :ttl",
      ConditionExpression: "attribute_not_exists(#count) OR #count < :max",
      ExpressionAttributeNames: { "#count": "count", "#ttl": "ttl" },
      ExpressionAttributeValues: { ":one": 1, ":ttl": start + windowSeconds * 2 + size, ":max": max - earlier },
    });
    return item === undefined ? undefined : item.count + earlier;
  }

  /**
   * Seconds until `takeAttempt` with the same arguments would take one again (0 if it would now):
   * the Retry-After of a refusal.
   */
  async attemptRetryAfter(scope: string, id: string, windowSeconds: number, now: number, max: number, opts: AttemptOptions = {}): Promise<number> {
    const { size, back } = buckets(windowSeconds, opts);
    const start = Math.floor(now / size) * size;
    // counts[0] is the current bucket, counts[i] the i-th before it.
    const counts = [(await this.bucketCounts(scope, id, start + size, size, 1))[0]!, ...(await this.bucketCounts(scope, id, start, size, back))];
    for (let ahead = 0; ahead <= back + 1; ahead++) {
      // `ahead` buckets from now, the counted buckets are the current one and the `back - ahead` before it.
      if (sum(counts.slice(0, Math.max(0, back - ahead + 1))) < max) return ahead === 0 ? 0 : start + ahead * size - now;
    }
    return start + (back + 1) * size - now;
  }

  /** The counts of the `n` buckets before the one starting at `start`, nearest first. */
  private async bucketCounts(scope: string, id: string, start: number, size: number, n: number): Promise<number[]> {
    const items = await Promise.all(Array.from({ length: n }, (_, i) => this.table.get<{ count: number }>(keys.window(scope, id, start - (i + 1) * size), false)));
    return items.map((item) => item?.count ?? 0);
  }

  /** Gives back an attempt taken with `takeAttempt` (it turned out not to be a failure). */
  async returnAttempt(scope: string, id: string, windowSeconds: number, now: number, opts: AttemptOptions = {}): Promise<void> {
    const { size } = buckets(windowSeconds, opts);
    const start = Math.floor(now / size) * size;
    await this.table.update(keys.window(scope, id, start), {
      UpdateExpression: "ADD #count :minus",
      ConditionExpression: "#count > :zero",
      ExpressionAttributeNames: { "#count": "count" },
      ExpressionAttributeValues: { ":minus": -1, ":zero": 0 },
    });
  }

  async hits(scope: string, id: string, windowSeconds: number, now: number): Promise<number> {
    const start = Math.floor(now / windowSeconds) * windowSeconds;
    const item = await this.table.get<{ count: number }>(keys.window(scope, id, start), false);
    return item?.count ?? 0;
  }

  async clearWindow(scope: string, id: string, windowSeconds: number, now: number, opts: AttemptOptions = {}): Promise<void> {
    const { size, back } = buckets(windowSeconds, opts);
    const start = Math.floor(now / size) * size;
    await Promise.all(Array.from({ length: back + 1 }, (_, i) => this.table.delete(keys.window(scope, id, start - i * size))));
  }

  /**
   * Takes one of `limit` generation slots, each a lease that expires on its own, so a crashed
   * request cannot hold a slot for ever. Returns the slot number, or undefined when all are busy.
   */
  async takeSlot(ws: string, limit: number, owner: string, now: number, leaseSeconds: number): Promise<number | undefined> {
    const start = Math.floor(Math.random() * limit);
    for (let k = 0; k < limit; k++) {
      const n = (start + k) % limit;
      const ok = await this.table.put(
        { ...keys.slot(ws, n), owner, expires_at: now + leaseSeconds, ttl: now + leaseSeconds },
        { condition: "attribute_not_exists(pk) OR expires_at < :now", values: { ":now": now } },
      );
      if (ok) return n;
    }
    return undefined;
  }

  async releaseSlot(ws: string, n: number, owner: string): Promise<void> {
    await this.table.delete(keys.slot(ws, n), { expression: "#owner = :o", names: { "#owner": "owner" }, values: { ":o": owner } });
  }

  /**
   * Counts one more generation of an identical request within a window that starts at the
   * first one; returns which generation this is (1 = the first, charged one).
   */
  async countGeneration(ws: string, fingerprint: string, windowSeconds: number, now: number): Promise<number> {
    const key = keys.regen(ws, fingerprint);
    // Most requests are not regenerations: opening a window first makes theirs one write.
    const opened = await this.table.put({ ...key, count: 1, first_at: now, ttl: now + windowSeconds }, {
      condition: "attribute_not_exists(pk) OR first_at <= :windowStart",
      values: { ":windowStart": now - windowSeconds },
    });
    if (opened) return 1;
    // A window is open: count this one in it.
    const counted = await this.table.update<{ count: number }>(key, {
      UpdateExpression: "ADD #count :one",
      ConditionExpression: "attribute_exists(pk) AND first_at > :windowStart",
      ExpressionAttributeNames: { "#count": "count" },
      ExpressionAttributeValues: { ":one": 1, ":windowStart": now - windowSeconds },
    });
    // Or it closed in between (the record is gone or its window passed): open one again.
    return counted ? counted.count : this.countGeneration(ws, fingerprint, windowSeconds, now);
  }

  /** Gives back a counted generation that failed. */
  async uncountGeneration(ws: string, fingerprint: string): Promise<void> {
    await this.table.update(keys.regen(ws, fingerprint), {
      UpdateExpression: "ADD #count :minus",
      ConditionExpression: "attribute_exists(pk) AND #count > :zero",
      ExpressionAttributeNames: { "#count": "count" },
      ExpressionAttributeValues: { ":minus": -1, ":zero": 0 },
    });
  }
}
