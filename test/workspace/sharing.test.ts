import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ElevenLabsClient, ElevenLabsError } from "@elevenlabs/elevenlabs-js";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { apiFetch, insertOwnVoice, startTestStack } from "../support/stack.js";
import { premadeVoiceId } from "../../functions/platform/domain/premadeVoices.js";
import { permissionDeniedMessage } from "../../functions/platform/domain/permissions.js";
import { sharingMessages } from "../../functions/capabilities/workspace/sharing.js";
import { adminOf, joinAsMember } from "./support.js";

/** Contract §11 `workspace.resources` and the service accounts of §13c, through the official SDK. */
const AVERY = premadeVoiceId("Avery");
const VIEWER_MESSAGE = "Workspace viewers cannot save changes to pronunciation dictionaries. Please contact a workspace admin.";

let stack: EmbeddedStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => stack?.close());

async function failure(p: Promise<unknown>): Promise<ElevenLabsError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ElevenLabsError);
  return e as ElevenLabsError;
}

describe("sharing a pronunciation dictionary", () => {
  it("shared with a member as viewer: they can use it in speech but not edit it; as editor they can", async () => {
    const admin = await adminOf(stack);
    const member = await joinAsMember(stack, admin);
    const d = await admin.client.pronunciationDictionaries.createFromRules({ name: "Brands", rules: [{ type: "alias", stringToReplace: "ACME", alias: "Acme" }] });

    // Private until shared: the member does not see it.
    expect((await failure(member.client.pronunciationDictionaries.get(d.id))).statusCode).toBe(404);

    await admin.client.workspace.resources.share(d.id, { role: "viewer", resourceType: "pronunciation_dictionary", userEmail: member.email });
    expect((await member.client.pronunciationDictionaries.get(d.id)).permissionOnResource).toBe("viewer");
    const speech = await apiFetch(stack, member.apiKey, `/v1/text-to-speech/${AVERY}`, {
      method: "POST",
      body: JSON.stringify({ text: "ACME", pronunciation_dictionary_locators: [{ pronunciation_dictionary_id: d.id }] }),
    });
    expect(speech.status).toBe(200);
    await speech.arrayBuffer();
    const edit = await failure(member.client.pronunciationDictionaries.rules.add(d.id, { rules: [{ type: "alias", stringToReplace: "a", alias: "b" }] }));
    expect(edit.statusCode).toBe(403);
    expect(edit.body).toMatchObject({ detail: { message: VIEWER_MESSAGE } });
    // Viewers do not share further.
    const reshare = await failure(member.client.workspace.resources.share(d.id, { role: "viewer", resourceType: "pronunciation_dictionary", groupId: "default" }));
    expect(reshare.statusCode).toBe(403);

    await admin.client.workspace.resources.share(d.id, { role: "editor", resourceType: "pronunciation_dictionary", userEmail: member.email });
    expect((await member.client.pronunciationDictionaries.rules.add(d.id, { rules: [{ type: "alias", stringToReplace: "a", alias: "b" }] })).versionRulesNum).toBe(2);

    await admin.client.workspace.resources.unshare(d.id, { resourceType: "pronunciation_dictionary", userEmail: member.email });
    expect((await failure(member.client.pronunciationDictionaries.get(d.id))).statusCode).toBe(404);
  });

  it("lets an editor share it only while the workspace stores shared files on the user (app-shell.md §8)", async () => {
    const admin = await adminOf(stack);
    const editor = await joinAsMember(stack, admin);
    const other = await joinAsMember(stack, admin);
    const d = await admin.client.pronunciationDictionaries.createFromRules({ name: "Places", rules: [{ type: "alias", stringToReplace: "NYC", alias: "New York" }] });
    await admin.client.workspace.resources.share(d.id, { role: "editor", resourceType: "pronunciation_dictionary", userEmail: editor.email });
    const metadata = async () => (await (await apiFetch(stack, editor.apiKey, `/v1/workspace/resources/${d.id}?resource_type=pronunciation_dictionary`)).json()) as { can_share: boolean; permission_on_resource: string };

    // The default (false): sharing needs the admin role on the dictionary.
    expect(await metadata()).toMatchObject({ permission_on_resource: "editor", can_share: false });
    const refused = await failure(editor.client.workspace.resources.share(d.id, { role: "viewer", resourceType: "pronunciation_dictionary", userEmail: other.email }));
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toMatchObject({ detail: { message: sharingMessages.adminRequired } });

    // Only an administrator changes the setting.
    const byMember = await apiFetch(stack, editor.apiKey, "/v1/workspace", { method: "PATCH", body: JSON.stringify({ storing_shared_files_on_user: true }) });
    expect(byMember.status).toBe(403);
    expect((await apiFetch(stack, admin.apiKey, "/v1/workspace", { method: "PATCH", body: JSON.stringify({ storing_shared_files_on_user: true }) })).status).toBe(200);
    expect(((await (await apiFetch(stack, admin.apiKey, "/v1/workspace")).json()) as { storing_shared_files_on_user: boolean }).storing_shared_files_on_user).toBe(true);

    expect(await metadata()).toMatchObject({ can_share: true });
    await editor.client.workspace.resources.share(d.id, { role: "viewer", resourceType: "pronunciation_dictionary", userEmail: other.email });
    expect((await other.client.pronunciationDictionaries.get(d.id)).permissionOnResource).toBe("viewer");
    // A viewer still does not share.
    expect((await failure(other.client.workspace.resources.share(d.id, { role: "viewer", resourceType: "pronunciation_dictionary", groupId: "default" }))).statusCode).toBe(403);
  });

  it("reports roles by group, default access, share options, and the owner first then by role then by name", async () => {
    const admin = await adminOf(stack);
    const [ann, bob] = [await joinAsMember(stack, admin), await joinAsMember(stack, admin)];
    const group = await (await apiFetch(stack, admin.apiKey, "/v1/workspace/groups", { method: "POST", body: JSON.stringify({ name: "Editors" }) })).json();
    const d = await admin.client.pronunciationDictionaries.createFromRules({ name: "Team words", rules: [] });
    await admin.client.workspace.resources.share(d.id, { role: "viewer", resourceType: "pronunciation_dictionary", groupId: "default" });
    await admin.client.workspace.resources.share(d.id, { role: "editor", resourceType: "pronunciation_dictionary", groupId: group.id });
    await admin.client.workspace.resources.share(d.id, { role: "admin", resourceType: "pronunciation_dictionary", userEmail: bob.email });

    const meta = await admin.client.workspace.resources.get(d.id, { resourceType: "pronunciation_dictionary" });
    expect(meta).toMatchObject({ resourceId: d.id, resourceType: "pronunciation_dictionary", creatorUserId: admin.user.user_id, resourceName: "Team words" });
    expect(meta.roleToGroupIds.viewer).toEqual(["default"]);
    expect(meta.roleToGroupIds.editor).toEqual([group.id]);
    expect(meta.roleToGroupIds.admin).toEqual([bob.userId]);
    // Who could still be given access: Ann (the others hold a role).
    expect(meta.shareOptions.map((o) => o.id)).toEqual([ann.userId]);
    expect(meta.shareOptions[0].type).toBe("user");

    const raw = await (await apiFetch(stack, admin.apiKey, `/v1/workspace/resources/${d.id}?resource_type=pronunciation_dictionary`)).json();
    expect(raw.default_access).toBe("viewer");
    expect(raw.principals.map((p: { role: string; type: string }) => `${p.role}:${p.type}`)).toEqual(["owner:user", "admin:user", "editor:group"]);
    expect(raw.principals[0]).toMatchObject({ id: admin.user.user_id, is_owner: true, is_self: true });

    // The default access reaches every member: Ann now reads it as viewer.
    expect((await ann.client.pronunciationDictionaries.get(d.id)).permissionOnResource).toBe("viewer");
    // Bob, an admin of it, shares further; nobody changes the owner, and nobody their own entry.
    await bob.client.workspace.resources.share(d.id, { role: "editor", resourceType: "pronunciation_dictionary", userEmail: ann.email });
    expect((await ann.client.pronunciationDictionaries.get(d.id)).permissionOnResource).toBe("editor");
    const owner = await failure(bob.client.workspace.resources.unshare(d.id, { resourceType: "pronunciation_dictionary", userEmail: admin.email }));
    expect(owner.body).toMatchObject({ detail: { message: sharingMessages.ownerFixed } });
    const self = await failure(bob.client.workspace.resources.share(d.id, { role: "viewer", resourceType: "pronunciation_dictionary", userEmail: bob.email }));
    expect(self.body).toMatchObject({ detail: { message: sharingMessages.selfFixed } });

    // Restricted: un-sharing the default group.
    await admin.client.workspace.resources.unshare(d.id, { resourceType: "pronunciation_dictionary", groupId: "default" });
    const after = await (await apiFetch(stack, admin.apiKey, `/v1/workspace/resources/${d.id}?resource_type=pronunciation_dictionary`)).json();
    expect(after.default_access).toBe("restricted");
  });
});

describe("sharing a voice", () => {
  it("keeps a member's voice private until shared; a viewer uses it but cannot edit it", async () => {
    const admin = await adminOf(stack);
    const member = await joinAsMember(stack, admin);
    const voice = await insertOwnVoice(stack, admin.workspace.workspace_id, admin.user.user_id, "Admin's narrator");
    expect((await admin.client.voices.get(voice.voice_id)).permissionOnResource).toBe("owner");
    expect((await failure(member.client.voices.get(voice.voice_id))).statusCode).toBe(404);
    expect((await member.client.voices.search({ voiceType: "workspace" })).voices).toHaveLength(0);

    await admin.client.workspace.resources.share(voice.voice_id, { role: "viewer", resourceType: "voice", userEmail: member.email });
    const seen = await member.client.voices.get(voice.voice_id);
    expect(seen.permissionOnResource).toBe("viewer");
    expect((await member.client.voices.search({ voiceType: "workspace" })).voices.map((v) => v.voiceId)).toEqual([voice.voice_id]);
    const edit = await failure(member.client.voices.update(voice.voice_id, { name: "Mine now" }));
    expect(edit.statusCode).toBe(403);
    const meta = await admin.client.workspace.resources.get(voice.voice_id, { resourceType: "voice" });
    expect(meta.roleToGroupIds.viewer).toEqual([member.userId]);
  });
});

describe("service accounts", () => {
  it("creates accounts and keys, lists them, shares with a key, narrows and disables keys", async () => {
    const admin = await adminOf(stack);
    const created = await admin.client.serviceAccounts.create({ name: "Render farm" });
    const id = created.serviceAccountUserId;
    const key = await admin.client.serviceAccounts.apiKeys.create(id, { name: "prod", permissions: "all" });
    expect(key.xiApiKey).toMatch(/^sk_/);

    const list = await admin.client.serviceAccounts.list();
    expect(list.serviceAccounts).toHaveLength(1);
    expect(list.serviceAccounts[0]).toMatchObject({ serviceAccountUserId: id, name: "Render farm" });
    expect(list.serviceAccounts[0].apiKeys[0]).toMatchObject({ name: "prod", keyId: key.keyId, serviceAccountUserId: id });
    expect(list.serviceAccounts[0].apiKeys[0].hashedXiApiKey).not.toContain(key.xiApiKey);
    expect((await admin.client.serviceAccounts.apiKeys.list(id)).apiKeys.map((k) => k.keyId)).toEqual([key.keyId]);
    // Not a person: no seat, not among members.
    expect((await admin.client.workspace.members.list()).map((m) => m.userId)).not.toContain(id);

    const sa = new ElevenLabsClient({ baseUrl: stack.url, apiKey: key.xiApiKey, maxRetries: 0 });
    const d = await admin.client.pronunciationDictionaries.createFromRules({ name: "For the farm", rules: [] });
    const meta = await admin.client.workspace.resources.get(d.id, { resourceType: "pronunciation_dictionary" });
    expect(meta.shareOptions).toContainEqual(expect.objectContaining({ id: key.keyId, type: "key", name: "Render farm · prod" }));
    expect((await failure(sa.pronunciationDictionaries.get(d.id))).statusCode).toBe(404);
    await admin.client.workspace.resources.share(d.id, { role: "viewer", resourceType: "pronunciation_dictionary", workspaceApiKeyId: key.keyId });
    expect((await sa.pronunciationDictionaries.get(d.id)).permissionOnResource).toBe("viewer");

    // A key narrowed to permissions without text_to_speech cannot generate.
    await admin.client.serviceAccounts.apiKeys.update(id, key.keyId, { permissions: ["voices_read"] });
    const tts = await apiFetch(stack, key.xiApiKey, `/v1/text-to-speech/${AVERY}`, { method: "POST", body: JSON.stringify({ text: "Hi" }) });
    expect(tts.status).toBe(403);
    expect((await tts.json()).detail.message).toBe(permissionDeniedMessage("text_to_speech"));

    await admin.client.serviceAccounts.apiKeys.update(id, key.keyId, { isEnabled: false });
    expect((await failure(sa.user.get())).statusCode).toBe(401);
    await admin.client.serviceAccounts.apiKeys.delete(id, key.keyId);
    expect((await admin.client.serviceAccounts.apiKeys.list(id)).apiKeys).toEqual([]);
  });
});
