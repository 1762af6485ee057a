import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ElevenLabsClient, ElevenLabsError } from "@elevenlabs/elevenlabs-js";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { apiFetch, createTestAccount, startTestStack } from "../support/stack.js";
import { createApiKey } from "../../functions/platform/domain/accounts.js";
import { premadeVoiceId } from "../../functions/platform/domain/premadeVoices.js";

/**
 * Who may do what: hostile lexicon files are refused (and nothing is fetched), another
 * workspace can neither list, read nor use a dictionary, and viewers cannot change rules.
 */
let stack: EmbeddedStack;
let owner: Awaited<ReturnType<typeof createTestAccount>>;
let client: ElevenLabsClient;
let trap: Server;
let trapHits = 0;
const AVERY = premadeVoiceId("Avery");

beforeAll(async () => {
  stack = await startTestStack();
  owner = await createTestAccount(stack, "pro");
  client = new ElevenLabsClient({ baseUrl: stack.url, apiKey: owner.apiKey, maxRetries: 0 });
  // An HTTP server an external entity would point at: it must never be called.
  trap = createServer((_req, res) => {
    trapHits++;
    res.end("<!ENTITY x 'pwned'>");
  });
  await new Promise<void>((r) => trap.listen(0, "127.0.0.1", r));
});
afterAll(async () => {
  await new Promise((r) => trap?.close(r));
  await stack?.close();
});

async function upload(name: string, content: string, filename = "lexicon.pls") {
  const form = new FormData();
  form.append("name", name);
  form.append("file", new Blob([content]), filename);
  const started = performance.now();
  const res = await apiFetch(stack, owner.apiKey, "/v1/pronunciation-dictionaries/add-from-file", { method: "POST", body: form });
  return { status: res.status, body: (await res.json()) as { detail: { status: string; message: string } }, ms: performance.now() - started };
}

const PLS_OPEN = `<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en-US">`;

describe("hostile lexicon files", () => {
  const port = () => (trap.address() as AddressInfo).port;
  const cases: Array<[string, () => string, RegExp]> = [
    [
      "an external entity reading a local file (XXE file://)",
      () => `<?xml version="1.0"?>\n<!DOCTYPE lexicon [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n${PLS_OPEN}<lexeme><grapheme>a</grapheme><alias>&xxe;</alias></lexeme></lexicon>`,
      /DOCTYPE/,
    ],
    [
      "an external entity fetched over HTTP (XXE http://)",
      () => `<?xml version="1.0"?>\n<!DOCTYPE lexicon SYSTEM "http://127.0.0.1:${port()}/evil.dtd">\n${PLS_OPEN}<lexeme><grapheme>a</grapheme><alias>x</alias></lexeme></lexicon>`,
      /DOCTYPE/,
    ],
    [
      "a parameter entity fetched over HTTP",
      () => `<!DOCTYPE lexicon [<!ENTITY % remote SYSTEM "http://127.0.0.1:${port()}/p.dtd"> %remote;]>\n${PLS_OPEN}</lexicon>`,
      /DOCTYPE/,
    ],
    [
      "entity expansion (billion laughs)",
      () => {
        const defs = ['<!ENTITY lol "lol">'];
        for (let i = 1; i <= 9; i++) defs.push(`<!ENTITY lol${i} "${`&lol${i === 1 ? "" : i - 1};`.repeat(10)}">`);
        return `<?xml version="1.0"?>\n<!DOCTYPE lolz [${defs.join("")}]>\n${PLS_OPEN}<lexeme><grapheme>a</grapheme><alias>&lol9;</alias></lexeme></lexicon>`;
      },
      /DOCTYPE/,
    ],
    ["an entity reference without a declaration", () => `${PLS_OPEN}<lexeme><grapheme>a</grapheme><alias>&xxe;</alias></lexeme></lexicon>`, /entity reference &xxe;/],
    ["a huge attribute", () => `<lexicon version="1.0" alphabet="${"i".repeat(1_200_000)}"></lexicon>`, /attribute alphabet is longer than/],
    ["deeply nested elements", () => `${PLS_OPEN}${"<lexeme>".repeat(150_000)}`, /nested more than 32 levels/],
  ];

  for (const [what, content, message] of cases) {
    it(`refuses ${what} with a 400`, async () => {
      const r = await upload("Hostile", content());
      expect(r.status).toBe(400);
      expect(r.body.detail.status).toBe("unsafe_lexicon_file");
      expect(r.body.detail.message).toMatch(message);
    });
  }

  it("fetched nothing, created nothing, and the server is still healthy", async () => {
    expect(trapHits).toBe(0);
    const list = await client.pronunciationDictionaries.list({ pageSize: 100 });
    expect(list.pronunciationDictionaries.some((d) => d.name === "Hostile")).toBe(false);
    expect((await apiFetch(stack, undefined, "/healthz")).status).toBe(200);
    const ok = await upload("Fine", `${PLS_OPEN}<lexeme><grapheme>ok</grapheme><alias>okay</alias></lexeme></lexicon>`);
    expect(ok.status).toBe(200);
    const speech = await apiFetch(stack, owner.apiKey, `/v1/text-to-speech/${AVERY}`, { method: "POST", body: JSON.stringify({ text: "Still speaking." }) });
    expect(speech.status).toBe(200);
    expect((await speech.arrayBuffer()).byteLength).toBeGreaterThan(1000);
  });
});

describe("another workspace", () => {
  it("can neither list, read, download, change nor use the dictionary", async () => {
    const d = await client.pronunciationDictionaries.createFromRules({ name: "Private", rules: [{ type: "alias", stringToReplace: "X", alias: "ex" }], workspaceAccess: "admin" });
    const other = await createTestAccount(stack, "pro");
    const asOther = (path: string, init?: RequestInit) => apiFetch(stack, other.apiKey, path, init);
    const list = (await (await asOther("/v1/pronunciation-dictionaries?include_archived=true&page_size=100")).json()) as { pronunciation_dictionaries: Array<{ id: string }> };
    expect(list.pronunciation_dictionaries.map((x) => x.id)).not.toContain(d.id);
    const base = `/v1/pronunciation-dictionaries/${d.id}`;
    for (const [path, init] of [
      [base, undefined],
      [`${base}/${d.versionId}`, undefined],
      [`${base}/${d.versionId}/download`, undefined],
      [base, { method: "PATCH", body: JSON.stringify({ name: "mine" }) }],
      [`${base}/add-rules`, { method: "POST", body: JSON.stringify({ rules: [{ type: "alias", string_to_replace: "a", alias: "b" }] }) }],
      [`${base}/remove-rules`, { method: "POST", body: JSON.stringify({ rule_strings: ["X"] }) }],
      [`${base}/set-rules`, { method: "POST", body: JSON.stringify({ rules: [] }) }],
      [`${base}/text-to-speech`, { method: "POST", body: JSON.stringify({ rule: { type: "alias", string_to_replace: "a", alias: "b" }, voice_id: AVERY }) }],
      [`/v1/text-to-speech/${AVERY}`, { method: "POST", body: JSON.stringify({ text: "X", pronunciation_dictionary_locators: [{ pronunciation_dictionary_id: d.id }] }) }],
      [`/v1/text-to-dialogue`, { method: "POST", body: JSON.stringify({ inputs: [{ text: "X", voice_id: AVERY }], pronunciation_dictionary_locators: [{ pronunciation_dictionary_id: d.id }] }) }],
    ] as Array<[string, RequestInit | undefined]>) {
      const r = await asOther(path, init);
      expect(r.status, `${init?.method ?? "GET"} ${path}`).toBe(404);
    }
    const after = await client.pronunciationDictionaries.get(d.id);
    expect(after.name).toBe("Private");
    expect(after.latestVersionId).toBe(d.versionId);
  });
});

describe("roles in one workspace", () => {
  async function member() {
    const m = await createTestAccount(stack, "free");
    const ws = owner.workspace.workspace_id;
    await stack.ctx.stores.workspaces.addMember({ workspace_id: ws, user_id: m.user.user_id, email: m.email, seat_type: "workspace_member", joined_at: Math.floor(Date.now() / 1000) });
    const { value } = await createApiKey(stack.ctx, { workspaceId: ws, userId: m.user.user_id, name: "member" });
    return { ...m, client: new ElevenLabsClient({ baseUrl: stack.url, apiKey: value, maxRetries: 0 }), apiKey: value };
  }

  it("lets a viewer read and use a dictionary but not add rules, rename or save", async () => {
    const viewer = await member();
    const d = await client.pronunciationDictionaries.createFromRules({ name: "Shared", rules: [{ type: "alias", stringToReplace: "ACME", alias: "Acme" }], workspaceAccess: "viewer" });
    const got = await viewer.client.pronunciationDictionaries.get(d.id);
    expect(got.permissionOnResource).toBe("viewer");
    expect((await viewer.client.pronunciationDictionaries.list()).pronunciationDictionaries.map((x) => x.id)).toContain(d.id);
    const speech = await apiFetch(stack, viewer.apiKey, `/v1/text-to-speech/${AVERY}`, { method: "POST", body: JSON.stringify({ text: "ACME", pronunciation_dictionary_locators: [{ pronunciation_dictionary_id: d.id }] }) });
    expect(speech.status).toBe(200);

    for (const call of [
      () => viewer.client.pronunciationDictionaries.rules.add(d.id, { rules: [{ type: "alias", stringToReplace: "a", alias: "b" }] }),
      () => viewer.client.pronunciationDictionaries.rules.set(d.id, { rules: [] }),
      () => viewer.client.pronunciationDictionaries.rules.remove(d.id, { ruleStrings: ["ACME"] }),
      () => viewer.client.pronunciationDictionaries.update(d.id, { name: "Renamed" }),
    ]) {
      const e = (await call().catch((x: unknown) => x)) as ElevenLabsError;
      expect(e).toBeInstanceOf(ElevenLabsError);
      expect(e.statusCode).toBe(403);
      expect(e.body).toMatchObject({ detail: { message: "Workspace viewers cannot save changes to pronunciation dictionaries. Please contact a workspace admin." } });
    }
    expect((await client.pronunciationDictionaries.get(d.id)).latestVersionId).toBe(d.versionId);
  });

  it("lets an editor add rules; a dictionary shared with nobody is invisible to members; admins see everything", async () => {
    const m = await member();
    const shared = await client.pronunciationDictionaries.createFromRules({ name: "Team", rules: [], workspaceAccess: "editor" });
    const added = await m.client.pronunciationDictionaries.rules.add(shared.id, { rules: [{ type: "alias", stringToReplace: "a", alias: "b" }] });
    expect(added.versionRulesNum).toBe(1);
    expect((await m.client.pronunciationDictionaries.get(shared.id)).permissionOnResource).toBe("editor");

    const own = await client.pronunciationDictionaries.createFromRules({ name: "Mine alone", rules: [] });
    const e = (await m.client.pronunciationDictionaries.get(own.id).catch((x: unknown) => x)) as ElevenLabsError;
    expect(e.statusCode).toBe(404);

    // The member's own dictionary: they are its admin, and the workspace admin can see it too.
    const theirs = await m.client.pronunciationDictionaries.createFromRules({ name: "Member's", rules: [] });
    expect((await m.client.pronunciationDictionaries.get(theirs.id)).permissionOnResource).toBe("admin");
    expect((await client.pronunciationDictionaries.get(theirs.id)).permissionOnResource).toBe("admin");
  });

  it("lets only admins set workspace-wide dictionaries", async () => {
    const m = await member();
    const d = await client.pronunciationDictionaries.createFromRules({ name: "For all", rules: [], workspaceAccess: "viewer" });
    const r = await apiFetch(stack, m.apiKey, "/v1/workspace", { method: "PATCH", body: JSON.stringify({ pronunciation_dictionary_locators: [{ pronunciation_dictionary_id: d.id }] }) });
    expect(r.status).toBe(403);
  });
});
