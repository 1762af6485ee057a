import type { ActionFunctionArgs } from "@remix-run/node";
import { api, ApiFailure, OkWire } from "../lib/api.server.js";
import { getAuth } from "../lib/session.server.js";

/**
 * The page's error reports (lib/report.ts) on their way to the server's log: POST /v1/client-errors
 * as the signed-in user, or as a visitor whose address this server vouches for. Same-origin only
 * (the Origin a browser sends with a POST; a report carries no CSRF token, since a crashed page may
 * have none), JSON only, and bounded before it is read.
 */
export const CLIENT_ERROR_BODY_BYTES = 16 * 1024;
const noStore = { "cache-control": "no-store" };
const refuse = (status: number, code: string, message: string) => Response.json({ detail: { status: code, message } }, { status, headers: noStore });

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return refuse(405, "method_not_allowed", "Use POST.");
  const origin = request.headers.get("origin");
  if (origin && origin !== new URL(request.url).origin) return refuse(403, "cross_origin", "Error reports come from this site's pages only.");
  if (!/^application\/json\b/i.test(request.headers.get("content-type") ?? "")) return refuse(415, "unsupported_media_type", "Send the report as JSON.");
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > CLIENT_ERROR_BODY_BYTES) return refuse(413, "payload_too_large", `Error reports are at most ${CLIENT_ERROR_BODY_BYTES / 1024} KB.`);
  const text = await request.text();
  if (text.length > CLIENT_ERROR_BODY_BYTES) return refuse(413, "payload_too_large", `Error reports are at most ${CLIENT_ERROR_BODY_BYTES / 1024} KB.`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return refuse(400, "invalid_json", "The report is not JSON.");
  }
  try {
    await api(context, request, await getAuth(request, context)).call("/v1/client-errors", { method: "POST", body, schema: OkWire });
    return new Response(null, { status: 204, headers: noStore });
  } catch (e) {
    if (e instanceof ApiFailure) return refuse(e.status, e.code ?? "error", e.message);
    throw e;
  }
}
