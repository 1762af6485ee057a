/**
 * The page gates' permission answer, cached per user and workspace for 30 minutes
 * (app-shell.md §6 "cached 30 minutes", §9 "Page-permission cache 30 minutes"). The answer is the
 * workspace read the shell makes (`GET /v1/workspace`: permissions, admin, flags, name); /v1 still
 * checks every call. An entry is dropped at once when a call made for that user answers 403 for a
 * permission, when the user signs in or out (a new session may be another workspace), and when
 * anyone changes the workspace through this server; a failed read is never cached (the gate
 * denies, and the next load asks again). The cache lives in this process: bounded, oldest first out.
 */
import type { z } from "zod";
import type { WorkspaceWire } from "./workspaceWire.js";
import { PERMISSION_CACHE_MS, PERMISSION_DENIALS } from "./shell.js";

export { PERMISSION_CACHE_MS, PERMISSION_DENIALS };

/** Entries kept at most (a few hundred bytes each). */
export const PERMISSION_CACHE_MAX = 10_000;

interface Entry<T> {
  value: T;
  at: number;
}

export class PermissionCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  /** Reads made (cache misses that went to /v1), for tests and the log. */
  reads = 0;

  constructor(
    private readonly ttlMs = PERMISSION_CACHE_MS,
    private readonly max = PERMISSION_CACHE_MAX,
    private readonly now: () => number = Date.now,
  ) {}

  private static key(userId: string, workspaceId: string): string {
    return `${userId}\u0000${workspaceId}`;
  }

  /** The cached answer while fresh, else `read()`'s (kept only when it succeeds). */
  async get(userId: string, workspaceId: string, read: () => Promise<T>): Promise<T> {
    const key = PermissionCache.key(userId, workspaceId);
    const hit = this.entries.get(key);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.value;
    this.entries.delete(key);
    this.reads++;
    const at = this.now();
    const value = await read();
    // An invalidation that came while the read was under way wins: the answer is not kept.
    if ((this.dropped.get(key) ?? -1) >= at || this.broadDropAt >= at) return value;
    while (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, at });
    return value;
  }

  /** The last drop of many keys at once (a read in flight for any of them is not kept). */
  private broadDropAt = -1;

  /** When each key was last dropped (so a read that started before it is not kept); bounded like the entries. */
  private readonly dropped = new Map<string, number>();

  private drop(key: string): void {
    this.entries.delete(key);
    this.dropped.delete(key);
    this.dropped.set(key, this.now());
    while (this.dropped.size > this.max) this.dropped.delete(this.dropped.keys().next().value!);
  }

  /** One user in one workspace (a 403 for a permission). */
  forget(userId: string, workspaceId: string): void {
    this.drop(PermissionCache.key(userId, workspaceId));
  }

  /** Every workspace of a user (sign-in, sign-out, a workspace switch). */
  forgetUser(userId: string): void {
    this.broadDropAt = this.now();
    for (const key of [...this.entries.keys()]) if (key.startsWith(`${userId}\u0000`)) this.drop(key);
  }

  /** Every member of a workspace (its settings, groups or members changed). */
  forgetWorkspace(workspaceId: string): void {
    this.broadDropAt = this.now();
    for (const key of [...this.entries.keys()]) if (key.endsWith(`\u0000${workspaceId}`)) this.drop(key);
  }

  clear(): void {
    this.broadDropAt = this.now();
    for (const key of [...this.entries.keys()]) this.drop(key);
  }

  get size(): number {
    return this.entries.size;
  }
}

/** The web server's one cache (the shell's workspace answers). */
export const permissionCache = new PermissionCache<z.infer<typeof WorkspaceWire>>();

/**
 * What a /v1 call made for `auth` means for the cache: a 403 for a permission drops that user's
 * answer; a change to a workspace (its settings, groups, members, invites) drops every member's;
 * a server administrator's change (plans, flags) drops them all.
 */
export function noteApiAnswer(auth: { user_id: string; workspace_id: string } | undefined, method: string, path: string, status: number, code: string | undefined): void {
  if (!auth) return;
  if (status === 403 && code !== undefined && PERMISSION_DENIALS.has(code)) {
    permissionCache.forget(auth.user_id, auth.workspace_id);
    return;
  }
  if (method === "GET" || status >= 400) return;
  const p = new URL(path, "http://x").pathname;
  if (p === "/v1/workspace" || p.startsWith("/v1/workspace/")) permissionCache.forgetWorkspace(auth.workspace_id);
  else if (p.startsWith("/v1/admin/")) permissionCache.clear();
}
