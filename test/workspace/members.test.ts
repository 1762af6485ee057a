import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ElevenLabsError } from "@elevenlabs/elevenlabs-js";
import { SMTPServer } from "smtp-server";
import type { AddressInfo } from "node:net";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { apiFetch, startTestStack } from "../support/stack.js";
import { permissionDeniedMessage } from "../../functions/platform/domain/permissions.js";
import { workspaceMessages } from "../../functions/platform/contract/workspace.js";
import { adminOf, joinAsMember, uniqueEmail } from "./support.js";

/** Contract §11 through the official SDK: invites, members, seats, groups and permissions. */
let stack: EmbeddedStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => stack?.close());

async function sdkError(p: Promise<unknown>): Promise<ElevenLabsError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ElevenLabsError);
  return e as ElevenLabsError;
}

describe("invites and members", () => {
  it("invites by link: the invitee signs up into the workspace and is listed as a member; the outbox keeps the mail", async () => {
    const admin = await adminOf(stack);
    const email = uniqueEmail("invitee");
    const created = (await admin.client.workspace.invites.create({ email })) as unknown as { status: string; invite_url: string };
    expect(created.status).toBe("ok");
    expect(created.invite_url).toMatch(new RegExp(`^${stack.url}/invite/[A-Za-z0-9]{40}$`));

    // Embedded mode keeps every invite mail in the workspace's outbox, with the link in it.
    const outbox = await (await apiFetch(stack, admin.apiKey, "/v1/workspace/outbox")).json();
    expect(outbox.messages[0]).toMatchObject({ to: email, delivery: "outbox" });
    expect(outbox.messages[0].text).toContain(created.invite_url);

    // The link tells who it is for; anyone may read that much.
    const token = created.invite_url.split("/invite/")[1];
    const info = await (await apiFetch(stack, undefined, `/v1/invites/${token}`)).json();
    expect(info).toMatchObject({ email, workspace_name: admin.workspace.name, has_account: false });

    // Signing up with another address through the link is refused.
    const wrong = await apiFetch(stack, undefined, "/v1/auth/sign-up", { method: "POST", body: JSON.stringify({ email: uniqueEmail("other"), password: "x".repeat(10), invite_token: token }) });
    expect(wrong.status).toBe(403);

    const res = await apiFetch(stack, undefined, "/v1/auth/sign-up", { method: "POST", body: JSON.stringify({ email, password: "joining password", invite_token: token }) });
    expect(res.status).toBe(201);
    expect((await res.json()).workspace_id).toBe(admin.workspace.workspace_id);

    const members = await admin.client.workspace.members.list();
    const joined = members.find((m) => m.email === email)!;
    expect(joined).toMatchObject({ seatType: "workspace_member", isOwner: false, isLocked: false });
    expect(members.find((m) => m.userId === admin.user.user_id)).toMatchObject({ isOwner: true, seatType: "workspace_admin" });

    // The link is used up.
    expect((await apiFetch(stack, undefined, `/v1/invites/${token}`)).status).toBe(404);
  });

  it("a signed-in person joins with the link and their session moves to the workspace", async () => {
    const admin = await adminOf(stack);
    const other = await adminOf(stack, "free");
    const created = (await admin.client.workspace.invites.create({ email: other.email })) as unknown as { invite_url: string };
    const token = created.invite_url.split("/invite/")[1];
    expect((await (await apiFetch(stack, undefined, `/v1/invites/${token}`)).json()).has_account).toBe(true);
    const signIn = await (await apiFetch(stack, undefined, "/v1/auth/sign-in", { method: "POST", body: JSON.stringify({ email: other.email, password: other.password }) })).json();
    // The web calls /v1 with a session token; accept as that session.
    const { issueToken } = await import("../../functions/platform/domain/tokens.js");
    const { sha256Hex } = await import("../../functions/platform/adapters/ids.js");
    const bearer = issueToken(stack.ctx.secrets.session, { sid: sha256Hex(signIn.session_id), uid: signIn.user_id, ws: signIn.workspace_id, exp: Math.floor(Date.now() / 1000) + 600 });
    const accepted = await apiFetch(stack, undefined, `/v1/invites/${token}/accept`, { method: "POST", headers: { authorization: `Bearer ${bearer}` } });
    expect(accepted.status).toBe(200);
    const session = await stack.ctx.stores.sessions.get(sha256Hex(signIn.session_id), Math.floor(Date.now() / 1000));
    expect(session?.workspace_id).toBe(admin.workspace.workspace_id);
    expect((await admin.client.workspace.members.list()).map((m) => m.email)).toContain(other.email);
    // Their own API key still addresses their own workspace.
    expect((await other.client.user.get()).workspaceId).toBe(other.workspace.workspace_id);
  });

  it("counts seats: members and pending invites together may not pass the plan's max_seats", async () => {
    const admin = await adminOf(stack, "scale"); // 3 seats
    const sent = (await admin.client.workspace.invites.createBatch({ emails: [uniqueEmail("a"), uniqueEmail("b")] })) as unknown as { status: string; invites: Array<{ email: string; invite_url: string }> };
    expect(sent.status).toBe("ok");
    expect(sent.invites).toHaveLength(2);
    const full = await sdkError(admin.client.workspace.invites.create({ email: uniqueEmail("c") }));
    expect(full.statusCode).toBe(400);
    expect(JSON.stringify(full.body)).toContain(workspaceMessages.seatLimitReached(3));

    // Revoking one frees its seat, and its link stops working.
    const revoked = await admin.client.workspace.invites.delete({ email: sent.invites[0].email });
    expect(revoked.status).toBe("ok");
    expect((await apiFetch(stack, undefined, `/v1/invites/${sent.invites[0].invite_url.split("/invite/")[1]}`)).status).toBe(404);
    expect((await admin.client.workspace.invites.create({ email: uniqueEmail("d") })).status).toBe("ok");
    const pending = await (await apiFetch(stack, admin.apiKey, "/v1/workspace/invites")).json();
    expect(pending.seats).toEqual({ used: 3, max: 3, members: 1, invites: 2 });
  });

  it("changes a member's role and locks them out; keeps the owner and one admin", async () => {
    const admin = await adminOf(stack);
    const member = await joinAsMember(stack, admin);
    expect((await member.client.user.get()).seatType).toBe("workspace_member");
    // Members cannot administer.
    expect((await sdkError(member.client.workspace.invites.create({ email: uniqueEmail("x") }))).statusCode).toBe(403);

    expect((await admin.client.workspace.members.update({ email: member.email, workspaceSeatType: "workspace_admin" })).status).toBe("ok");
    expect((await member.client.user.get()).seatType).toBe("workspace_admin");

    const owner = await sdkError(admin.client.workspace.members.update({ email: admin.email, workspaceSeatType: "workspace_member" }));
    expect(JSON.stringify(owner.body)).toContain(workspaceMessages.ownerUnchangeable);

    await admin.client.workspace.members.update({ email: member.email, isLocked: true });
    const locked = await sdkError(member.client.user.get());
    expect(locked.statusCode).toBe(403);
    expect((await admin.client.workspace.members.list()).find((m) => m.email === member.email)?.isLocked).toBe(true);
    await admin.client.workspace.members.update({ email: member.email, isLocked: false });
    expect((await member.client.user.get()).userId).toBe(member.userId);
  });

  it("mails invites through the configured SMTP server", async () => {
    const received: string[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, _session, done) {
        let text = "";
        stream.on("data", (d: Buffer) => (text += d.toString()));
        stream.on("end", () => {
          received.push(text);
          done();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", r));
    const port = (smtp.server.address() as AddressInfo).port;
    const mailing = await startTestStack({ env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: "Timbre <invites@example.test>" } });
    try {
      const admin = await adminOf(mailing);
      const email = uniqueEmail("mailed");
      const created = (await admin.client.workspace.invites.create({ email })) as unknown as { invite_url: string; email_delivery: string };
      expect(created.email_delivery).toBe("sent");
      expect(received).toHaveLength(1);
      expect(received[0]).toContain(`To: ${email}`);
      expect(received[0]).toContain("invites@example.test");
      // Quoted-printable may wrap the long link; undo soft breaks before looking for it.
      expect(received[0].replace(/=\r?\n/g, "")).toContain(created.invite_url);
    } finally {
      await mailing.close();
      await new Promise<void>((r) => smtp.close(() => r()));
    }
  });
});

describe("groups and permissions", () => {
  it("lists Everyone and custom groups, searches them, and adds and removes members", async () => {
    const admin = await adminOf(stack);
    const member = await joinAsMember(stack, admin);
    const created = await (await apiFetch(stack, admin.apiKey, "/v1/workspace/groups", { method: "POST", body: JSON.stringify({ name: "Narrators" }) })).json();
    expect(created).toMatchObject({ name: "Narrators", members: [], permissions: [] });

    expect((await admin.client.workspace.groups.members.add(created.id, { email: member.email })).status).toBe("ok");
    const groups = await admin.client.workspace.groups.list();
    expect(groups[created.id]).toMatchObject({ name: "Narrators", id: created.id, members: [member.email] });
    expect(groups.default).toMatchObject({ name: "Everyone" });
    expect(groups.default.members).toEqual(expect.arrayContaining([admin.email, member.email]));
    expect(groups.default.permissions).toContain("text_to_speech");

    const found = await admin.client.workspace.groups.search({ name: "narr" });
    expect(found).toEqual([{ name: "Narrators", id: created.id, membersEmails: [member.email] }]);
    expect(await admin.client.workspace.groups.search({ name: "nobody" })).toEqual([]);

    expect((await admin.client.workspace.groups.members.remove(created.id, { email: member.email })).status).toBe("ok");
    expect((await admin.client.workspace.groups.list())[created.id].members).toEqual([]);
    // Everyone's members are everyone.
    const everyone = await sdkError(admin.client.workspace.groups.members.remove("default", { email: member.email }));
    expect(everyone.statusCode).toBe(400);
  });

  it("a member without text_to_speech gets 403 with the spec's message; a custom group grants it back", async () => {
    const admin = await adminOf(stack);
    const member = await joinAsMember(stack, admin);
    const groups = await admin.client.workspace.groups.list();
    const withoutTts = groups.default.permissions!.filter((p) => p !== "text_to_speech");

    // A custom group may not enable what Everyone grants.
    const early = await apiFetch(stack, admin.apiKey, "/v1/workspace/groups", { method: "POST", body: JSON.stringify({ name: "Voice team", permissions: ["text_to_speech"] }) });
    expect(early.status).toBe(400);
    expect((await early.json()).detail.message).toBe("Must be disabled in the Everyone group first");

    const patched = await apiFetch(stack, admin.apiKey, "/v1/workspace/groups/default", { method: "PATCH", body: JSON.stringify({ permissions: withoutTts }) });
    expect(patched.status).toBe(200);
    expect((await admin.client.workspace.groups.list()).default.permissions).not.toContain("text_to_speech");

    const denied = await apiFetch(stack, member.apiKey, `/v1/text-to-speech/21m00Tcm4TlvDq8ikWAM`, { method: "POST", body: JSON.stringify({ text: "Hello there" }) });
    expect(denied.status).toBe(403);
    expect((await denied.json()).detail).toEqual({ status: "missing_permissions", message: permissionDeniedMessage("text_to_speech") });
    // Admins keep every permission.
    const mine = await (await apiFetch(stack, admin.apiKey, "/v1/workspace")).json();
    expect(mine.permissions).toContain("text_to_speech");

    const team = await (await apiFetch(stack, admin.apiKey, "/v1/workspace/groups", { method: "POST", body: JSON.stringify({ name: "Voice team", permissions: ["text_to_speech"] }) })).json();
    await admin.client.workspace.groups.members.add(team.id, { email: member.email });
    const theirs = await (await apiFetch(stack, member.apiKey, "/v1/workspace")).json();
    expect(theirs.permissions).toContain("text_to_speech");
    expect(theirs.all_members_permissions).not.toContain("text_to_speech");
  });

  it("training_opt_out: admins set it, every member reads it, a member cannot change it", async () => {
    const admin = await adminOf(stack);
    const member = await joinAsMember(stack, admin);
    const read = async (key: string) => ((await (await apiFetch(stack, key, "/v1/workspace")).json()) as { training_opt_out: boolean }).training_opt_out;
    expect(await read(member.apiKey)).toBe(false);
    const refused = await apiFetch(stack, member.apiKey, "/v1/workspace", { method: "PATCH", body: JSON.stringify({ training_opt_out: true }) });
    expect(refused.status).toBe(403);
    expect(await read(admin.apiKey)).toBe(false);
    const set = await apiFetch(stack, admin.apiKey, "/v1/workspace", { method: "PATCH", body: JSON.stringify({ training_opt_out: true }) });
    expect(set.status).toBe(200);
    expect(await read(member.apiKey)).toBe(true);
    // Another change leaves it as it is.
    expect((await apiFetch(stack, admin.apiKey, "/v1/workspace", { method: "PATCH", body: JSON.stringify({ name: "Renamed" }) })).status).toBe(200);
    expect(await read(admin.apiKey)).toBe(true);
  });
});
