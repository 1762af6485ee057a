import type { LoaderFunctionArgs } from "@remix-run/node";
import { dictionaryMessages } from "../../../../functions/platform/contract/dictionaries.js";
import { dictionariesFor } from "../app.dictionaries/dictionaries.server.js";
import { downloadName, downloadProblem } from "../../components/dictionaries/download.js";

/** GET /app/dictionaries/:id/:versionId/download: the version as a .pls file (voice-creation.md). */

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { client } = await dictionariesFor(request, context);
  const res = await client.download(params.id!, params.versionId!);
  // Anything but a PLS document is not passed on (voice-creation.md: unsupported content types are
  // rejected, 'Invalid response type received').
  if (downloadProblem(res.status, res.headers.get("content-type"))) {
    await res.body?.cancel().catch(() => undefined);
    const message = !res.ok ? (res.status === 404 ? dictionaryMessages.notFound : dictionaryMessages.fetchFailed) : dictionaryMessages.invalidResponseType;
    return new Response(message, { status: res.ok ? 502 : res.status, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  const name = downloadName(res.headers.get("content-disposition"), "dictionary.pls");
  return new Response(res.body, {
    headers: { "content-type": "application/pls+xml; charset=utf-8", "content-disposition": `attachment; filename="${name}"`, "cache-control": "no-store" },
  });
}
