import type { LoaderFunctionArgs } from "@remix-run/node";
import { dictionaryMessages } from "../../../../functions/platform/contract/dictionaries.js";
import { dictionariesFor } from "../app.dictionaries/dictionaries.server.js";

/** GET /app/dictionaries/:id/:versionId/download: the version as a .pls file (voice-creation.md). */
const PLS_TYPES = ["application/pls+xml", "application/xml", "text/xml"];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { client } = await dictionariesFor(request, context);
  const res = await client.download(params.id!, params.versionId!);
  const type = (res.headers.get("content-type") ?? "").split(";")[0].trim();
  if (!res.ok || !PLS_TYPES.includes(type)) {
    // Anything but a PLS document is not passed on (voice-creation.md: unsupported content types are rejected).
    return new Response(res.status === 404 ? dictionaryMessages.notFound : dictionaryMessages.fetchFailed, { status: res.ok ? 502 : res.status, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "dictionary.pls";
  return new Response(res.body, {
    headers: { "content-type": "application/pls+xml; charset=utf-8", "content-disposition": `attachment; filename="${name.endsWith(".pls") ? name : `${name}.pls`}"`, "cache-control": "no-store" },
  });
}
