import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { LEXICON_EXTENSIONS, LEXICON_MAX_BYTES, RuleRequest, dictionaryMessages } from "../../../../functions/platform/contract/dictionaries.js";
import { ApiFailure } from "../../lib/api.server.js";
import { answer, dictionariesFor, editorForm, failed } from "../app.dictionaries/dictionaries.server.js";

/**
 * GET /app/dictionaries/:id: the latest version with its rules, plus what the detail view
 * needs around it (voices and models for previews, the workspace's applied dictionaries).
 * POST: rename, archive, restore, save (a new version), upload a lexicon into it (a new
 * version: its rules added to, or replacing, the current ones), apply across the workspace, remove.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { client } = await dictionariesFor(request, context);
  const id = params.id!;
  try {
    const [dictionary, workspace, voices, models] = await Promise.all([client.get(id), client.workspace(), client.voices(), client.models()]);
    return answer({ dictionary, workspace, voices, models });
  } catch (e) {
    if (e instanceof ApiFailure && e.status === 404) return answer({ error: dictionaryMessages.notFound, status: 404 }, 404);
    return failed(e, dictionaryMessages.loadError);
  }
}

const SaveSchema = z.object({ rules: z.array(RuleRequest) });

/** The editor sends its rules as JSON text; anything else is invalid input, not a server error. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { client } = await dictionariesFor(request, context);
  const form = await editorForm(request, context);
  const id = params.id!;
  const intent = String(form.get("intent") ?? "");
  try {
    switch (intent) {
      case "rename": {
        const name = z.string().trim().min(1).max(255).safeParse(form.get("name"));
        if (!name.success) return answer({ error: dictionaryMessages.nameRequired, field: "name" }, 400);
        return answer({ dictionary: await client.rename(id, name.data) });
      }
      case "archive":
      case "restore":
        return answer({ dictionary: await client.archive(id, intent === "archive") });
      case "save": {
        const parsed = SaveSchema.safeParse({ rules: parseJson(String(form.get("rules") ?? "null")) });
        if (!parsed.success) return answer({ error: parsed.error.issues[0]?.message ?? "Invalid rules" }, 400);
        const saved = await client.setRules(id, parsed.data.rules);
        // A dictionary applied across the workspace at a pinned version follows the save.
        const ws = await client.workspace();
        if (ws.canApply && ws.locators.some((l) => l.pronunciation_dictionary_id === id && l.version_id)) {
          await client.setWorkspaceLocators(ws.locators.map((l) => (l.pronunciation_dictionary_id === id ? { ...l, version_id: saved.version_id } : l)));
        }
        return answer({ saved });
      }
      case "upload": {
        const file = form.get("file");
        if (!(file instanceof File) || file.size === 0) return answer({ error: dictionaryMessages.uploadFailed, field: "file" }, 400);
        // Bounded before anything reads it (the reader is linear in the bytes).
        if (file.size > LEXICON_MAX_BYTES) return answer({ error: dictionaryMessages.fileTooLarge, field: "file" }, 413);
        if (!LEXICON_EXTENSIONS.some((ext) => file.name.toLowerCase().endsWith(ext))) return answer({ error: dictionaryMessages.fileType, field: "file" }, 415);
        try {
          const saved = await client.uploadInto(id, file, form.get("mode") === "replace" ? "replace" : "add");
          return answer({ saved, uploaded: saved.uploaded_rules_num });
        } catch (e) {
          // The reader's own explanation (line numbers, what is refused) helps more than a generic line.
          if (e instanceof ApiFailure && e.status < 500) return answer({ error: `${dictionaryMessages.uploadFailed} ${e.message}`, field: "file" }, e.status);
          throw e;
        }
      }
      case "apply":
      case "remove": {
        const ws = await client.workspace();
        if (!ws.canApply) return answer({ error: dictionaryMessages.workspaceUpdateFailed }, 403);
        const others = ws.locators.filter((l) => l.pronunciation_dictionary_id !== id);
        const versionId = String(form.get("version_id") ?? "");
        const next = intent === "apply" ? [...others, { pronunciation_dictionary_id: id, version_id: versionId || null }] : others;
        try {
          await client.setWorkspaceLocators(next);
        } catch (e) {
          return failed(e, dictionaryMessages.workspaceUpdateFailed);
        }
        return answer({ workspace: await client.workspace() });
      }
      default:
        return answer({ error: "Unknown action" }, 400);
    }
  } catch (e) {
    return failed(e, intent === "save" ? "We were unable to save the pronunciation dictionary." : intent === "upload" ? dictionaryMessages.uploadFailed : dictionaryMessages.fetchFailed);
  }
}
