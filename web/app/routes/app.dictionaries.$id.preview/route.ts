import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { RuleRequest, dictionaryMessages } from "../../../../functions/platform/contract/dictionaries.js";
import { answer, dictionariesFor, editorForm } from "../app.dictionaries/dictionaries.server.js";

/** POST /app/dictionaries/:id/preview: one rule spoken by a voice, streamed back as MP3. */
const PreviewForm = z.object({ rule: RuleRequest, voice_id: z.string().min(1, dictionaryMessages.selectVoice).max(64), model_id: z.string().max(64).nullable() });

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { client } = await dictionariesFor(request, context);
  const form = await editorForm(request, context);
  let input: z.infer<typeof PreviewForm>;
  try {
    input = PreviewForm.parse({ rule: JSON.parse(String(form.get("rule") ?? "null")), voice_id: String(form.get("voice_id") ?? ""), model_id: (form.get("model_id") as string | null) || null });
  } catch (e) {
    const message = e instanceof z.ZodError ? (e.issues[0]?.message ?? dictionaryMessages.previewFailed) : dictionaryMessages.previewFailed;
    return answer({ error: message }, 400);
  }
  const res = await client.preview(params.id!, input);
  if (!res.ok || !res.body) return answer({ error: dictionaryMessages.previewFailed }, res.status >= 400 ? res.status : 502);
  const headers = new Headers({ "content-type": res.headers.get("content-type") ?? "audio/mpeg", "cache-control": "no-store" });
  const warnings = res.headers.get("x-timbre-warnings");
  if (warnings) headers.set("x-timbre-warnings", warnings);
  return new Response(res.body, { status: 200, headers });
}
