import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ElevenLabsClient, ElevenLabsError } from "@elevenlabs/elevenlabs-js";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { apiFetch, createTestAccount, startTestStack } from "../support/stack.js";
import { readAll } from "../support/audio.js";
import { readPls } from "../../functions/capabilities/dictionaries/lexicon.js";

/**
 * The SDK's pronunciationDictionaries methods, unchanged, against the embedded stack: every
 * call parses (required keys present), versions are immutable and stay readable.
 */
let stack: EmbeddedStack;
let acct: Awaited<ReturnType<typeof createTestAccount>>;
let client: ElevenLabsClient;

beforeAll(async () => {
  stack = await startTestStack();
  acct = await createTestAccount(stack, "pro");
  client = new ElevenLabsClient({ baseUrl: stack.url, apiKey: acct.apiKey, maxRetries: 0 });
});
afterAll(async () => stack?.close());

async function status(p: Promise<unknown>): Promise<{ statusCode: number; body: unknown }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ElevenLabsError) return { statusCode: e.statusCode ?? 0, body: e.body };
    throw e;
  }
  throw new Error("expected the call to fail");
}

describe("pronunciation dictionaries through the SDK", () => {
  it("creates from rules, reads it back with defaults filled, and lists it", async () => {
    const created = await client.pronunciationDictionaries.createFromRules({
      name: "Brands",
      description: "Company names",
      rules: [
        { type: "alias", stringToReplace: "AI", alias: "A I" },
        { type: "phoneme", stringToReplace: "tomato", phoneme: "təˈmeɪtoʊ", alphabet: "ipa", caseSensitive: false, wordBoundaries: false },
      ],
    });
    expect(created).toMatchObject({ name: "Brands", createdBy: acct.user.user_id, versionRulesNum: 2, description: "Company names", permissionOnResource: "admin" });
    expect(created.id).toMatch(/^\w{20}$/);

    const got = await client.pronunciationDictionaries.get(created.id);
    expect(got.latestVersionId).toBe(created.versionId);
    expect(got.latestVersionRulesNum).toBe(2);
    expect(got.rules).toEqual([
      { type: "alias", stringToReplace: "AI", alias: "A I", caseSensitive: true, wordBoundaries: true },
      { type: "phoneme", stringToReplace: "tomato", phoneme: "təˈmeɪtoʊ", alphabet: "ipa", caseSensitive: false, wordBoundaries: false },
    ]);

    const list = await client.pronunciationDictionaries.list();
    expect(list.pronunciationDictionaries.map((d) => d.id)).toContain(created.id);
    expect(list.hasMore).toBe(false);
  });

  it("keeps every version: add, remove and set each publish a new one; old ones stay readable and downloadable", async () => {
    const d = await client.pronunciationDictionaries.createFromRules({ name: "Versions", rules: [{ type: "alias", stringToReplace: "NYC", alias: "New York City" }] });
    const added = await client.pronunciationDictionaries.rules.add(d.id, {
      rules: [
        { type: "alias", stringToReplace: "NYC", alias: "the Big Apple" },
        { type: "phoneme", stringToReplace: "data", phoneme: "D EY1 T AH0", alphabet: "cmu-arpabet" },
      ],
    });
    expect(added.id).toBe(d.id);
    expect(added.versionRulesNum).toBe(2);
    expect(added.versionId).not.toBe(d.versionId);
    // add-rules replaces a rule for the same input in place.
    const afterAdd = await client.pronunciationDictionaries.get(d.id);
    expect(afterAdd.rules[0]).toMatchObject({ stringToReplace: "NYC", alias: "the Big Apple" });

    const removed = await client.pronunciationDictionaries.rules.remove(d.id, { ruleStrings: ["NYC"] });
    expect(removed.versionRulesNum).toBe(1);
    const set = await client.pronunciationDictionaries.rules.set(d.id, { rules: [{ type: "alias", stringToReplace: "SQL", alias: "sequel" }] });
    expect(set.versionRulesNum).toBe(1);
    expect(new Set([d.versionId, added.versionId, removed.versionId, set.versionId]).size).toBe(4);

    const latest = await client.pronunciationDictionaries.get(d.id);
    expect(latest.latestVersionId).toBe(set.versionId);
    expect(latest.rules).toEqual([{ type: "alias", stringToReplace: "SQL", alias: "sequel", caseSensitive: true, wordBoundaries: true }]);

    // The first version is unchanged.
    const first = await (await apiFetch(stack, acct.apiKey, `/v1/pronunciation-dictionaries/${d.id}/${d.versionId}`)).json();
    expect(first.rules).toEqual([{ type: "alias", string_to_replace: "NYC", alias: "New York City", case_sensitive: true, word_boundaries: true }]);
    const firstViaQuery = await (await apiFetch(stack, acct.apiKey, `/v1/pronunciation-dictionaries/${d.id}?version_id=${added.versionId}`)).json();
    expect(firstViaQuery.version_rules_num).toBe(2);

    const res = await client.pronunciationDictionaries.download(d.id, d.versionId).withRawResponse();
    const pls = Buffer.from((await readAll(res.data)).bytes).toString("utf8");
    expect(res.rawResponse.headers.get("content-type")).toContain("xml");
    expect(res.rawResponse.headers.get("content-disposition")).toBe('attachment; filename="Versions.pls"');
    expect(readPls(pls).rules).toEqual([{ type: "alias", string_to_replace: "NYC", alias: "New York City", case_sensitive: true, word_boundaries: true }]);
  });

  it("creates from a file (PLS and text), including a nameless Blob", async () => {
    const pls = `<?xml version="1.0" encoding="UTF-8"?>
<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en-GB">
  <lexeme><grapheme>Thames</grapheme><phoneme>/tɛmz/</phoneme></lexeme>
</lexicon>`;
    const fromPls = await client.pronunciationDictionaries.createFromFile({
      name: "Rivers",
      file: { data: Buffer.from(pls), filename: "rivers.pls", contentType: "application/pls+xml" },
      workspaceAccess: "viewer",
    });
    expect(fromPls.versionRulesNum).toBe(1);
    const got = await client.pronunciationDictionaries.get(fromPls.id);
    expect(got.rules[0]).toMatchObject({ type: "phoneme", stringToReplace: "Thames", phoneme: "tɛmz", alphabet: "ipa" });

    const txt = "# a comment\nK8s = Kubernetes\nnginx /ˈɛndʒɪnˈɛks/\nGIF = arpabet: JH IH1 F\n";
    const fromTxt = await client.pronunciationDictionaries.createFromFile({ name: "Ops", file: new Blob([txt], { type: "text/plain" }) });
    expect(fromTxt.versionRulesNum).toBe(3);
    const blobPls = await client.pronunciationDictionaries.createFromFile({ name: "Blob PLS", file: new Blob([pls]) });
    expect(blobPls.versionRulesNum).toBe(1);

    const empty = await client.pronunciationDictionaries.createFromFile({ name: "Empty" });
    expect(empty.versionRulesNum).toBe(0);
  });

  it("uploads a lexicon into an existing dictionary as a new version, adding or replacing (Timbre's extension)", async () => {
    const d = await client.pronunciationDictionaries.createFromRules({ name: "Grow", rules: [{ type: "alias", stringToReplace: "K8s", alias: "Kubernetes" }] });
    const upload = async (text: string, mode?: string) => {
      const form = new FormData();
      form.set("file", new Blob([text]), "more.txt");
      if (mode) form.set("mode", mode);
      return apiFetch(stack, acct.apiKey, `/v1/pronunciation-dictionaries/${d.id}/add-from-file`, { method: "POST", body: form });
    };
    const added = await upload("K8s = Kates\nnginx = engine x\n");
    expect(added.status).toBe(200);
    const a = (await added.json()) as { version_id: string; version_rules_num: number; uploaded_rules_num: number };
    expect(a).toMatchObject({ version_rules_num: 2, uploaded_rules_num: 2 });
    expect((await client.pronunciationDictionaries.get(d.id)).rules.map((r) => [r.stringToReplace, (r as { alias?: string }).alias])).toEqual([["K8s", "Kates"], ["nginx", "engine x"]]);
    const replaced = (await (await upload("GIF = jif\n", "replace")).json()) as { version_rules_num: number };
    expect(replaced.version_rules_num).toBe(1);
    // The earlier version stays readable; a bad file changes nothing.
    expect((await client.pronunciationDictionaries.get(d.id)).latestVersionId).not.toBe(a.version_id);
    const bad = await upload("this line has no rule in it\n");
    expect(bad.status).toBe(400);
    expect((await client.pronunciationDictionaries.get(d.id)).rules).toHaveLength(1);
  });

  it("renames, archives (hidden from the list) and restores", async () => {
    const d = await client.pronunciationDictionaries.createFromRules({ name: "Old name", rules: [] });
    const renamed = await client.pronunciationDictionaries.update(d.id, { name: "New name" });
    expect(renamed).toMatchObject({ id: d.id, name: "New name", latestVersionId: d.versionId });
    const archived = await client.pronunciationDictionaries.update(d.id, { archived: true });
    expect(archived.archivedTimeUnix).toBeGreaterThan(0);
    const ids = async (includeArchived?: boolean) => (await client.pronunciationDictionaries.list({ pageSize: 100, includeArchived })).pronunciationDictionaries.map((x) => x.id);
    expect(await ids()).not.toContain(d.id);
    expect(await ids(true)).toContain(d.id);
    const restored = await client.pronunciationDictionaries.update(d.id, { archived: false });
    expect(restored.archivedTimeUnix).toBeUndefined();
    expect(await ids()).toContain(d.id);
  });

  it("pages with a cursor, sorted by name or creation time in either direction", async () => {
    const a = await createTestAccount(stack, "pro");
    const c = new ElevenLabsClient({ baseUrl: stack.url, apiKey: a.apiKey, maxRetries: 0 });
    for (const name of ["delta", "Alpha", "charlie", "Bravo", "echo"]) await c.pronunciationDictionaries.createFromRules({ name, rules: [] });
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await c.pronunciationDictionaries.list({ pageSize: 2, sort: "name", sortDirection: "ascending", cursor });
      expect(page.pronunciationDictionaries.length).toBeLessThanOrEqual(2);
      names.push(...page.pronunciationDictionaries.map((d) => d.name));
      cursor = page.hasMore ? page.nextCursor : undefined;
    } while (cursor);
    expect(names).toEqual(["Alpha", "Bravo", "charlie", "delta", "echo"]);
    const desc = await c.pronunciationDictionaries.list({ sort: "name", sortDirection: "descending" });
    expect(desc.pronunciationDictionaries.map((d) => d.name)).toEqual(["echo", "delta", "charlie", "Bravo", "Alpha"]);
    const newest = await c.pronunciationDictionaries.list({ pageSize: 1 });
    expect(newest.hasMore).toBe(true);
    expect(newest.nextCursor).toBeTruthy();
  });

  it("reads metadata at the path with a trailing slash (voice-creation.md)", async () => {
    const d = await client.pronunciationDictionaries.createFromRules({ name: "Slash", rules: [] });
    const res = await apiFetch(stack, acct.apiKey, `/v1/pronunciation-dictionaries/${d.id}/`);
    expect(res.status).toBe(200);
    expect((await res.json()).id).toBe(d.id);
  });

  it("validates rules with the spec's messages", async () => {
    const bad = await status(
      client.pronunciationDictionaries.createFromRules({
        name: "Bad",
        rules: [
          { type: "alias", stringToReplace: "x".repeat(51), alias: "ok" },
          { type: "alias", stringToReplace: "ok", alias: "y".repeat(101) },
          { type: "alias", stringToReplace: "  ", alias: "ok" },
          { type: "phoneme", stringToReplace: "ok", phoneme: "təˈmeɪtoʊ", alphabet: "klingon" },
          { type: "phoneme", stringToReplace: "ok", phoneme: "T OMATO", alphabet: "cmu-arpabet" },
        ],
      }),
    );
    expect(bad.statusCode).toBe(422);
    const msgs = (bad.body as { detail: Array<{ msg: string }> }).detail.map((d) => d.msg);
    expect(msgs).toEqual(expect.arrayContaining(["Input is too long", "Output is too long", "Input is required"]));
    const second = await status(
      client.pronunciationDictionaries.createFromRules({
        name: "Bad",
        rules: [
          { type: "phoneme", stringToReplace: "ok", phoneme: "təˈmeɪtoʊ", alphabet: "klingon" },
          { type: "phoneme", stringToReplace: "ok", phoneme: "T OMATO", alphabet: "cmu-arpabet" },
        ],
      }),
    );
    expect((second.body as { detail: Array<{ msg: string }> }).detail.map((d) => d.msg)).toEqual(["Alphabet must be 'ipa' or 'cmu-arpabet'", "Unknown ARPAbet symbols: OMATO"]);
    const noName = await status(client.pronunciationDictionaries.createFromRules({ name: " ", rules: [] }));
    expect((noName.body as { detail: Array<{ msg: string }> }).detail[0].msg).toBe("Dictionary name is required");
  });

  it("refuses a lexicon over 1.5 MB and files that are not .pls, .xml or .txt", async () => {
    const big = Buffer.alloc(1.5 * 1048576 + 1, "a");
    const tooBig = await status(client.pronunciationDictionaries.createFromFile({ name: "Big", file: { data: big, filename: "big.txt" } }));
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.body).toMatchObject({ detail: { message: "File size exceeds the 1.5MB limit" } });
    const docx = await status(client.pronunciationDictionaries.createFromFile({ name: "Doc", file: { data: Buffer.from("x"), filename: "rules.docx" } }));
    expect(docx.statusCode).toBe(415);
    const broken = await status(client.pronunciationDictionaries.createFromFile({ name: "Broken", file: { data: Buffer.from("just words without a rule\n"), filename: "r.txt" } }));
    expect(broken.statusCode).toBe(400);
    expect((broken.body as { detail: { message: string } }).detail.message).toContain("line 1");
  });

  it("answers 404 with the spec's message for an unknown dictionary or version", async () => {
    const missing = await status(client.pronunciationDictionaries.get("doesnotexist00000000"));
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toMatchObject({ detail: { message: "Unable to retrieve pronunciation dictionary with id: doesnotexist00000000" } });
    const d = await client.pronunciationDictionaries.createFromRules({ name: "V", rules: [] });
    expect((await status(client.pronunciationDictionaries.download(d.id, "novers"))).statusCode).toBe(404);
  });
});
