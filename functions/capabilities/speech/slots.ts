import { createHash } from "node:crypto";
import type { AppContext } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import { ApiError } from "../../platform/http/errors.js";

/**
 * A workspace's concurrent-request slots (its plan's concurrency): leases in the ledger, so every
 * process sees them, taken before a request does any work that costs more than a lookup.
 *
 * Over the limit a request waits in this process's queue for the workspace, first come first
 * served, up to SLOT_WAIT_MS; the queue holds as many as the plan runs at once, and a request
 * beyond that is refused at once (429, Retry-After) without asking the store: a storm of retries
 * costs lookups, never synthesis or store writes. A waiter is woken when a slot of its workspace
 * is released here, and asks the store again every SLOT_POLL_MS for slots freed elsewhere (not
 * while this process holds them all: then only a release here can free one).
 *
 * The slots held here are also this process's interactive work: background jobs (first-start
 * previews and embeddings) wait between items while any is held (`yieldToInteractive`).
 * docs/decisions/2026-11-28-overload-without-starvation.md
 */
export const SLOT_LEASE_SECONDS = 300;
export const SLOT_WAIT_MS = 1500;
export const SLOT_POLL_MS = 250;
/** Background work resumes only once no slot has been held here for this long. */
export const INTERACTIVE_QUIET_MS = 150;

export const slotMessages = {
  tooMany: (limit: number) => `Too many concurrent requests: your plan allows ${limit} at a time. Please retry when one has finished.`,
};

interface Waiter {
  wake(): void;
}

interface ProcessSlots {
  waiting: Map<string, Waiter[]>;
  /** Each workspace's concurrency as last read here (its plan). */
  limits: Map<string, number>;
  /**
   * Slots held by requests of this process, any workspace: owner -> its workspace and when its
   * lease ends (a slot never released, by a request that failed oddly, stops counting when its
   * lease would).
   */
  held: Map<string, { workspaceId: string; until: number }>;
  /**
   * Requests of each workspace admitted past the memory check (`admitToQueue`) and not yet in its
   * queue, holding a slot or refused: they count against the queue's room, so a slot freed in a
   * storm lets one retry through to the store, not all those that arrive while it reads.
   */
  admitted: Map<string, number>;
  lastHeldAt: number;
  onIdle: Set<() => void>;
  /** API keys seen here (their hashes) -> their workspace: see `refuseKnownKeyWhenQueueFull`. */
  keyWorkspaces: Map<string, string>;
  /** Key hash -> when this process last refused it early. */
  refusedAt: Map<string, number>;
}

/** Keys remembered for the early refusal; the oldest is forgotten beyond this. */
const KEYS_REMEMBERED = 10_000;

const states = new WeakMap<object, ProcessSlots>();

function state(ctx: AppContext): ProcessSlots {
  let s = states.get(ctx);
  if (!s) {
    s = { waiting: new Map(), limits: new Map(), held: new Map(), admitted: new Map(), lastHeldAt: 0, onIdle: new Set(), keyWorkspaces: new Map(), refusedAt: new Map() };
    states.set(ctx, s);
  }
  return s;
}

/** What a refusal's Retry-After says. */
export const RETRY_AFTER_SECONDS = 1;

export function tooManyConcurrent(limit: number, headers: Record<string, string> = {}): ApiError {
  return new ApiError(429, "too_many_concurrent_requests", slotMessages.tooMany(limit), { "retry-after": String(RETRY_AFTER_SECONDS), ...headers });
}

/** Requests of this workspace waiting here for a slot. */
export function waitingForSlot(ctx: AppContext, workspaceId: string): number {
  return state(ctx).waiting.get(workspaceId)?.length ?? 0;
}

/** A request admitted to its workspace's queue (or to a free slot): see `admitToQueue`. */
export interface Admission {
  /** Gives the place back (idempotent): when the request took its slot, queued, or failed before. */
  done(): void;
  /** How long it was held back before it was admitted (`refuseKnownKeyWhenQueueFull`'s pause). */
  readonly pausedMs: number;
}

const admissions = new WeakMap<Caller, Admission>();

/**
 * The refusal a request meets first, right after its credentials, from memory alone: when the
 * workspace's queue here is full, a slot cannot free up in time for it, so it is answered 429
 * before it reads its voice, its settings or anything else (a storm of retries costs the server
 * almost nothing). Admitted, it holds a place until `takeSlot` (or `done()` when it fails before):
 * the requests on their way to the store count as queued, so no more go there than could wait.
 */
export function admitToQueue(ctx: AppContext, caller: Caller, pausedMs = 0): Admission {
  const s = state(ctx);
  const ws = caller.workspaceId;
  if (queueFull(s, ws)) throw tooManyConcurrent(s.limits.get(ws)!);
  s.admitted.set(ws, (s.admitted.get(ws) ?? 0) + 1);
  let open = true;
  const admission: Admission = {
    pausedMs,
    done() {
      if (!open) return;
      open = false;
      const n = (s.admitted.get(ws) ?? 1) - 1;
      if (n > 0) s.admitted.set(ws, n);
      else s.admitted.delete(ws);
    },
  };
  admissions.set(caller, admission);
  return admission;
}

/**
 * `admitToQueue` for a workspace whose plan this process may not know yet: its concurrency is read
 * first (the workspace's record, kept and shared by concurrent readers), so the first wave of a
 * storm is admitted as the later ones are. Without it every request of that wave passed the
 * memory check (no limit known until one reached `takeSlot`) and did its permission, plan, voice,
 * settings and slot reads and writes: in issue 24's storm the store's thread, the loop and the
 * garbage collector took the cores from the first two slot holders for 2-3 s
 * (docs/decisions/2026-12-07-background-at-low-priority.md, last section). Known, nothing is read.
 */
export async function admit(ctx: AppContext, caller: Caller, pausedMs = 0): Promise<Admission> {
  const s = state(ctx);
  if (!s.limits.has(caller.workspaceId)) {
    const limit = (await caller.tier()).concurrency;
    if (!s.limits.has(caller.workspaceId)) s.limits.set(caller.workspaceId, limit);
  }
  return admitToQueue(ctx, caller, pausedMs);
}

/**
 * How long a request was held back before its admission: part of its wait for a slot (a served
 * answer's x-timbre-slot-wait-ms counts it with the queue's wait).
 */
export function pausedBeforeAdmission(caller: Caller): number {
  return admissions.get(caller)?.pausedMs ?? 0;
}

const keyHash = (apiKey: string) => createHash("sha256").update(apiKey).digest("base64");

/**
 * The same refusal before the credentials are read from the store, for an API key this process
 * has already authenticated: a storm of retries with one key then costs a hash and two map
 * lookups each, not a store read (the profile of issue 24's storm: about 7 ms of CPU per refusal,
 * most of it the store's client). It can only refuse: a key revoked since it was seen gets this
 * 429 instead of a 401 while its former workspace's queue is full, and nothing else. Let through,
 * it resolves to how long it held the request back (for `admitToQueue`).
 */
export async function refuseKnownKeyWhenQueueFull(ctx: AppContext, apiKey: string | undefined): Promise<number> {
  const key = apiKey?.trim();
  if (!key) return 0;
  const s = state(ctx);
  const h = keyHash(key);
  const ws = s.keyWorkspaces.get(h);
  if (ws === undefined || !queueFull(s, ws)) return 0;
  // Refused again before the Retry-After its key was last given has run out: the answer waits
  // until it has (a timer, no work), then looks at the queue once more. A client that ignores
  // Retry-After then retries once a second instead of a hundred times, and the cores stay with the
  // requests being served: at 400 ms, the first seconds of issue 24's storm cost the server's
  // other threads (loop, garbage collector, store) as much CPU as the engine's two workers got
  // (docs/decisions/2026-12-07-background-at-low-priority.md).
  const now = Date.now();
  const last = s.refusedAt.get(h);
  let paused = 0;
  if (last !== undefined && now - last < RETRY_AFTER_SECONDS * 1000) {
    await new Promise((r) => setTimeout(r, RETRY_AFTER_SECONDS * 1000 - (now - last)));
    if (!queueFull(s, ws)) return Date.now() - now;
    paused = Date.now() - now;
  }
  s.refusedAt.delete(h);
  s.refusedAt.set(h, Date.now());
  if (s.refusedAt.size > KEYS_REMEMBERED) s.refusedAt.delete(s.refusedAt.keys().next().value!);
  // As a served request says how long it waited for its slot, a paused refusal says how long it waited.
  throw tooManyConcurrent(s.limits.get(ws)!, paused ? { "x-timbre-slot-wait-ms": String(paused) } : {});
}

/**
 * No room for one more request of this workspace: those waiting and those admitted on their way
 * fill the queue (its plan's concurrency), plus the slots known free here. A waiter means the
 * store found every slot busy (held here or by another process): then none is free.
 */
function queueFull(s: ProcessSlots, workspaceId: string): boolean {
  const limit = s.limits.get(workspaceId);
  if (limit === undefined) return false;
  const waiting = s.waiting.get(workspaceId)?.length ?? 0;
  const free = waiting > 0 ? 0 : Math.max(0, limit - heldHere(s, workspaceId));
  return waiting + (s.admitted.get(workspaceId) ?? 0) >= limit + free;
}

function heldHere(s: ProcessSlots, workspaceId: string): number {
  const now = Date.now();
  let n = 0;
  for (const h of s.held.values()) if (h.workspaceId === workspaceId && h.until > now) n++;
  return n;
}

/** Remembers an authenticated API key's workspace for `refuseKnownKeyWhenQueueFull`. */
export function rememberKey(ctx: AppContext, apiKey: string | undefined, workspaceId: string): void {
  const key = apiKey?.trim();
  if (!key) return;
  const known = state(ctx).keyWorkspaces;
  const h = keyHash(key);
  if (known.get(h) === workspaceId) return;
  known.delete(h);
  known.set(h, workspaceId);
  if (known.size > KEYS_REMEMBERED) known.delete(known.keys().next().value!);
}

/**
 * One of the plan's slots, or 429 `too_many_concurrent_requests`. `signal` (the client went away)
 * leaves the queue.
 */
export async function takeSlot(ctx: AppContext, caller: Caller, owner: string, signal?: AbortSignal): Promise<number> {
  // The place `admitToQueue` kept is given back when this request holds a slot, queues, or is refused.
  const admission = admissions.get(caller);
  try {
    return await takeSlotAdmitted(ctx, caller, owner, admission, signal);
  } finally {
    admission?.done();
  }
}

async function takeSlotAdmitted(ctx: AppContext, caller: Caller, owner: string, admission: Admission | undefined, signal?: AbortSignal): Promise<number> {
  const limit = (await caller.tier()).concurrency;
  const s = state(ctx);
  const ws = caller.workspaceId;
  s.limits.set(ws, limit);
  const attempt = async () => {
    const n = await ctx.stores.ledger.takeSlot(ws, limit, owner, Math.floor(ctx.now() / 1000), SLOT_LEASE_SECONDS);
    if (n !== undefined) {
      s.held.set(owner, { workspaceId: ws, until: Date.now() + SLOT_LEASE_SECONDS * 1000 });
      s.lastHeldAt = Date.now();
    }
    return n;
  };
  const queue = () => s.waiting.get(ws) ?? [];
  // Every slot of the workspace is held by a request of this process: no other process can free
  // one, so asking the store (two failed conditional writes with a plan of two) is wasted until a
  // release here, which wakes the first in line. In issue 24's storm the first waiter's polls were
  // most of what the store's thread did while both slots were held.
  const allHeldHere = () => heldHere(s, ws) >= limit;
  // Nobody waits ahead of this request: the store decides at once.
  if (queue().length === 0 && !allHeldHere()) {
    const n = await attempt();
    if (n !== undefined) return n;
  }
  if (queue().length >= limit) throw tooManyConcurrent(limit);

  const deadline = Date.now() + SLOT_WAIT_MS;
  let woken = false;
  let interrupt = () => {};
  const waiter: Waiter = {
    wake: () => {
      woken = true;
      interrupt();
    },
  };
  if (!s.waiting.has(ws)) s.waiting.set(ws, []);
  s.waiting.get(ws)!.push(waiter);
  // Now counted as waiting (in the same turn of the loop).
  admission?.done();
  let got = false;
  try {
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0 || signal?.aborted) break;
      if (!woken) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, Math.min(left, SLOT_POLL_MS));
          function done() {
            clearTimeout(timer);
            signal?.removeEventListener("abort", done);
            interrupt = () => {};
            resolve();
          }
          interrupt = done;
          signal?.addEventListener("abort", done, { once: true });
        });
      }
      if (signal?.aborted) break;
      woken = false;
      const first = queue()[0] === waiter;
      // Only the first in line asks the store (woken by a release here, or on its poll for slots
      // freed by another process): the others would only find the same busy slots.
      if (!first || allHeldHere()) continue;
      const n = await attempt();
      if (n !== undefined) {
        got = true;
        return n;
      }
    }
  } finally {
    const q = queue();
    const i = q.indexOf(waiter);
    if (i >= 0) q.splice(i, 1);
    if (q.length === 0) s.waiting.delete(ws);
    // A first in line that leaves without a slot lets the next one try at once.
    else if (i === 0 && !got) q[0].wake();
  }
  throw tooManyConcurrent(limit);
}

/** Gives a slot back and wakes the workspace's next waiter. */
export async function releaseSlot(ctx: AppContext, workspaceId: string, slot: number, owner: string): Promise<void> {
  const s = state(ctx);
  try {
    await ctx.stores.ledger.releaseSlot(workspaceId, slot, owner);
  } catch {
    // The lease runs out on its own.
  } finally {
    s.held.delete(owner);
    s.lastHeldAt = Date.now();
    s.waiting.get(workspaceId)?.[0]?.wake();
    if (holding(s) === 0) for (const f of [...s.onIdle]) f();
  }
}

/**
 * For background work, between items: resolves once no request of this process has held a slot
 * for INTERACTIVE_QUIET_MS (at once when none did), so first-start previews and embeddings never
 * take the cores from a user's request. Ends early when `signal` aborts.
 */
export async function yieldToInteractive(ctx: AppContext, signal?: AbortSignal): Promise<void> {
  const s = state(ctx);
  while (!signal?.aborted) {
    if (holding(s) === 0) {
      const quietFor = Date.now() - s.lastHeldAt;
      if (quietFor >= INTERACTIVE_QUIET_MS) return;
      await new Promise((r) => setTimeout(r, INTERACTIVE_QUIET_MS - quietFor));
      continue;
    }
    await new Promise<void>((resolve) => {
      // Woken by the last release, or after a while to drop leases that ran out.
      const timer = setTimeout(done, 5_000);
      function done() {
        clearTimeout(timer);
        s.onIdle.delete(done);
        signal?.removeEventListener("abort", done);
        resolve();
      }
      s.onIdle.add(done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }
}

function holding(s: ProcessSlots): number {
  const now = Date.now();
  for (const [owner, h] of s.held) if (h.until <= now) s.held.delete(owner);
  return s.held.size;
}
