import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { apiFetch, startTestStack } from "../support/stack.js";
import { premadeVoiceId } from "../../functions/platform/domain/premadeVoices.js";
import { adminOf, joinAsMember } from "./support.js";

/**
 * History belongs to its author (issue 24): in one workspace, a plain member and even a workspace
 * admin neither list, read, download, regenerate nor delete someone else's generations (the specs
 * give admins nothing more here, like the hosted product); usage analytics still counts the
 * whole workspace's.
 */
const AVERY = premadeVoiceId("Avery");
let stack: EmbeddedStack;
let owner: Awaited<ReturnType<typeof adminOf>>;
let member: Awaited<ReturnType<typeof joinAsMember>>;
let coAdmin: Awaited<ReturnType<typeof joinAsMember>>;
let ownerItem: { id: string; requestId: string };
let memberItem: { id: string; requestId: string };

async function speak(apiKey: string, text: string) {
  const r = await apiFetch(stack, apiKey, `/v1/text-to-speech/${AVERY}`, { method: "POST", body: JSON.stringify({ text }) });
  expect(r.status).toBe(200);
  await r.arrayBuffer();
  return { id: r.headers.get("history-item-id")!, requestId: r.headers.get("request-id")! };
}

beforeAll(async () => {
  stack = await startTestStack();
  owner = await adminOf(stack);
  member = await joinAsMember(stack, owner);
  coAdmin = await joinAsMember(stack, owner, { seatType: "workspace_admin" });
  ownerItem = await speak(owner.apiKey, "The owner's private draft.");
  memberItem = await speak(member.apiKey, "The member's own line.");
});
afterAll(async () => stack?.close());

const ids = async (apiKey: string, query = "") => ((await (await apiFetch(stack, apiKey, `/v1/history${query}`)).json()) as { history: Array<{ history_item_id: string }> }).history.map((h) => h.history_item_id);

describe("history belongs to its author", () => {
  it("lists only the caller's own items, whatever the filters and cursor", async () => {
    expect(await ids(owner.apiKey)).toEqual([ownerItem.id]);
    expect(await ids(member.apiKey)).toEqual([memberItem.id]);
    expect(await ids(coAdmin.apiKey)).toEqual([]);
    expect(await ids(member.apiKey, `?voice_id=${AVERY}`)).toEqual([memberItem.id]);
    expect(await ids(member.apiKey, "?search=private")).toEqual([]);
    // Someone else's item is no cursor into their history.
    expect(await ids(member.apiKey, `?start_after_history_item_id=${ownerItem.id}`)).toEqual([]);
  });

  it("reads, plays, downloads and regenerates someone else's item as not found, for a member and a workspace admin", async () => {
    for (const who of [member, coAdmin]) {
      for (const path of [`/v1/history/${ownerItem.id}`, `/v1/history/${ownerItem.id}/audio`]) {
        const r = await apiFetch(stack, who.apiKey, path);
        expect(r.status, path).toBe(404);
        expect(((await r.json()) as { detail: { status: string } }).detail.status).toBe("history_item_not_found");
      }
      for (const list of [[ownerItem.id], [memberItem.id, ownerItem.id]]) {
        const zip = await apiFetch(stack, who.apiKey, "/v1/history/download", { method: "POST", body: JSON.stringify({ history_item_ids: list }) });
        expect(zip.status).toBe(400);
        const body = (await zip.json()) as { detail: { status: string; message: string } };
        expect(body.detail.status).toBe("history_item_not_found");
        expect(body.detail.message).toContain(ownerItem.id);
      }
      const again = await apiFetch(stack, who.apiKey, `/v1/history/${ownerItem.id}/regenerate`, { method: "POST" });
      expect(again.status).toBe(404);
      await again.arrayBuffer();
      const preference = await apiFetch(stack, who.apiKey, "/v1/dialogue-preference", {
        method: "POST",
        body: JSON.stringify({ request_a_id: ownerItem.requestId, request_b_id: memberItem.requestId, preference: "a" }),
      });
      expect(preference.status).toBe(404);
      await preference.arrayBuffer();
    }
    // The author still reads, plays and downloads it.
    expect((await apiFetch(stack, owner.apiKey, `/v1/history/${ownerItem.id}`)).status).toBe(200);
    const audio = await apiFetch(stack, owner.apiKey, `/v1/history/${ownerItem.id}/audio`);
    expect(audio.status).toBe(200);
    expect((await audio.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    const mine = await apiFetch(stack, member.apiKey, "/v1/history/download", { method: "POST", body: JSON.stringify({ history_item_ids: [memberItem.id] }) });
    expect(mine.status).toBe(200);
    await mine.arrayBuffer();
  });

  it("cannot delete someone else's item; the author can", async () => {
    for (const who of [member, coAdmin]) {
      const del = await apiFetch(stack, who.apiKey, `/v1/history/${ownerItem.id}`, { method: "DELETE" });
      expect(del.status).toBe(404);
      await del.arrayBuffer();
    }
    expect(await ids(owner.apiKey)).toEqual([ownerItem.id]);
    expect((await apiFetch(stack, owner.apiKey, `/v1/history/${ownerItem.id}/audio`)).status).toBe(200);

    const extra = await speak(owner.apiKey, "One to throw away.");
    expect((await apiFetch(stack, owner.apiKey, `/v1/history/${extra.id}`, { method: "DELETE" })).status).toBe(200);
    expect(await ids(owner.apiKey)).toEqual([ownerItem.id]);
  });

  it("keeps usage analytics for the whole workspace", async () => {
    const now = Date.now();
    const stats = await owner.client.usage.get({ startUnix: now - 86_400_000, endUnix: now + 60_000, includeWorkspaceMetrics: true, breakdownType: "user", aggregationInterval: "cumulative" });
    const last = (series: number[] | undefined) => series?.at(-1) ?? 0;
    expect(last(stats.usage[owner.email])).toBeGreaterThan(0);
    expect(last(stats.usage[member.email])).toBe("The member's own line.".length);
  });
});
