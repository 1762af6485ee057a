import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ElevenLabsClient } from "@elevenlabs/elevenlabs-js";
import { PNG } from "pngjs";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { apiFetch, createTestAccount, startTestStack } from "../support/stack.js";
import { createAccount, createApiKey } from "../../functions/platform/domain/accounts.js";

/**
 * Producer Mode (app-shell.md §2, §3, §6): producers, named by the server's administrators, take manual verification
 * requests from a queue, review them, and see their history; teams with leader and owner roles; GET teams for @me.
 */
let stack: EmbeddedStack;
let adminKey: string;

beforeAll(async () => {
  stack = await startTestStack();
  const { user, workspace } = await createAccount(stack.ctx, { email: `op-${Date.now()}@example.test`, password: "operator password", tier: "free", serverAdmin: true });
  adminKey = (await createApiKey(stack.ctx, { workspaceId: workspace.workspace_id, userId: user.user_id, name: "ops" })).value;
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

const png = () => {
  const p = new PNG({ width: 4, height: 4 });
  p.data.fill(120);
  return PNG.sync.write(p);
};

type Account = Awaited<ReturnType<typeof createTestAccount>>;
const call = async (key: string, path: string, init: { method?: string; body?: unknown } = {}) => {
  const r = await apiFetch(stack, key, path, { method: init.method ?? (init.body ? "POST" : "GET"), body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const text = await r.text();
  return { status: r.status, body: (text && r.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text) as any };
};

async function producer(): Promise<Account> {
  const acct = await createTestAccount(stack, "free");
  const r = await call(adminKey, "/v1/admin/producers", { body: { email: acct.email, is_producer: true } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return acct;
}

/** A creator's professional clone with a pending manual verification request; returns the request's id. */
async function pendingRequest(language = "en"): Promise<{ owner: Account; voiceId: string; requestId: string }> {
  const owner = await createTestAccount(stack, "creator");
  const client = new ElevenLabsClient({ baseUrl: stack.url, apiKey: owner.apiKey, maxRetries: 0 });
  const { voiceId } = await client.voices.pvc.create({ name: `Voice ${language}`, language });
  await client.voices.pvc.verification.request(voiceId, { files: [new File([new Uint8Array(png())], "id.png", { type: "image/png" })], extraText: "It is my voice." });
  const list = await call(adminKey, "/v1/admin/manual-verifications?status=pending");
  const req = (list.body.requests as Array<{ request_id: string; voice_id: string }>).find((x) => x.voice_id === voiceId)!;
  return { owner, voiceId, requestId: req.request_id };
}

describe("Producer Mode", () => {
  it("is only for producers, and only a server administrator names them", async () => {
    const plain = await createTestAccount(stack, "free");
    for (const path of ["/v1/productions", "/v1/productions?view=history", "/v1/productions/teams/@me", "/v1/productions/settings"]) {
      const r = await call(plain.apiKey, path);
      expect(r.status, path).toBe(403);
      expect(r.body.detail.status).toBe("producer_required");
    }
    const self = await call(plain.apiKey, "/v1/admin/producers", { body: { email: plain.email, is_producer: true } });
    expect(self.status).toBe(403);
    expect((await call(adminKey, "/v1/admin/producers", { body: { email: "nobody@example.test", is_producer: true } })).status).toBe(404);
    await call(adminKey, "/v1/admin/producers", { body: { email: plain.email, is_producer: true } });
    const user = await call(plain.apiKey, "/v1/user");
    expect(user.body.is_producer).toBe(true);
    expect((await call(plain.apiKey, "/v1/productions")).status).toBe(200);
  });

  it("queues a request for one producer at a time, lets only its holder open and decide it, and keeps the history", async () => {
    const [a, b] = [await producer(), await producer()];
    const { owner, voiceId, requestId } = await pendingRequest();
    const queue = await call(a.apiKey, "/v1/productions?view=unclaimed");
    const item = queue.body.productions.find((p: { production_id: string }) => p.production_id === requestId);
    expect(item).toMatchObject({ type: "voice_verification", voice_name: "Voice en", language: "en", note: "It is my voice.", status: "pending" });
    // Producers review the request, not the person: no e-mail address.
    expect(JSON.stringify(queue.body)).not.toContain(owner.email);
    const fileId = item.files[0].file_id as string;

    // Before claiming, nobody opens or decides it.
    expect((await call(a.apiKey, `/v1/productions/${requestId}/files/${fileId}`)).status).toBe(409);
    expect((await call(a.apiKey, `/v1/productions/${requestId}/approve`, { body: {} })).body.detail.status).toBe("production_not_claimed");

    // Two producers claim at once: exactly one holds it.
    const both = await Promise.all([a, b].map((p) => call(p.apiKey, `/v1/productions/${requestId}/claim`, { body: {} })));
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const [holder, other] = both[0].status === 200 ? [a, b] : [b, a];
    expect((await call(other.apiKey, "/v1/productions?view=unclaimed")).body.productions.map((p: { production_id: string }) => p.production_id)).not.toContain(requestId);
    expect((await call(holder.apiKey, "/v1/productions?view=active")).body.productions.map((p: { production_id: string }) => p.production_id)).toContain(requestId);
    expect((await call(other.apiKey, `/v1/productions/${requestId}/files/${fileId}`)).status).toBe(409);
    const doc = await apiFetch(stack, holder.apiKey, `/v1/productions/${requestId}/files/${fileId}`);
    expect(doc.status).toBe(200);
    expect(Buffer.from(await doc.arrayBuffer()).subarray(1, 4).toString()).toBe("PNG");

    // Released, it returns to the queue; claimed again and rejected with a reason.
    expect((await call(holder.apiKey, `/v1/productions/${requestId}/release`, { body: {} })).status).toBe(200);
    expect((await call(other.apiKey, "/v1/productions?view=unclaimed")).body.productions.map((p: { production_id: string }) => p.production_id)).toContain(requestId);
    expect((await call(other.apiKey, `/v1/productions/${requestId}/claim`, { body: {} })).status).toBe(200);
    expect((await call(other.apiKey, `/v1/productions/${requestId}/reject`, { body: { reason: " " } })).status).toBe(422);
    const rejected = await call(other.apiKey, `/v1/productions/${requestId}/reject`, { body: { reason: "The document does not show the speaker." } });
    expect(rejected.body).toMatchObject({ status: "rejected", rejection_reason: "The document does not show the speaker." });
    const history = await call(other.apiKey, "/v1/productions?view=history");
    expect(history.body.productions.map((p: { production_id: string }) => p.production_id)).toContain(requestId);
    expect((await call(holder.apiKey, "/v1/productions?view=history")).body.productions.map((p: { production_id: string }) => p.production_id)).not.toContain(requestId);
    // The decision reached the voice as an administrator's would.
    const voice = await call(owner.apiKey, `/v1/voices/${voiceId}`);
    expect(voice.body.voice_verification.is_verified).toBe(false);
    expect(voice.body.fine_tuning.manual_verification).toMatchObject({ status: "rejected", rejection_reason: "The document does not show the speaker." });
    expect((await call(other.apiKey, `/v1/productions/${requestId}/approve`, { body: {} })).status).toBe(409);
  });

  it("approves: the voice is verified; a producer never reviews a request of their own", async () => {
    const p = await producer();
    const { owner: requester, voiceId, requestId } = await pendingRequest();
    await call(p.apiKey, `/v1/productions/${requestId}/claim`, { body: {} });
    expect((await call(p.apiKey, `/v1/productions/${requestId}/approve`, { body: {} })).body.status).toBe("approved");
    const ownerOf = (await call(adminKey, "/v1/admin/manual-verifications?status=approved")).body.requests.find((x: { voice_id: string }) => x.voice_id === voiceId);
    expect(ownerOf.reviewed_by).toBe(p.user.user_id);
    expect((await call(requester.apiKey, `/v1/voices/${voiceId}`)).body.voice_verification.is_verified).toBe(true);
    const { owner, requestId: own } = await pendingRequest();
    await call(adminKey, "/v1/admin/producers", { body: { email: owner.email, is_producer: true } });
    expect((await call(owner.apiKey, "/v1/productions")).body.productions.map((x: { production_id: string }) => x.production_id)).not.toContain(own);
    const claim = await call(owner.apiKey, `/v1/productions/${own}/claim`, { body: {} });
    expect(claim.status).toBe(403);
    expect(claim.body.detail.status).toBe("production_own_request");
    const verified = await call(adminKey, "/v1/admin/manual-verifications?status=approved");
    expect(verified.body.requests.map((x: { voice_id: string }) => x.voice_id)).toContain(voiceId);
  });

  it("settings: a producer's languages filter the queue, within bounds", async () => {
    const p = await producer();
    const { requestId: de } = await pendingRequest("de");
    const { requestId: en } = await pendingRequest("en");
    expect((await call(p.apiKey, "/v1/productions/settings", { method: "PATCH", body: { languages: ["german"] } })).status).toBe(422);
    expect((await call(p.apiKey, "/v1/productions/settings", { method: "PATCH", body: { languages: Array.from({ length: 21 }, (_, i) => `l${String.fromCharCode(97 + i)}`) } })).status).toBe(422);
    const set = await call(p.apiKey, "/v1/productions/settings", { method: "PATCH", body: { languages: ["DE"] } });
    expect(set.body).toEqual({ languages: ["de"] });
    expect((await call(p.apiKey, "/v1/productions/settings")).body).toEqual({ languages: ["de"] });
    const ids = (await call(p.apiKey, "/v1/productions")).body.productions.map((x: { production_id: string }) => x.production_id);
    expect(ids).toContain(de);
    expect(ids).not.toContain(en);
  });

  it("teams: administrators form them; GET teams for @me gives each role, and leaders and owners see the workload", async () => {
    const [lead, member, owner] = [await producer(), await producer(), await producer()];
    const outsider = await createTestAccount(stack, "free");
    expect((await call(lead.apiKey, "/v1/admin/producer-teams", { body: { name: "Reviewers" } })).status).toBe(403);
    expect((await call(adminKey, "/v1/admin/producer-teams", { body: { name: "" } })).status).toBe(422);
    const team = (await call(adminKey, "/v1/admin/producer-teams", { body: { name: "Reviewers" } })).body as { team_id: string };
    const add = (email: string, role: string) => call(adminKey, `/v1/admin/producer-teams/${team.team_id}/members`, { body: { email, role } });
    expect((await add(lead.email, "leader")).status).toBe(200);
    expect((await add(member.email, "member")).status).toBe(200);
    expect((await add(owner.email, "owner")).status).toBe(200);
    const notProducer = await add(outsider.email, "member");
    expect(notProducer.status).toBe(400);
    expect(notProducer.body.detail.status).toBe("member_not_producer");
    expect((await call(adminKey, `/v1/admin/producer-teams/nope/members`, { body: { email: lead.email, role: "leader" } })).status).toBe(404);

    const { requestId } = await pendingRequest();
    await call(member.apiKey, `/v1/productions/${requestId}/claim`, { body: {} });

    const mine = await call(member.apiKey, "/v1/productions/teams/@me");
    expect(mine.body.is_team_leader).toBe(false);
    expect(mine.body.teams).toEqual([{ team_id: team.team_id, name: "Reviewers", role: "member", is_leader: false, members: null }]);
    for (const who of [lead, owner]) {
      const led = await call(who.apiKey, "/v1/productions/teams/@me");
      expect(led.body.is_team_leader).toBe(true);
      const row = led.body.teams[0].members.find((m: { email: string }) => m.email === member.email);
      expect(row).toMatchObject({ role: "member", active: 1, decided: 0 });
    }
    const listed = await call(adminKey, "/v1/admin/producer-teams");
    expect(listed.body.teams.find((t: { team_id: string }) => t.team_id === team.team_id).members).toHaveLength(3);
    expect((await call(adminKey, `/v1/admin/producer-teams/${team.team_id}/members/${member.user.user_id}`, { method: "DELETE" })).status).toBe(200);
    expect((await call(member.apiKey, "/v1/productions/teams/@me")).body.teams).toEqual([]);
  });
});
