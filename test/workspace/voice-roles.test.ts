import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { apiFetch, insertOwnVoice, startTestStack } from "../support/stack.js";
import { newId } from "../../functions/platform/adapters/ids.js";
import type { VoiceSampleRecord } from "../../functions/platform/stores/voices.js";
import { workspaceKey } from "../../functions/platform/adapters/s3.js";
import { adminOf, joinAsMember } from "./support.js";

/**
 * A voice shared within the workspace (issue 24): every write path checks the caller's role on it.
 * Viewers use it and change nothing (403); editors (and admins) edit it; only admins (its
 * creator, workspace admins, or someone given admin) share it further, in the workspace or to
 * the Voice Library.
 */
let stack: EmbeddedStack;
let owner: Awaited<ReturnType<typeof adminOf>>;
let viewer: Awaited<ReturnType<typeof joinAsMember>>;
let editor: Awaited<ReturnType<typeof joinAsMember>>;
let sharer: Awaited<ReturnType<typeof joinAsMember>>;

beforeAll(async () => {
  stack = await startTestStack();
  owner = await adminOf(stack);
  [viewer, editor, sharer] = [await joinAsMember(stack, owner), await joinAsMember(stack, owner), await joinAsMember(stack, owner)];
});
afterAll(async () => stack?.close());

async function sample(): Promise<VoiceSampleRecord> {
  const id = newId();
  const key = workspaceKey(owner.workspace.workspace_id, "voices", "samples", `${id}.wav`);
  await stack.ctx.blobs.put(key, new Uint8Array(64), "audio/wav");
  return {
    sample_id: id, file_name: "take.wav", mime_type: "audio/wav", size_bytes: 64, hash: "0".repeat(64), duration_secs: 1, object_key: key,
    remove_background_noise: false, isolated_object_key: null, trim_start: null, trim_end: null, speaker_separation: null, created_at_unix: 1,
  };
}

/** The owner's voice, shared with the viewer, the editor and the sharer in their roles. */
async function sharedVoice(fields: Parameters<typeof insertOwnVoice>[4] = {}) {
  const v = await insertOwnVoice(stack, owner.workspace.workspace_id, owner.user.user_id, "Shared narrator", { samples: [await sample(), await sample()], ...fields });
  for (const [who, role] of [[viewer, "viewer"], [editor, "editor"], [sharer, "admin"]] as const) {
    await owner.client.workspace.resources.share(v.voice_id, { role, resourceType: "voice", userEmail: who.email });
  }
  return v;
}

type Who = { apiKey: string };
const call = (who: Who, method: string, path: string, body?: unknown) =>
  apiFetch(stack, who.apiKey, path, { method, body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body) });

async function refused(r: Response, status = "voice_not_owned") {
  expect(r.status, r.url).toBe(403);
  expect(((await r.json()) as { detail: { status: string } }).detail.status).toBe(status);
}

async function allowed(r: Response) {
  const text = await r.text();
  expect(r.status, `${r.url}: ${text.slice(0, 300)}`).toBe(200);
}

const stored = (voiceId: string) => stack.ctx.stores.voices.get(owner.workspace.workspace_id, voiceId);

function editForm(name: string, withFile = false) {
  const f = new FormData();
  f.set("name", name);
  f.set("description", "Changed");
  f.set("labels", JSON.stringify({ accent: "british" }));
  if (withFile) f.append("files", new Blob([new Uint8Array(2048)], { type: "audio/wav" }), "more.wav");
  return f;
}

describe("a voice shared as viewer", () => {
  it("refuses the viewer's settings edit (both routes); the owner keeps their values; an editor may change them", async () => {
    const v = await sharedVoice();
    await allowed(await call(owner, "POST", `/v1/voices/${v.voice_id}/settings/edit`, { stability: 0.8 }));
    for (const path of [`/v1/voices/${v.voice_id}/settings/edit`, `/v1/voices/${v.voice_id}/settings`]) {
      await refused(await call(viewer, "POST", path, { stability: 0.1, similarity_boost: 0.1 }));
    }
    const seen = (await (await call(owner, "GET", `/v1/voices/${v.voice_id}/settings`)).json()) as { stability: number; similarity_boost: number };
    expect(seen.stability).toBe(0.8);
    expect(seen.similarity_boost).not.toBe(0.1);
    // The viewer still reads and uses it.
    expect((await call(viewer, "GET", `/v1/voices/${v.voice_id}/settings`)).status).toBe(200);
    await allowed(await call(editor, "POST", `/v1/voices/${v.voice_id}/settings/edit`, { stability: 0.3 }));
    expect((await stored(v.voice_id))?.settings?.stability).toBe(0.3);
  });

  it("refuses the viewer's name, label and description edit, with or without new samples; an editor may", async () => {
    const v = await sharedVoice();
    await refused(await call(viewer, "POST", `/v1/voices/${v.voice_id}/edit`, editForm("Viewer's now")));
    await refused(await call(viewer, "POST", `/v1/voices/${v.voice_id}/edit`, editForm("Viewer's now", true)));
    const after = await stored(v.voice_id);
    expect([after?.name, after?.samples.length]).toEqual(["Shared narrator", 2]);
    await allowed(await call(editor, "POST", `/v1/voices/${v.voice_id}/edit`, editForm("Edited by the editor")));
    expect((await stored(v.voice_id))?.name).toBe("Edited by the editor");
  });

  it("refuses the viewer's sample deletion (an editor may) and deleting the voice to all but its admins", async () => {
    const v = await sharedVoice();
    const [first, second] = v.samples;
    await refused(await call(viewer, "DELETE", `/v1/voices/${v.voice_id}/samples/${first.sample_id}`));
    await refused(await call(viewer, "DELETE", `/v1/voices/${v.voice_id}`));
    expect((await stored(v.voice_id))?.samples.map((s) => s.sample_id)).toEqual([first.sample_id, second.sample_id]);
    await allowed(await call(editor, "DELETE", `/v1/voices/${v.voice_id}/samples/${first.sample_id}`));
    expect((await stored(v.voice_id))?.samples.map((s) => s.sample_id)).toEqual([second.sample_id]);
    // Deleting takes the voice from its owner and everyone it is shared with: the voice's admins only (as the web app offers it).
    await refused(await call(editor, "DELETE", `/v1/voices/${v.voice_id}`));
    expect(await stored(v.voice_id)).toBeDefined();
    await allowed(await call(sharer, "DELETE", `/v1/voices/${v.voice_id}`));
    expect(await stored(v.voice_id)).toBeUndefined();
  });

  it("lets only admins of the voice share it further in the workspace", async () => {
    const v = await sharedVoice();
    const share = { role: "editor", resource_type: "voice", group_id: "default" };
    await refused(await call(viewer, "POST", `/v1/workspace/resources/${v.voice_id}/share`, share), "resource_admin_required");
    await refused(await call(editor, "POST", `/v1/workspace/resources/${v.voice_id}/share`, share), "resource_admin_required");
    await refused(await call(viewer, "POST", `/v1/workspace/resources/${v.voice_id}/unshare`, { resource_type: "voice", user_email: editor.email }), "resource_admin_required");
    expect((await stored(v.voice_id))?.role_to_group_ids ?? {}).toEqual({});
    await allowed(await call(sharer, "POST", `/v1/workspace/resources/${v.voice_id}/share`, share));
    expect((await stored(v.voice_id))?.role_to_group_ids).toEqual({ editor: ["default"] });
  });

  // Publishing makes a preview and an embedding: slower than the rest.
  it("lets only admins of the voice publish it to the Voice Library or take it out", { timeout: 120_000 }, async () => {
    const v = await sharedVoice();
    const listing = { use_case: "narrative_story", descriptives: ["calm"], notice_period: 30 };
    await refused(await call(viewer, "POST", `/v1/voices/${v.voice_id}/sharing`, listing));
    await refused(await call(editor, "POST", `/v1/voices/${v.voice_id}/sharing`, listing));
    expect(await stack.ctx.stores.library.listing(v.voice_id)).toBeUndefined();
    await allowed(await call(sharer, "POST", `/v1/voices/${v.voice_id}/sharing`, listing));
    expect((await stack.ctx.stores.library.listing(v.voice_id))?.status).toBe("listed");
    await refused(await call(viewer, "DELETE", `/v1/voices/${v.voice_id}/sharing`));
    await refused(await call(editor, "DELETE", `/v1/voices/${v.voice_id}/sharing`));
    expect((await stack.ctx.stores.library.listing(v.voice_id))?.status).toBe("listed");
    await allowed(await call(owner, "DELETE", `/v1/voices/${v.voice_id}/sharing`));
  });

  it("refuses the viewer's professional-clone writes; an editor may edit the clone", async () => {
    const v = await sharedVoice({ category: "professional" });
    const s = v.samples[0];
    await refused(await call(viewer, "POST", `/v1/voices/pvc/${v.voice_id}`, { name: "Viewer's clone" }));
    const files = new FormData();
    files.append("files", new Blob([new Uint8Array(2048)], { type: "audio/wav" }), "more.wav");
    await refused(await call(viewer, "POST", `/v1/voices/pvc/${v.voice_id}/samples`, files));
    await refused(await call(viewer, "POST", `/v1/voices/pvc/${v.voice_id}/samples/${s.sample_id}`, { trim_start_time: 0 }));
    await refused(await call(viewer, "DELETE", `/v1/voices/pvc/${v.voice_id}/samples/${s.sample_id}`));
    await refused(await call(viewer, "POST", `/v1/voices/pvc/${v.voice_id}/samples/${s.sample_id}/separate-speakers`));
    await refused(await call(viewer, "POST", `/v1/voices/pvc/${v.voice_id}/train`, {}));
    await refused(await call(viewer, "POST", `/v1/voices/pvc/${v.voice_id}/uploads`, { file_name: "a.wav", size_bytes: 1000 }));
    const after = await stored(v.voice_id);
    expect([after?.name, after?.samples.length]).toEqual(["Shared narrator", 2]);
    await allowed(await call(editor, "POST", `/v1/voices/pvc/${v.voice_id}`, { name: "Edited clone" }));
    expect((await stored(v.voice_id))?.name).toBe("Edited clone");
  });
});
