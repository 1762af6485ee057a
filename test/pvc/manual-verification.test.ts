import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ElevenLabsClient, ElevenLabsError } from "@elevenlabs/elevenlabs-js";
import { PNG } from "pngjs";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { apiFetch, createTestAccount, startTestStack } from "../support/stack.js";
import { createAccount, createApiKey } from "../../functions/platform/domain/accounts.js";
import { pvcMessages } from "../../functions/platform/contract/pvc.js";

/**
 * Manual verification of a professional clone (professional-voice-clone.md §5, §6, §9) through
 * the official SDK: the spec's limits and messages, documents told apart by their content, the
 * request stored under the voice, workspace isolation, and the server administrators' review
 * (list, open a document, approve or reject with a reason) with its effect on the voice, the
 * `voice_verification_result` event and the user's notification.
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

const pdf = (extra = "") => Buffer.from(`%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n${extra}\n%%EOF\n`);
const jpeg = (size = 64) => {
  const b = Buffer.alloc(size, 0x20);
  b.set([0xff, 0xd8, 0xff, 0xe0], 0);
  return b;
};
const png = () => {
  const p = new PNG({ width: 4, height: 4 });
  p.data.fill(200);
  return PNG.sync.write(p);
};
const file = (bytes: Buffer, name: string, type: string) => new File([new Uint8Array(bytes)], name, { type });

const errorOf = async (p: Promise<unknown>) => {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(ElevenLabsError);
  const err = e as ElevenLabsError;
  return { status: err.statusCode, detail: (err.body as { detail: { status: string; message: string } }).detail };
};

/** A creator with one professional clone that needs verification. */
async function ownerWithClone(name = "Needs proof") {
  const acct = await createTestAccount(stack, "creator");
  const client = new ElevenLabsClient({ baseUrl: stack.url, apiKey: acct.apiKey, maxRetries: 0 });
  const { voiceId } = await client.voices.pvc.create({ name, language: "en" });
  return { acct, client, voiceId };
}

interface RequestWire {
  request_id: string;
  voice_id: string;
  workspace_id: string;
  voice_name: string;
  email: string;
  extra_text: string;
  status: string;
  rejection_reason: string | null;
  files: Array<{ file_id: string; file_name: string; mime_type: string; size_bytes: number }>;
}
const pending = async () => {
  const r = await apiFetch(stack, adminKey, "/v1/admin/manual-verifications?status=pending");
  expect(r.status).toBe(200);
  return ((await r.json()) as { requests: RequestWire[] }).requests;
};

describe("manual verification requests", () => {
  it("checks the spec's limits in its order, with its messages, and the documents' types by content", async () => {
    const { client, voiceId } = await ownerWithClone();
    const ask = (files: File[], extraText?: string) => errorOf(client.voices.pvc.verification.request(voiceId, { files, extraText }));

    let e = await ask([]);
    expect(e).toMatchObject({ status: 400, detail: { message: pvcMessages.manualNoFiles } });
    e = await ask(Array.from({ length: 6 }, (_, i) => file(pdf(String(i)), `doc${i}.pdf`, "application/pdf")));
    expect(e).toMatchObject({ status: 400, detail: { message: pvcMessages.manualTooManyFiles } });
    // Two documents of 5 MB each: exactly 10 MB in all is not under 10 MB.
    e = await ask([file(jpeg(5 * 1024 * 1024), "a.jpg", "image/jpeg"), file(jpeg(5 * 1024 * 1024), "b.jpg", "image/jpeg")]);
    expect(e).toMatchObject({ status: 400, detail: { message: pvcMessages.manualTooLarge } });
    // One far larger document is refused before it is parsed.
    e = await ask([file(jpeg(12 * 1024 * 1024), "huge.jpg", "image/jpeg")]);
    expect(e).toMatchObject({ status: 400, detail: { message: pvcMessages.manualTooLarge } });
    // A text file named and typed as a PDF is not one.
    e = await ask([file(Buffer.from("just some text"), "passport.pdf", "application/pdf")]);
    expect(e).toMatchObject({ status: 400, detail: { message: pvcMessages.manualBadType("passport.pdf") } });
    e = await ask([file(png(), "id.png", "image/png")], "x".repeat(1001));
    expect(e).toMatchObject({ status: 400, detail: { message: pvcMessages.manualTextTooLong } });
    // A far longer text is refused by the parser's bound, with the same message.
    e = await ask([file(png(), "id.png", "image/png")], "x".repeat(20_000));
    expect(e).toMatchObject({ status: 400, detail: { message: pvcMessages.manualTextTooLong } });
    // Nothing was stored by the refused requests.
    expect((await client.voices.get(voiceId)).fineTuning?.manualVerificationRequested).toBe(false);
    expect((await pending()).filter((r) => r.voice_id === voiceId)).toEqual([]);
  }, 60_000);

  it("stores the documents and the request under the voice; the voice says it was requested; other workspaces and non-admins are kept out", async () => {
    const { acct, client, voiceId } = await ownerWithClone("Proof voice");
    // 1,000 characters is allowed (counted as characters, not bytes).
    const text = "é".repeat(1000);
    const r = await client.voices.pvc.verification.request(voiceId, { files: [file(pdf("contract"), "contract.pdf", "application/pdf"), file(png(), "id.png", "image/png"), file(jpeg(), "photo.jpeg", "image/jpeg")], extraText: text });
    expect(r.status).toBe("ok");
    const v = await client.voices.get(voiceId);
    expect(v.fineTuning?.manualVerificationRequested).toBe(true);
    expect(v.fineTuning?.isAllowedToFineTune).toBe(false);
    const mv = v.fineTuning!.manualVerification!;
    expect(mv.extraText).toBe(text);
    expect(mv.files.map((f) => [f.fileName, f.mimeType])).toEqual([
      ["contract.pdf", "application/pdf"],
      ["id.png", "image/png"],
      ["photo.jpeg", "image/jpeg"],
    ]);
    expect((mv as unknown as { status: string }).status).toBe("pending");
    // A second request waits for the first.
    const again = await errorOf(client.voices.pvc.verification.request(voiceId, { files: [file(png(), "id.png", "image/png")] }));
    expect(again).toMatchObject({ status: 409, detail: { status: "manual_verification_already_requested" } });

    // Another workspace cannot ask for it, see it, or review it.
    const other = await createTestAccount(stack, "creator");
    const c2 = new ElevenLabsClient({ baseUrl: stack.url, apiKey: other.apiKey, maxRetries: 0 });
    expect((await errorOf(c2.voices.pvc.verification.request(voiceId, { files: [file(png(), "id.png", "image/png")] }))).status).toBe(404);
    const req = (await pending()).find((x) => x.voice_id === voiceId)!;
    expect(req).toMatchObject({ workspace_id: acct.workspace.workspace_id, voice_name: "Proof voice", email: acct.email, status: "pending" });
    expect(JSON.stringify(req)).not.toContain("object_key");
    for (const key of [other.apiKey, acct.apiKey]) {
      expect((await apiFetch(stack, key, "/v1/admin/manual-verifications")).status).toBe(403);
      expect((await apiFetch(stack, key, `/v1/admin/manual-verifications/${req.request_id}/files/${req.files[0].file_id}`)).status).toBe(403);
      expect((await apiFetch(stack, key, `/v1/admin/manual-verifications/${req.request_id}/approve`, { method: "POST" })).status).toBe(403);
    }
    // The administrator opens a document: the bytes sent, as an attachment.
    const doc = await apiFetch(stack, adminKey, `/v1/admin/manual-verifications/${req.request_id}/files/${req.files[0].file_id}`);
    expect(doc.status).toBe(200);
    expect(doc.headers.get("content-type")).toBe("application/pdf");
    expect(doc.headers.get("content-disposition")).toContain("attachment");
    expect(Buffer.from(await doc.arrayBuffer()).equals(pdf("contract"))).toBe(true);
    expect((await apiFetch(stack, adminKey, `/v1/admin/manual-verifications/${req.request_id}/files/nope`)).status).toBe(404);
  }, 60_000);

  it("approved by an administrator: the voice is verified and may be fine-tuned; an event and a notification say so", async () => {
    const { acct, client, voiceId } = await ownerWithClone("Approve me");
    await client.voices.pvc.verification.request(voiceId, { files: [file(png(), "id.png", "image/png")], extraText: "It is my voice." });
    const req = (await pending()).find((x) => x.voice_id === voiceId)!;
    const ok = await apiFetch(stack, adminKey, `/v1/admin/manual-verifications/${req.request_id}/approve`, { method: "POST" });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as RequestWire).status).toBe("approved");
    const v = await client.voices.get(voiceId);
    expect(v.voiceVerification).toMatchObject({ requiresVerification: true, isVerified: true });
    expect(v.fineTuning?.isAllowedToFineTune).toBe(true);
    expect(v.fineTuning?.manualVerificationRequested).toBe(false);
    // Verified, what stops training now is the audio it does not have.
    const train = await errorOf(client.voices.pvc.train(voiceId, { modelId: "eleven_multilingual_v2" }));
    expect(train.detail.status).not.toBe("voice_not_verified");
    const events = await stack.ctx.stores.events.list(acct.workspace.workspace_id, { type: "voice_verification_result" });
    expect(events[0].data).toMatchObject({ voice_id: voiceId, method: "manual", accepted: true });
    const notes = (await (await apiFetch(stack, acct.apiKey, "/v1/notifications")).json()) as { docs: Array<{ title: string }> };
    expect(notes.docs.map((n) => n.title)).toContain(pvcMessages.manualApprovedTitle("Approve me"));
    // Decided once only.
    expect((await apiFetch(stack, adminKey, `/v1/admin/manual-verifications/${req.request_id}/reject`, { method: "POST", body: JSON.stringify({ reason: "late" }) })).status).toBe(409);
    expect((await pending()).some((x) => x.request_id === req.request_id)).toBe(false);
  }, 60_000);

  it("rejected with a reason: the user reads it on the voice and in their notifications, and may ask again", async () => {
    const { acct, client, voiceId } = await ownerWithClone("Reject me");
    await client.voices.pvc.verification.request(voiceId, { files: [file(jpeg(), "scan.jpg", "image/jpeg")] });
    const req = (await pending()).find((x) => x.voice_id === voiceId)!;
    expect((await apiFetch(stack, adminKey, `/v1/admin/manual-verifications/${req.request_id}/reject`, { method: "POST", body: JSON.stringify({ reason: " " }) })).status).toBe(422);
    const reason = "The document does not show the voice owner's name.";
    const r = await apiFetch(stack, adminKey, `/v1/admin/manual-verifications/${req.request_id}/reject`, { method: "POST", body: JSON.stringify({ reason }) });
    expect(r.status).toBe(200);
    const v = await client.voices.get(voiceId);
    expect(v.voiceVerification?.isVerified).toBe(false);
    expect(v.fineTuning?.isAllowedToFineTune).toBe(false);
    expect(v.fineTuning?.manualVerificationRequested).toBe(false);
    expect(v.fineTuning?.manualVerification).toMatchObject({ status: "rejected", rejection_reason: reason });
    const events = await stack.ctx.stores.events.list(acct.workspace.workspace_id, { type: "voice_verification_result" });
    expect(events[0].data).toMatchObject({ voice_id: voiceId, method: "manual", accepted: false, reasons: [reason] });
    const notes = (await (await apiFetch(stack, acct.apiKey, "/v1/notifications")).json()) as { docs: Array<{ title: string; description: string }> };
    const note = notes.docs.find((n) => n.title === pvcMessages.manualRejectedTitle("Reject me"))!;
    expect(note.description).toContain(reason);
    // Other users do not see it.
    const other = await createTestAccount(stack, "creator");
    const theirs = (await (await apiFetch(stack, other.apiKey, "/v1/notifications")).json()) as { docs: Array<{ title: string }> };
    expect(theirs.docs.some((n) => n.title === note.title)).toBe(false);
    // A new request may follow.
    expect((await client.voices.pvc.verification.request(voiceId, { files: [file(pdf(), "better.pdf", "application/pdf")] })).status).toBe("ok");
  }, 60_000);
});
