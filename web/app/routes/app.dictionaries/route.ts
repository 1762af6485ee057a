import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { DEFAULT_DICTIONARY_NAME, LEXICON_EXTENSIONS, LEXICON_MAX_BYTES, dictionaryMessages } from "../../../../functions/platform/contract/dictionaries.js";
import { answer, dictionariesFor, editorForm, failed } from "./dictionaries.server.js";

/**
 * GET /app/dictionaries: the editor's list (archived ones included; the editor hides them)
 * and the workspace's applied dictionaries. POST: create an empty dictionary or upload a lexicon.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { client } = await dictionariesFor(request, context);
  try {
    const [dictionaries, workspace] = await Promise.all([client.list(), client.workspace()]);
    return answer({ dictionaries, workspace });
  } catch (e) {
    return failed(e, dictionaryMessages.metadataFailed);
  }
}

const NameSchema = z.string().trim().min(1, dictionaryMessages.nameRequired).max(255);

export async function action({ request, context }: ActionFunctionArgs) {
  const { client } = await dictionariesFor(request, context);
  const form = await editorForm(request, context);
  const intent = form.get("intent");
  const name = NameSchema.safeParse(form.get("name") ?? DEFAULT_DICTIONARY_NAME);
  if (!name.success) return answer({ error: dictionaryMessages.nameRequired, field: "name" }, 400);

  if (intent === "upload") {
    const file = form.get("file");
    if (!(file instanceof File) || file.size === 0) return answer({ error: dictionaryMessages.uploadFailed, field: "file" }, 400);
    if (file.size > LEXICON_MAX_BYTES) return answer({ error: dictionaryMessages.fileTooLarge, field: "file" }, 413);
    if (!LEXICON_EXTENSIONS.some((ext) => file.name.toLowerCase().endsWith(ext))) return answer({ error: dictionaryMessages.fileType, field: "file" }, 415);
    try {
      return answer(await client.upload(name.data, file));
    } catch (e) {
      return failed(e, dictionaryMessages.uploadFailed);
    }
  }
  try {
    return answer(await client.create(name.data));
  } catch (e) {
    return failed(e, dictionaryMessages.createFailed);
  }
}
