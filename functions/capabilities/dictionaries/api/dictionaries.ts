import { z } from "zod";
import { accessibleVoice } from "../../voices/access.js";
import type { AppContext } from "../../../platform/context.js";
import type { Caller } from "../../../platform/domain/caller.js";
import type { DictionaryRecord } from "../../../platform/stores/dictionaries.js";
import {
  CreateFromRulesBody,
  DICTIONARY_NAME_MAX,
  LEXICON_MAX_BYTES,
  PreviewBody,
  RemoveRulesBody,
  RulesBody,
  UpdateDictionaryBody,
  WORKSPACE_ACCESS,
  dictionaryMessages,
  ruleFromRequest,
  type PronunciationRule,
  type ResourceRole,
  type RuleRequest,
} from "../../../platform/contract/dictionaries.js";
import { SpeechQuery } from "../../../platform/contract/speech.js";
import { parseOutputFormat } from "../../../media/audio/formats.js";
import { applyRules, compileRules } from "../apply.js";
import { LexiconError, writePls } from "../lexicon.js";
import { runCpu } from "../../../platform/offload/index.js";
import { xsampaToIpa } from "../phonetics.js";
import { callerRole, changeRules, createDictionary, dictionaryNotFound, editableDictionary, readableDictionary, resolveVersion, versionRules } from "../service.js";
import { phonemeOptions } from "../speech.js";
import { DEFAULT_VOICE_SETTINGS, mergeSettings } from "../../../platform/domain/voiceSettings.js";
import { assertOutputFormat, assertVoiceUsable, resolveTtsModel } from "../../../platform/domain/speechRules.js";
import { MappedText } from "../../speech/textmap.js";
import { ApiError, ValidationError, type ValidationIssue } from "../../../platform/http/errors.js";
import type { ApiRouter, RouteContext } from "../../../platform/http/app.js";
import { field, parseMultipart, type MultipartForm } from "../../../platform/http/multipart.js";
import { bytes, json, stream, type ApiRequest } from "../../../platform/http/types.js";
import { jsonBody, q, queryParams } from "../../../platform/http/validate.js";
import { voiceNotFound } from "../../voices/api/voices.js";

/** Pronunciation dictionaries on /v1 (contract §8), plus a rule preview and old-version reads. */

/** Previews are free (a rule is at most 50 characters) but limited per workspace. */
export const PREVIEWS_PER_MINUTE = 60;

function metadataWire(d: DictionaryRecord, role: ResourceRole | null) {
  return {
    id: d.dictionary_id,
    latest_version_id: d.latest_version_id,
    latest_version_rules_num: d.latest_version_rules_num,
    name: d.name,
    permission_on_resource: role,
    created_by: d.created_by,
    creation_time_unix: d.creation_time_unix,
    archived_time_unix: d.archived_time_unix,
    description: d.description,
  };
}

const ruleWire = (r: PronunciationRule) =>
  r.type === "alias"
    ? { type: "alias", string_to_replace: r.string_to_replace, alias: r.alias, case_sensitive: r.case_sensitive, word_boundaries: r.word_boundaries }
    : { type: "phoneme", string_to_replace: r.string_to_replace, phoneme: r.phoneme, alphabet: r.alphabet, case_sensitive: r.case_sensitive, word_boundaries: r.word_boundaries };

/** Request rules to stored rules; every bad rule is reported at its index (422). */
function toRules(rules: RuleRequest[], at: Array<string | number> = ["body", "rules"]): PronunciationRule[] {
  const issues: ValidationIssue[] = [];
  const out: PronunciationRule[] = [];
  rules.forEach((r, i) => {
    const converted = ruleFromRequest(r, xsampaToIpa);
    if ("rule" in converted) out.push(converted.rule);
    else issues.push({ loc: [...at, i, converted.field], msg: converted.error, type: "value_error" });
  });
  if (issues.length) throw new ValidationError(issues);
  return out;
}

const ListQuery = z.object({
  cursor: z.string().max(512).optional(),
  page_size: q.int(1, 100).default(30),
  sort: z.enum(["creation_time_unix", "created_at_unix", "name"]).default("creation_time_unix"),
  sort_direction: z.enum(["ascending", "descending", "asc", "desc", "ASCENDING", "DESCENDING"]).optional(),
  include_archived: q.bool().default(false),
});

interface Cursor {
  k: string | number;
  id: string;
}

const VersionQuery = z.object({ version_id: z.string().max(64).optional() });

function slug(name: string): string {
  return name.replace(/[^\w.-]+/g, "_").replace(/^_+|_+$/g, "").slice(0, 80) || "dictionary";
}

async function withRules(ctx: AppContext, caller: Caller, dict: DictionaryRecord, role: ResourceRole, versionId: string | null | undefined) {
  const version = await resolveVersion(ctx, dict, versionId);
  const { rules } = await versionRules(ctx, caller.workspaceId, dict.dictionary_id, version);
  return {
    ...metadataWire(dict, role),
    rules: rules.map(ruleWire),
    // The version read (the latest unless one was asked for), in the spec's entity words.
    pronunciation_dictionary_id: dict.dictionary_id,
    dictionary_name: dict.name,
    version_id: version,
    version_rules_num: rules.length,
  };
}

const rulesResponse = (d: DictionaryRecord, versionId: string, n: number) => ({ id: d.dictionary_id, version_id: versionId, version_rules_num: n });

/** Added rules: one for an input that exists replaces it in place; new inputs go at the end. Linear. */
function mergeRules(rules: PronunciationRule[], added: PronunciationRule[]): PronunciationRule[] {
  const next = [...rules];
  const at = new Map(next.map((x, i) => [x.string_to_replace, i]));
  for (const a of added) {
    const i = at.get(a.string_to_replace);
    if (i !== undefined) next[i] = a;
    else at.set(a.string_to_replace, next.push(a) - 1);
  }
  return next;
}

export function registerDictionaries(r: ApiRouter): void {
  r.onInvalidParam("pronunciation_dictionary_id", dictionaryNotFound);
  const base = "/v1/pronunciation-dictionaries";

  /** The uploaded lexicon's rules; parsing (~100 ms of CPU for 1.5 MB) runs off the request loop. */
  const readUpload = async (file: MultipartForm["files"][number], log: RouteContext["log"]) => {
    if (file.truncated) throw new ApiError(413, "file_too_large", dictionaryMessages.fileTooLarge);
    try {
      const read = await runCpu("lexicon", { fileName: file.filename, bytes: file.data });
      if (!read.ok) throw new LexiconError(read.message, read.kind);
      return read;
    } catch (e) {
      if (!(e instanceof LexiconError)) throw e;
      log.warn("lexicon refused", { kind: e.kind, bytes: file.data.byteLength });
      throw new ApiError(e.kind === "type" ? 415 : 400, e.kind === "unsafe" ? "unsafe_lexicon_file" : e.kind === "type" ? "unsupported_lexicon_type" : "invalid_lexicon_file", e.message);
    }
  };
  const lexiconForm = (req: ApiRequest) => parseMultipart(req, { maxFileBytes: LEXICON_MAX_BYTES, maxFiles: 1, maxFields: 10, maxFieldBytes: 64 * 1024 });

  r.post(`${base}/add-from-file`, async (req, rc) => {
    const caller = await rc.caller();
    const form = await lexiconForm(req);
    const input = fileFormInput(form);
    const file = form.files.find((f) => f.field === "file");
    const lexicon = file ? await readUpload(file, rc.log) : { rules: [] as PronunciationRule[], language: null };
    const { dict, version } = await createDictionary(rc.app, caller, { ...input, rules: lexicon.rules, language: lexicon.language });
    return json(addedWire(dict, version.version_id, version.rules_num));
  });

  // Timbre's extension: a lexicon file into an existing dictionary, as a new version whose rules
  // are added to (mode=add, the default; same input replaces in place) or replace the current ones.
  r.post(`${base}/:pronunciation_dictionary_id/add-from-file`, async (req, rc) => {
    const caller = await rc.caller();
    const form = await lexiconForm(req);
    const file = form.files.find((f) => f.field === "file");
    if (!file) throw new ValidationError([{ loc: ["body", "file"], msg: "Field required", type: "missing" }]);
    const mode = field(form, "mode") ?? "add";
    if (mode !== "add" && mode !== "replace") throw new ValidationError([{ loc: ["body", "mode"], msg: "Input should be 'add' or 'replace'", type: "enum" }]);
    const { dict } = await editableDictionary(rc.app, caller, req.params.pronunciation_dictionary_id);
    const { rules: uploaded } = await readUpload(file, rc.log);
    const { dict: d, version } = await changeRules(rc.app, caller, dict, (rules) => (mode === "replace" ? uploaded : mergeRules(rules, uploaded)));
    return json({ ...rulesResponse(d, version.version_id, version.rules_num), uploaded_rules_num: uploaded.length });
  });

  r.post(`${base}/add-from-rules`, async (req, rc) => {
    const caller = await rc.caller();
    const body = jsonBody(req, CreateFromRulesBody);
    const rules = toRules(body.rules);
    const { dict, version } = await createDictionary(rc.app, caller, {
      name: body.name,
      description: body.description ?? null,
      workspaceAccess: body.workspace_access ?? null,
      rules,
      language: null,
    });
    return json(addedWire(dict, version.version_id, version.rules_num));
  });

  r.get(base, async (req, rc) => {
    const caller = await rc.caller();
    const p = queryParams(req, ListQuery);
    const sort = p.sort === "name" ? "name" : "creation_time_unix";
    const ascending = p.sort_direction ? p.sort_direction.toLowerCase().startsWith("asc") : sort === "name";
    const all = await rc.app.stores.dictionaries.ofWorkspace(caller.workspaceId);
    const visible: Array<{ d: DictionaryRecord; role: ResourceRole }> = [];
    for (const d of all) {
      if (d.archived_time_unix !== null && !p.include_archived) continue;
      const role = await callerRole(caller, d);
      if (role) visible.push({ d, role });
    }
    const key = (d: DictionaryRecord): string | number => (sort === "name" ? d.name.toLowerCase() : d.creation_time_unix);
    const cmp = (a: Cursor, b: Cursor) => (a.k < b.k ? -1 : a.k > b.k ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0) * (ascending ? 1 : -1);
    visible.sort((a, b) => cmp({ k: key(a.d), id: a.d.dictionary_id }, { k: key(b.d), id: b.d.dictionary_id }));
    let rest = visible;
    if (p.cursor) {
      let after: Cursor;
      try {
        after = z.object({ k: z.union([z.string(), z.number()]), id: z.string() }).parse(JSON.parse(Buffer.from(p.cursor, "base64url").toString()));
      } catch {
        throw new ApiError(400, "invalid_cursor", "The cursor is not valid for this list.");
      }
      rest = visible.filter((v) => cmp({ k: key(v.d), id: v.d.dictionary_id }, after) > 0);
    }
    const page = rest.slice(0, p.page_size);
    const hasMore = rest.length > page.length;
    const last = page.at(-1);
    return json({
      pronunciation_dictionaries: page.map((v) => metadataWire(v.d, v.role)),
      next_cursor: hasMore && last ? Buffer.from(JSON.stringify({ k: key(last.d), id: last.d.dictionary_id })).toString("base64url") : null,
      has_more: hasMore,
    });
  });

  r.get(`${base}/:pronunciation_dictionary_id`, async (req, rc) => {
    const caller = await rc.caller();
    const { version_id } = queryParams(req, VersionQuery);
    const { dict, role } = await readableDictionary(rc.app, caller, req.params.pronunciation_dictionary_id);
    return json(await withRules(rc.app, caller, dict, role, version_id));
  });

  r.get(`${base}/:pronunciation_dictionary_id/:version_id`, async (req, rc) => {
    const caller = await rc.caller();
    const { dict, role } = await readableDictionary(rc.app, caller, req.params.pronunciation_dictionary_id);
    return json(await withRules(rc.app, caller, dict, role, req.params.version_id));
  });

  r.patch(`${base}/:pronunciation_dictionary_id`, async (req, rc) => {
    const caller = await rc.caller();
    const body = jsonBody(req, UpdateDictionaryBody);
    const { dict, role } = await editableDictionary(rc.app, caller, req.params.pronunciation_dictionary_id);
    const fields: Partial<Pick<DictionaryRecord, "name" | "archived_time_unix">> = {};
    if (body.name) fields.name = body.name;
    if (body.archived === true && dict.archived_time_unix === null) fields.archived_time_unix = Math.floor(rc.app.now() / 1000);
    if (body.archived === false) fields.archived_time_unix = null;
    const updated = (await rc.app.stores.dictionaries.patch(caller.workspaceId, dict.dictionary_id, fields)) ?? dict;
    return json(metadataWire(updated, role));
  });


  r.post(`${base}/:pronunciation_dictionary_id/add-rules`, async (req, rc) => {
    const caller = await rc.caller();
    const added = toRules(jsonBody(req, RulesBody).rules);
    const { dict } = await editableDictionary(rc.app, caller, req.params.pronunciation_dictionary_id);
    // A rule for the same input replaces the existing one in place; new inputs go at the end.
    const { dict: d, version } = await changeRules(rc.app, caller, dict, (rules) => mergeRules(rules, added));
    return json(rulesResponse(d, version.version_id, version.rules_num));
  });

  r.post(`${base}/:pronunciation_dictionary_id/remove-rules`, async (req, rc) => {
    const caller = await rc.caller();
    const remove = new Set(jsonBody(req, RemoveRulesBody).rule_strings.map((s) => s.trim()));
    const { dict } = await editableDictionary(rc.app, caller, req.params.pronunciation_dictionary_id);
    const { dict: d, version } = await changeRules(rc.app, caller, dict, (rules) => rules.filter((x) => !remove.has(x.string_to_replace)));
    return json(rulesResponse(d, version.version_id, version.rules_num));
  });

  r.post(`${base}/:pronunciation_dictionary_id/set-rules`, async (req, rc) => {
    const caller = await rc.caller();
    const rules = toRules(jsonBody(req, RulesBody).rules);
    const { dict } = await editableDictionary(rc.app, caller, req.params.pronunciation_dictionary_id);
    const { dict: d, version } = await changeRules(rc.app, caller, dict, () => rules);
    return json(rulesResponse(d, version.version_id, version.rules_num));
  });

  r.get(`${base}/:pronunciation_dictionary_id/:version_id/download`, async (req, rc) => {
    const caller = await rc.caller();
    const { dict } = await readableDictionary(rc.app, caller, req.params.pronunciation_dictionary_id);
    const version = await resolveVersion(rc.app, dict, req.params.version_id);
    const { rules } = await versionRules(rc.app, caller.workspaceId, dict.dictionary_id, version);
    return bytes(Buffer.from(writePls(rules, dict.language), "utf8"), "application/pls+xml; charset=utf-8", {
      "content-disposition": `attachment; filename="${slug(dict.name)}.pls"`,
    });
  });

  r.post(`${base}/:pronunciation_dictionary_id/text-to-speech`, async (req, rc) => {
    const ctx = rc.app;
    const caller = await rc.caller();
    await caller.require("text_to_speech");
    const query = queryParams(req, SpeechQuery(true));
    const body = jsonBody(req, PreviewBody);
    await readableDictionary(ctx, caller, req.params.pronunciation_dictionary_id);
    const [rule] = toRules([body.rule], ["body", "rule"]);
    // Phoneme rules are previewed on a model that speaks phonemes unless the caller picks one.
    const model = resolveTtsModel(body.model_id ?? (rule.type === "phoneme" ? "eleven_turbo_v2" : undefined));
    assertOutputFormat(await caller.tier(), query.output_format);
    const voice = await accessibleVoice(ctx, caller, body.voice_id);
    if (!voice) throw voiceNotFound(body.voice_id);
    assertVoiceUsable(voice);
    const now = Math.floor(ctx.now() / 1000);
    if ((await ctx.stores.ledger.hit("dictionary-preview", caller.workspaceId, 60, now)) > PREVIEWS_PER_MINUTE) {
      throw new ApiError(429, "too_many_previews", `At most ${PREVIEWS_PER_MINUTE} rule previews per minute. Please wait a moment.`, { "retry-after": String(60 - (now % 60)) });
    }
    const applied = applyRules(MappedText.identity(rule.string_to_replace), [compileRules([{ ...rule, word_boundaries: false }])], phonemeOptions(model));
    const engine = await ctx.engine();
    const format = parseOutputFormat(query.output_format);
    const chunks = engine.synthesizeEncoded(
      {
        text: applied.text.text,
        voice: voice.profile,
        settings: mergeSettings(DEFAULT_VOICE_SETTINGS, voice.settings ?? undefined),
        seed: 0,
        model: { id: model.model_id, quality: model.engine.quality, supportsPhonemes: model.engine.supportsPhonemes },
        languageCode: null,
        phonemeSpans: applied.phonemeSpans,
      },
      format,
    );
    const headers: Record<string, string> = { "character-cost": "0" };
    if (applied.respelled.length) headers["x-timbre-warnings"] = encodeURIComponent(`Phonemes require an english-only model: spoken as "${applied.respelled[0].respelling}".`);
    return stream(
      (async function* () {
        for await (const c of chunks) if (c.audio.byteLength) yield c.audio;
      })(),
      format.contentType,
      headers,
    );
  });
}

/** The text fields of add-from-file, checked like the JSON body of add-from-rules. */
function fileFormInput(form: MultipartForm): { name: string; description: string | null; workspaceAccess: ResourceRole | null } {
  const issues: ValidationIssue[] = [];
  const name = (field(form, "name") ?? "").trim();
  if (!name) issues.push({ loc: ["body", "name"], msg: dictionaryMessages.nameRequired, type: "missing" });
  else if (name.length > DICTIONARY_NAME_MAX) issues.push({ loc: ["body", "name"], msg: "Name is too long", type: "too_long" });
  const access = field(form, "workspace_access");
  const parsedAccess = access ? WORKSPACE_ACCESS.safeParse(access) : null;
  if (parsedAccess && !parsedAccess.success) issues.push({ loc: ["body", "workspace_access"], msg: "Input should be 'admin', 'editor', 'commenter' or 'viewer'", type: "enum" });
  const description = field(form, "description") || null;
  if (description && description.length > 1000) issues.push({ loc: ["body", "description"], msg: "Description is too long", type: "too_long" });
  if (issues.length) throw new ValidationError(issues);
  return { name, description, workspaceAccess: parsedAccess?.success ? parsedAccess.data : null };
}

function addedWire(d: DictionaryRecord, versionId: string, rulesNum: number) {
  return {
    id: d.dictionary_id,
    name: d.name,
    created_by: d.created_by,
    creation_time_unix: d.creation_time_unix,
    version_id: versionId,
    version_rules_num: rulesNum,
    description: d.description,
    permission_on_resource: "admin",
  };
}

