import { describe, expect, it } from "vitest";
import { PERMISSION_CACHE_MS, PermissionCache, noteApiAnswer, permissionCache } from "./permissionCache.server.js";

/** The page gates' 30-minute permission cache (app-shell.md §6, §9), with a clock of its own. */
describe("the page permission cache", () => {
  const setup = (max?: number) => {
    let now = 1_000_000;
    const cache = new PermissionCache<string[]>(PERMISSION_CACHE_MS, max, () => now);
    let reads = 0;
    const read = (answer: string[]) => async () => {
      reads++;
      return answer;
    };
    return { cache, read, reads: () => reads, advance: (ms: number) => (now += ms) };
  };

  it("answers from the cache for 30 minutes, then reads again", async () => {
    const { cache, read, reads, advance } = setup();
    expect(await cache.get("u1", "w1", read(["voice_lab"]))).toEqual(["voice_lab"]);
    advance(PERMISSION_CACHE_MS - 1);
    expect(await cache.get("u1", "w1", read([]))).toEqual(["voice_lab"]);
    expect(reads()).toBe(1);
    advance(1);
    expect(await cache.get("u1", "w1", read([]))).toEqual([]);
    expect(reads()).toBe(2);
    expect(cache.reads).toBe(2);
  });

  it("keeps one answer per user and workspace", async () => {
    const { cache, read, reads } = setup();
    await cache.get("u1", "w1", read(["a"]));
    expect(await cache.get("u1", "w2", read(["b"]))).toEqual(["b"]);
    expect(await cache.get("u2", "w1", read(["c"]))).toEqual(["c"]);
    expect(await cache.get("u1", "w1", read(["x"]))).toEqual(["a"]);
    expect(reads()).toBe(3);
  });

  it("drops an answer on a permission 403, a user's on a new or ended session, a workspace's on its change", async () => {
    const { cache, read, reads } = setup();
    await cache.get("u1", "w1", read(["a"]));
    await cache.get("u1", "w2", read(["a"]));
    await cache.get("u2", "w1", read(["a"]));
    cache.forget("u1", "w1");
    expect(await cache.get("u1", "w1", read(["b"]))).toEqual(["b"]);
    cache.forgetUser("u1");
    expect(await cache.get("u1", "w2", read(["b"]))).toEqual(["b"]);
    expect(await cache.get("u2", "w1", read(["b"]))).toEqual(["a"]);
    cache.forgetWorkspace("w1");
    expect(await cache.get("u2", "w1", read(["c"]))).toEqual(["c"]);
    expect(reads()).toBe(6);
  });

  it("never keeps a failed read: the caller denies, the next load asks again", async () => {
    const { cache, read, reads } = setup();
    await expect(cache.get("u1", "w1", () => Promise.reject(new Error("unreachable")))).rejects.toThrow("unreachable");
    expect(await cache.get("u1", "w1", read(["a"]))).toEqual(["a"]);
    expect(reads()).toBe(1);
    expect(cache.reads).toBe(2);
  });

  it("does not keep an answer read while it was being invalidated", async () => {
    const { cache, read, reads } = setup();
    let release!: () => void;
    const slow = cache.get("u1", "w1", () => new Promise<string[]>((r) => (release = () => r(["old"]))));
    cache.forget("u1", "w1");
    release();
    expect(await slow).toEqual(["old"]);
    expect(await cache.get("u1", "w1", read(["new"]))).toEqual(["new"]);
    expect(reads()).toBe(1);
  });

  it("is bounded: the oldest answers go first", async () => {
    const { cache, read } = setup(3);
    for (const u of ["a", "b", "c", "d"]) await cache.get(u, "w", read([u]));
    expect(cache.size).toBe(3);
    expect(await cache.get("a", "w", read(["again"]))).toEqual(["again"]);
    expect(await cache.get("d", "w", read(["again"]))).toEqual(["d"]);
  });

  it("hears of the API's answers: a permission 403 drops the user's entry, a workspace change every member's", async () => {
    const u = { user_id: `u-${Math.random()}`, workspace_id: `w-${Math.random()}` };
    const other = { user_id: `v-${Math.random()}`, workspace_id: u.workspace_id };
    let reads = 0;
    const read = async () => {
      reads++;
      return { workspace_id: u.workspace_id, name: "W", tier: "pro", is_admin: false, seat_type: "workspace_member", permissions: [], all_members_permissions: [], flags: {} };
    };
    await permissionCache.get(u.user_id, u.workspace_id, read);
    await permissionCache.get(other.user_id, other.workspace_id, read);
    // Other refusals and reads change nothing.
    noteApiAnswer(u, "POST", "/v1/text-to-speech/x", 403, "voice_not_owned");
    noteApiAnswer(u, "GET", "/v1/workspace/members", 200, undefined);
    noteApiAnswer(u, "PATCH", "/v1/workspace", 400, "validation_error");
    await permissionCache.get(u.user_id, u.workspace_id, read);
    expect(reads).toBe(2);
    noteApiAnswer(u, "POST", "/v1/user/api-keys", 403, "missing_permissions");
    await permissionCache.get(u.user_id, u.workspace_id, read);
    await permissionCache.get(other.user_id, other.workspace_id, read);
    expect(reads).toBe(3);
    noteApiAnswer(u, "POST", "/v1/workspace/groups/default/permissions", 200, undefined);
    await permissionCache.get(u.user_id, u.workspace_id, read);
    await permissionCache.get(other.user_id, other.workspace_id, read);
    expect(reads).toBe(5);
    noteApiAnswer(u, "DELETE", "/v1/x", 403, "workspace_admin_required");
    await permissionCache.get(u.user_id, u.workspace_id, read);
    expect(reads).toBe(6);
  });
});
