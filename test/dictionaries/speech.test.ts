import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ElevenLabsClient, type ElevenLabs } from "@elevenlabs/elevenlabs-js";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { apiFetch, createTestAccount, startTestStack } from "../support/stack.js";
import { readAll } from "../support/audio.js";
import { premadeVoiceId } from "../../functions/platform/domain/premadeVoices.js";
import { readPls } from "../../functions/capabilities/dictionaries/lexicon.js";

/**
 * Dictionaries in speech, with the real eSpeak engine: a lexicon written for Amazon Polly
 * changes the audio, timings still spell the request text, phoneme rules reach the engine on
 * the english-only models and become a respelling (with a warning) elsewhere.
 */
let stack: EmbeddedStack;
let acct: Awaited<ReturnType<typeof createTestAccount>>;
let client: ElevenLabsClient;
const AVERY = premadeVoiceId("Avery");
const MARCUS = premadeVoiceId("Marcus");

beforeAll(async () => {
  stack = await startTestStack();
  acct = await createTestAccount(stack, "pro");
  client = new ElevenLabsClient({ baseUrl: stack.url, apiKey: acct.apiKey, maxRetries: 0 });
});
afterAll(async () => stack?.close());

/** A lexicon in the shape Amazon Polly documents (PLS 1.0, IPA, one x-sampa entry), written for this test. */
const POLLY_LEXICON = `<?xml version="1.0" encoding="UTF-8"?>
<lexicon version="1.0"
      xmlns="http://www.w3.org/2005/01/pronunciation-lexicon"
      xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
      xsi:schemaLocation="http://www.w3.org/2005/01/pronunciation-lexicon
        http://www.w3.org/TR/2007/CR-pronunciation-lexicon-20071212/pls.xsd"
      alphabet="ipa"
      xml:lang="en-US">
  <!-- Acronyms and names for the web standards podcast -->
  <lexeme>
    <grapheme>W3C</grapheme>
    <alias>World Wide Web Consortium</alias>
  </lexeme>
  <lexeme>
    <grapheme>Nguyen</grapheme>
    <phoneme>ˈwɪn</phoneme>
  </lexeme>
  <lexeme>
    <grapheme>gif</grapheme>
    <grapheme>GIF</grapheme>
    <phoneme alphabet="x-sampa">"dZIf</phoneme>
  </lexeme>
</lexicon>
`;

const ruleKey = (r: { string_to_replace: string; type: string; alias?: string; phoneme?: string }) => `${r.string_to_replace}|${r.type}|${r.alias ?? r.phoneme}`;

async function say(text: string, opts: Partial<ElevenLabs.BodyTextToSpeechFullWithTimestamps> = {}, voice = AVERY) {
  const res = await client.textToSpeech.convertWithTimestamps(voice, { text, outputFormat: "pcm_16000", seed: 7, applyTextNormalization: "off", ...opts }).withRawResponse();
  const warnings = decodeURIComponent(res.rawResponse.headers.get("x-timbre-warnings") ?? "");
  return {
    pcmBytes: Buffer.from(res.data.audioBase64, "base64").byteLength,
    spelled: res.data.alignment!.characters.join(""),
    spoken: res.data.normalizedAlignment!.characters.join(""),
    ends: res.data.alignment!.characterEndTimesSeconds,
    warnings,
    historyItemId: res.rawResponse.headers.get("history-item-id"),
  };
}

describe("a PLS written for another system", () => {
  it("imports, makes the speech audibly longer with the acronym expanded, keeps the alignment on the request text, and exports back", async () => {
    const dict = await client.pronunciationDictionaries.createFromFile({ name: "Podcast", file: { data: Buffer.from(POLLY_LEXICON), filename: "podcast.pls" } });
    expect(dict.versionRulesNum).toBe(4);

    const text = "The W3C publishes web standards.";
    const plain = await say(text);
    const withDict = await say(text, { pronunciationDictionaryLocators: [{ pronunciationDictionaryId: dict.id, versionId: dict.versionId }] });
    // The alias is spoken: measurably more audio (1.25x with this voice and seed) for the same request text.
    expect(withDict.pcmBytes).toBeGreaterThan(plain.pcmBytes * 1.15);
    expect(withDict.spoken).toContain("World Wide Web Consortium");
    expect(withDict.spelled).toBe(text);
    for (let i = 1; i < withDict.ends.length; i++) expect(withDict.ends[i]).toBeGreaterThanOrEqual(withDict.ends[i - 1]);
    expect(withDict.warnings).toBe("");

    const exported = Buffer.from((await readAll(await client.pronunciationDictionaries.download(dict.id, dict.versionId))).bytes).toString("utf8");
    const original = readPls(POLLY_LEXICON).rules;
    const back = readPls(exported).rules;
    expect(back).toEqual(original);
    expect(back.map(ruleKey)).toEqual(["W3C|alias|World Wide Web Consortium", "Nguyen|phoneme|ˈwɪn", "gif|phoneme|ˈdʒɪf", "GIF|phoneme|ˈdʒɪf"]);
    expect(exported).toContain('<lexicon version="1.0"');
    expect(exported).toContain('xmlns="http://www.w3.org/2005/01/pronunciation-lexicon"');
    expect(exported).toContain('xml:lang="en-US"');

    // Import the export again: same rules, a new dictionary.
    const again = await client.pronunciationDictionaries.createFromFile({ name: "Round trip", file: { data: Buffer.from(exported), filename: "export.pls" } });
    expect((await client.pronunciationDictionaries.get(again.id)).rules).toEqual((await client.pronunciationDictionaries.get(dict.id)).rules);
  });
});

describe("phoneme rules", () => {
  const LONG_IPA = "ˌsuːpɚˌkælɪˌfrædʒəˌlɪstɪkˌɛkspiˌæləˈdoʊʃəs";
  let dictId: string;
  beforeAll(async () => {
    dictId = (await client.pronunciationDictionaries.createFromRules({ name: "Phonemes", rules: [{ type: "phoneme", stringToReplace: "Xylo", phoneme: `/${LONG_IPA}/`, alphabet: "ipa" }] })).id;
  });

  it("reach eSpeak as phonemes on eleven_flash_v2: longer audio, the text itself unchanged, no warning", async () => {
    const text = "Say Xylo now.";
    const plain = await say(text, { modelId: "eleven_flash_v2" });
    const ruled = await say(text, { modelId: "eleven_flash_v2", pronunciationDictionaryLocators: [{ pronunciationDictionaryId: dictId }] });
    expect(ruled.pcmBytes).toBeGreaterThan(plain.pcmBytes * 1.5);
    expect(ruled.spoken).toBe(text);
    expect(ruled.spelled).toBe(text);
    expect(ruled.warnings).toBe("");
  });

  it("become a respelling with a warning on eleven_multilingual_v2", async () => {
    const text = "Say Xylo now.";
    const plain = await say(text, { modelId: "eleven_multilingual_v2" });
    const ruled = await say(text, { modelId: "eleven_multilingual_v2", pronunciationDictionaryLocators: [{ pronunciationDictionaryId: dictId }] });
    expect(ruled.warnings).toContain("Phonemes require an english-only model");
    expect(ruled.warnings).toContain('"Xylo"');
    expect(ruled.spoken).toMatch(/^Say soo-per-ka-lih-.+ now\.$/);
    expect(ruled.spelled).toBe(text);
    expect(ruled.pcmBytes).toBeGreaterThan(plain.pcmBytes * 1.5);
  });

  it("accept ARPAbet", async () => {
    const d = await client.pronunciationDictionaries.createFromRules({ name: "Arpa", rules: [{ type: "phoneme", stringToReplace: "Xylo", phoneme: "S UW2 P ER0 K AE2 L AH0 F R AE2 JH AH0 L IH2 S T IH0 K", alphabet: "cmu-arpabet" }] });
    const plain = await say("Xylo.", { modelId: "eleven_turbo_v2" });
    const ruled = await say("Xylo.", { modelId: "eleven_turbo_v2", pronunciationDictionaryLocators: [{ pronunciationDictionaryId: d.id }] });
    expect(ruled.pcmBytes).toBeGreaterThan(plain.pcmBytes * 1.5);
    expect(ruled.warnings).toBe("");
  });
});

describe("matching", () => {
  it("honours word boundaries: an alias for 'nin' never changes 'nintendo' (unless boundaries are off)", async () => {
    const bounded = await client.pronunciationDictionaries.createFromRules({ name: "nin", rules: [{ type: "alias", stringToReplace: "nin", alias: "ninja", caseSensitive: false }] });
    const loose = await client.pronunciationDictionaries.createFromRules({ name: "nin loose", rules: [{ type: "alias", stringToReplace: "nin", alias: "ninja", caseSensitive: false, wordBoundaries: false }] });
    const text = "Nin plays nintendo, nin!";
    const a = await say(text, { pronunciationDictionaryLocators: [{ pronunciationDictionaryId: bounded.id }] });
    expect(a.spoken).toBe("ninja plays nintendo, ninja!");
    expect(a.spelled).toBe(text);
    const b = await say(text, { pronunciationDictionaryLocators: [{ pronunciationDictionaryId: loose.id }] });
    expect(b.spoken).toBe("ninja plays ninjatendo, ninja!");
  });

  it("honours case sensitivity", async () => {
    const strict = await client.pronunciationDictionaries.createFromRules({ name: "NASA", rules: [{ type: "alias", stringToReplace: "NASA", alias: "the space agency" }] });
    const loose = await client.pronunciationDictionaries.createFromRules({ name: "nasa", rules: [{ type: "alias", stringToReplace: "NASA", alias: "the space agency", caseSensitive: false }] });
    const text = "nasa and NASA.";
    expect((await say(text, { pronunciationDictionaryLocators: [{ pronunciationDictionaryId: strict.id }] })).spoken).toBe("nasa and the space agency.");
    expect((await say(text, { pronunciationDictionaryLocators: [{ pronunciationDictionaryId: loose.id }] })).spoken).toBe("the space agency and the space agency.");
  });

  it("applies locators in order, the first match winning", async () => {
    const first = await client.pronunciationDictionaries.createFromRules({ name: "first", rules: [{ type: "alias", stringToReplace: "York", alias: "Yorkshire" }] });
    const second = await client.pronunciationDictionaries.createFromRules({ name: "second", rules: [{ type: "alias", stringToReplace: "New York", alias: "the Big Apple" }, { type: "alias", stringToReplace: "Paris", alias: "the city of light" }] });
    const text = "New York and Paris.";
    const a = await say(text, { pronunciationDictionaryLocators: [{ pronunciationDictionaryId: first.id }, { pronunciationDictionaryId: second.id }] });
    expect(a.spoken).toBe("New Yorkshire and the city of light.");
    const b = await say(text, { pronunciationDictionaryLocators: [{ pronunciationDictionaryId: second.id }, { pronunciationDictionaryId: first.id }] });
    expect(b.spoken).toBe("the Big Apple and the city of light.");
  });

  it("applies in dialogue too, and history keeps the exact versions applied", async () => {
    const d = await client.pronunciationDictionaries.createFromRules({ name: "dlg", rules: [{ type: "alias", stringToReplace: "TTS", alias: "text to speech" }] });
    const r = await client.textToDialogue.convertWithTimestamps({
      inputs: [
        { text: "Do you like TTS?", voiceId: AVERY },
        { text: "TTS is fine.", voiceId: MARCUS },
      ],
      pronunciationDictionaryLocators: [{ pronunciationDictionaryId: d.id }],
      applyTextNormalization: "off",
    }).withRawResponse();
    expect(r.data.normalizedAlignment!.characters.join("")).toContain("text to speech");
    expect(r.data.alignment!.characters.join("")).toBe("Do you like TTS?TTS is fine.");
    const itemId = r.rawResponse.headers.get("history-item-id")!;
    // A new version later does not change what history says was used.
    await client.pronunciationDictionaries.rules.add(d.id, { rules: [{ type: "alias", stringToReplace: "TTS", alias: "speech synthesis" }] });
    const h = await stack.ctx.stores.history.get(acct.workspace.workspace_id, itemId);
    expect(h!.replay.pronunciation_dictionary_locators).toEqual([{ pronunciation_dictionary_id: d.id, version_id: d.versionId }]);
  });

  it("refuses an unknown dictionary or version with a 404 and charges nothing", async () => {
    const before = (await client.user.subscription.get()).characterCount;
    const res = await apiFetch(stack, acct.apiKey, `/v1/text-to-speech/${AVERY}`, {
      method: "POST",
      body: JSON.stringify({ text: "hello", pronunciation_dictionary_locators: [{ pronunciation_dictionary_id: "nope00000000000000000" }] }),
    });
    expect(res.status).toBe(404);
    expect((await res.json()).detail.message).toBe("Unable to retrieve pronunciation dictionary with id: nope00000000000000000");
    const d = await client.pronunciationDictionaries.createFromRules({ name: "v", rules: [] });
    const badVersion = await apiFetch(stack, acct.apiKey, `/v1/text-to-speech/${AVERY}`, {
      method: "POST",
      body: JSON.stringify({ text: "hello", pronunciation_dictionary_locators: [{ pronunciation_dictionary_id: d.id, version_id: "nosuchversion" }] }),
    });
    expect(badVersion.status).toBe(404);
    expect((await client.user.subscription.get()).characterCount).toBe(before);
  });
});

describe("workspace-wide dictionaries", () => {
  it("apply to every generation after the request's own, set by admins behind the flag", async () => {
    const a = await createTestAccount(stack, "pro");
    const c = new ElevenLabsClient({ baseUrl: stack.url, apiKey: a.apiKey, maxRetries: 0 });
    const ws = await c.pronunciationDictionaries.createFromRules({ name: "Company", rules: [{ type: "alias", stringToReplace: "ACME", alias: "Acme Corporation" }, { type: "alias", stringToReplace: "Q3", alias: "the third quarter" }] });
    const req = await c.pronunciationDictionaries.createFromRules({ name: "Request", rules: [{ type: "alias", stringToReplace: "Q3", alias: "quarter three" }] });
    const patch = (body: unknown) => apiFetch(stack, a.apiKey, "/v1/workspace", { method: "PATCH", body: JSON.stringify(body) });
    expect((await patch({ pronunciation_dictionary_locators: [{ pronunciation_dictionary_id: ws.id, version_id: null }] })).status).toBe(200);
    const workspace = await (await apiFetch(stack, a.apiKey, "/v1/workspace")).json();
    expect(workspace.pronunciation_dictionary_locators).toEqual([{ pronunciation_dictionary_id: ws.id, version_id: null }]);

    const speak = async (body: Record<string, unknown>) => {
      const res = await apiFetch(stack, a.apiKey, `/v1/text-to-speech/${AVERY}/with-timestamps?output_format=pcm_16000`, {
        method: "POST",
        body: JSON.stringify({ apply_text_normalization: "off", ...body }),
      });
      expect(res.status).toBe(200);
      return { spoken: ((await res.json()).normalized_alignment.characters as string[]).join(""), item: res.headers.get("history-item-id")! };
    };
    const plain = await speak({ text: "ACME grew in Q3." });
    expect(plain.spoken).toBe("Acme Corporation grew in the third quarter.");
    // The request's own dictionary comes first.
    const both = await speak({ text: "ACME grew in Q3.", pronunciation_dictionary_locators: [{ pronunciation_dictionary_id: req.id }] });
    expect(both.spoken).toBe("Acme Corporation grew in quarter three.");
    const h = await stack.ctx.stores.history.get(a.workspace.workspace_id, both.item);
    expect(h!.replay.pronunciation_dictionary_locators).toEqual([
      { pronunciation_dictionary_id: req.id, version_id: req.versionId },
      { pronunciation_dictionary_id: ws.id, version_id: ws.versionId },
    ]);

    // Flag off: not applied, and admins cannot set them.
    expect((await patch({ flags: { "workspace-pronunciation-dictionaries": false } })).status).toBe(200);
    expect((await speak({ text: "ACME grew." })).spoken).toBe("ACME grew.");
    const refused = await patch({ pronunciation_dictionary_locators: [] });
    expect(refused.status).toBe(403);
    await patch({ flags: { "workspace-pronunciation-dictionaries": null } });

    // Removing it.
    expect((await patch({ pronunciation_dictionary_locators: [] })).status).toBe(200);
    expect((await speak({ text: "ACME grew." })).spoken).toBe("ACME grew.");

    // Another workspace's dictionary cannot be applied.
    const other = await createTestAccount(stack, "pro");
    const foreign = await new ElevenLabsClient({ baseUrl: stack.url, apiKey: other.apiKey, maxRetries: 0 }).pronunciationDictionaries.createFromRules({ name: "x", rules: [] });
    expect((await patch({ pronunciation_dictionary_locators: [{ pronunciation_dictionary_id: foreign.id }] })).status).toBe(404);
  });
});

describe("rule preview", () => {
  it("streams audio for one rule with a voice, free of charge", async () => {
    const d = await client.pronunciationDictionaries.createFromRules({ name: "Preview", rules: [] });
    const before = (await client.user.subscription.get()).characterCount;
    const res = await apiFetch(stack, acct.apiKey, `/v1/pronunciation-dictionaries/${d.id}/text-to-speech?output_format=pcm_16000`, {
      method: "POST",
      body: JSON.stringify({ rule: { type: "alias", string_to_replace: "W3C", alias: "World Wide Web Consortium" }, voice_id: AVERY }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("audio/pcm");
    const pcm = Buffer.from(await res.arrayBuffer());
    expect(pcm.byteLength).toBeGreaterThan(16000); // more than half a second at 16 kHz, 16 bit
    expect((await client.user.subscription.get()).characterCount).toBe(before);

    const phoneme = await apiFetch(stack, acct.apiKey, `/v1/pronunciation-dictionaries/${d.id}/text-to-speech`, {
      method: "POST",
      body: JSON.stringify({ rule: { type: "phoneme", string_to_replace: "tomato", phoneme: "/təˈmeɪtoʊ/", alphabet: "ipa" }, voice_id: AVERY }),
    });
    expect(phoneme.status).toBe(200);
    expect(phoneme.headers.get("content-type")).toBe("audio/mpeg");
    expect((await phoneme.arrayBuffer()).byteLength).toBeGreaterThan(1000);

    const noVoice = await apiFetch(stack, acct.apiKey, `/v1/pronunciation-dictionaries/${d.id}/text-to-speech`, {
      method: "POST",
      body: JSON.stringify({ rule: { type: "alias", string_to_replace: "a", alias: "b" }, voice_id: "" }),
    });
    expect(noVoice.status).toBe(422);
    expect(JSON.stringify(await noVoice.json())).toContain("Please select a voice");
  });
});
