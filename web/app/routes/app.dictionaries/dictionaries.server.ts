import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { INTERNAL_HEADER } from "../../../../functions/platform/domain/internal.js";
import { RESOURCE_ROLES, type RuleRequest } from "../../../../functions/platform/contract/dictionaries.js";
import { api, ApiFailure, OkWire, sessionToken } from "../../lib/api.server.js";
import { requireAuth, type WebSession } from "../../lib/session.server.js";
import { requireCsrf } from "../../lib/csrf.server.js";
import { readForm } from "../../lib/form.server.js";

/**
 * The dictionary editor's server side: /v1 calls as the signed-in user, parsed by schemas of
 * the fields the editor reads. JSON goes through the shared client; uploads, downloads and
 * previews are passed through as raw bodies.
 */
const RoleWire = z.enum(RESOURCE_ROLES).nullable().optional();

export const DictionaryItemWire = z.object({
  id: z.string(),
  name: z.string(),
  latest_version_id: z.string(),
  latest_version_rules_num: z.number(),
  creation_time_unix: z.number(),
  archived_time_unix: z.number().nullable().optional(),
  permission_on_resource: RoleWire,
});
export type DictionaryItem = z.infer<typeof DictionaryItemWire>;

const ListWire = z.object({ pronunciation_dictionaries: z.array(DictionaryItemWire), has_more: z.boolean(), next_cursor: z.string().nullable().optional() });

const RuleWire = z.discriminatedUnion("type", [
  z.object({ type: z.literal("alias"), string_to_replace: z.string(), alias: z.string(), case_sensitive: z.boolean(), word_boundaries: z.boolean() }),
  z.object({ type: z.literal("phoneme"), string_to_replace: z.string(), phoneme: z.string(), alphabet: z.enum(["ipa", "cmu-arpabet"]), case_sensitive: z.boolean(), word_boundaries: z.boolean() }),
]);

export const DictionaryVersionWire = DictionaryItemWire.extend({ version_id: z.string(), rules: z.array(RuleWire) });
export type DictionaryVersion = z.infer<typeof DictionaryVersionWire>;

const LocatorWire = z.object({ pronunciation_dictionary_id: z.string(), version_id: z.string().nullable() });
const WorkspaceWire = z.object({ is_admin: z.boolean(), flags: z.record(z.boolean()), pronunciation_dictionary_locators: z.array(LocatorWire), storing_shared_files_on_user: z.boolean().optional() });
export type Locator = z.infer<typeof LocatorWire>;
const VoicesWire = z.object({ voices: z.array(z.object({ voice_id: z.string(), name: z.string() })) });
const ModelsWire = z.array(z.object({ model_id: z.string(), name: z.string(), can_do_text_to_speech: z.boolean() }));
const RulesResultWire = z.object({ id: z.string(), version_id: z.string(), version_rules_num: z.number() });
const AddedWire = z.object({ id: z.string(), version_id: z.string() });

const MAX_LIST_PAGES = 20;

export interface EditorWorkspace {
  isAdmin: boolean;
  /** Admins may apply dictionaries across the workspace (workspace-pronunciation-dictionaries flag). */
  canApply: boolean;
  /** The workspace stores shared files on the user: a dictionary's editors may share it too. */
  sharesByEditors: boolean;
  locators: Locator[];
}

export async function dictionariesFor(request: Request, context: AppLoadContext) {
  const auth = await requireAuth(request, context);
  return { auth, client: dictionaries(context, request, auth) };
}

/** Checks the form's CSRF token; every editor POST goes through here. */
export async function editorForm(request: Request, context: AppLoadContext): Promise<FormData> {
  const form = await readForm(request);
  await requireCsrf(request, context, form);
  return form;
}

export function dictionaries(context: AppLoadContext, request: Request, auth: WebSession) {
  const client = api(context, request, auth);
  const base = "/v1/pronunciation-dictionaries";

  /** A /v1 call whose body is not JSON (multipart in, bytes out). */
  const raw = async (path: string, init: RequestInit & { headers?: Record<string, string> }) => {
    const headers = new Headers({ [INTERNAL_HEADER]: context.internalProof, "x-forwarded-for": context.clientIp, authorization: `Bearer ${sessionToken(context, auth)}`, ...init.headers });
    return fetch(new URL(path, context.apiBase), { ...init, headers, signal: request.signal });
  };

  return {
    /** Every dictionary the user can see (list page size 100, app-shell.md §9), archived ones included. */
    async list(): Promise<DictionaryItem[]> {
      const out: DictionaryItem[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_LIST_PAGES; page++) {
        const q = new URLSearchParams({ page_size: "100", include_archived: "true" });
        if (cursor) q.set("cursor", cursor);
        const r = await client.call(`${base}?${q}`, { schema: ListWire });
        out.push(...r.pronunciation_dictionaries);
        if (!r.has_more || !r.next_cursor) break;
        cursor = r.next_cursor;
      }
      return out;
    },
    get: (id: string) => client.call(`${base}/${encodeURIComponent(id)}`, { schema: DictionaryVersionWire }),
    create: (name: string) => client.call(`${base}/add-from-rules`, { method: "POST", body: { name, rules: [] }, schema: AddedWire }),
    async upload(name: string, file: File) {
      const form = new FormData();
      form.set("name", name);
      form.set("file", file, file.name);
      const res = await raw(`${base}/add-from-file`, { method: "POST", body: form });
      const body: unknown = await res.json().catch(() => undefined);
      if (!res.ok) {
        const message = z.object({ detail: z.object({ message: z.string() }) }).safeParse(body);
        throw new ApiFailure(res.status, undefined, message.success ? message.data.detail.message : `The server answered ${res.status}.`);
      }
      return AddedWire.parse(body);
    },
    /** A lexicon into an existing dictionary: a new version, its rules added or replacing (parsed by /v1, off its request loop). */
    async uploadInto(id: string, file: File, mode: "add" | "replace") {
      const form = new FormData();
      form.set("mode", mode);
      form.set("file", file, file.name);
      const res = await raw(`${base}/${encodeURIComponent(id)}/add-from-file`, { method: "POST", body: form });
      const body: unknown = await res.json().catch(() => undefined);
      if (!res.ok) {
        const message = z.object({ detail: z.object({ message: z.string() }) }).safeParse(body);
        throw new ApiFailure(res.status, undefined, message.success ? message.data.detail.message : `The server answered ${res.status}.`);
      }
      return RulesResultWire.extend({ uploaded_rules_num: z.number().int() }).parse(body);
    },
    rename: (id: string, name: string) => client.call(`${base}/${encodeURIComponent(id)}`, { method: "PATCH", body: { name }, schema: DictionaryItemWire }),
    archive: (id: string, archived: boolean) => client.call(`${base}/${encodeURIComponent(id)}`, { method: "PATCH", body: { archived }, schema: DictionaryItemWire }),
    setRules: (id: string, rules: RuleRequest[]) => client.call(`${base}/${encodeURIComponent(id)}/set-rules`, { method: "POST", body: { rules }, schema: RulesResultWire }),
    /** Adds rules as a new version; a rule for an input already there replaces it. */
    addRules: (id: string, rules: RuleRequest[]) => client.call(`${base}/${encodeURIComponent(id)}/add-rules`, { method: "POST", body: { rules }, schema: RulesResultWire }),
    download: (id: string, versionId: string) => raw(`${base}/${encodeURIComponent(id)}/${encodeURIComponent(versionId)}/download`, { method: "GET" }),
    preview: (id: string, body: { rule: RuleRequest; voice_id: string; model_id: string | null }) =>
      raw(`${base}/${encodeURIComponent(id)}/text-to-speech?output_format=mp3_44100_64`, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
    async workspace(): Promise<EditorWorkspace> {
      const w = await client.call("/v1/workspace", { schema: WorkspaceWire });
      return { isAdmin: w.is_admin, canApply: w.is_admin && w.flags["workspace-pronunciation-dictionaries"] === true, sharesByEditors: w.storing_shared_files_on_user === true, locators: w.pronunciation_dictionary_locators };
    },
    setWorkspaceLocators: (locators: Locator[]) => client.call("/v1/workspace", { method: "PATCH", body: { pronunciation_dictionary_locators: locators }, schema: OkWire }),
    voices: async () => (await client.call("/v1/voices", { schema: VoicesWire })).voices.map((v) => ({ voice_id: v.voice_id, name: v.name })),
    models: async () => (await client.call("/v1/models", { schema: ModelsWire })).filter((m) => m.can_do_text_to_speech).map((m) => ({ model_id: m.model_id, name: m.name })),
  };
}

/** A JSON answer for the editor's fetch calls; failures carry the message to show. */
export const answer = (body: unknown, status = 200) => Response.json(body, { status, headers: { "cache-control": "no-store" } });

export function failed(e: unknown, fallback: string): Response {
  if (e instanceof ApiFailure && e.status < 500) return answer({ error: e.message || fallback, status: e.status, code: e.code ?? null }, e.status);
  console.error(JSON.stringify({ level: "error", msg: "dictionary editor: /v1 call failed", error: String(e) }));
  return answer({ error: fallback, status: 500, code: null }, 500);
}
