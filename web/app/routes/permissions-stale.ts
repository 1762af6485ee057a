import type { ActionFunctionArgs } from "@remix-run/node";
import { getAuth } from "../lib/session.server.js";
import { permissionCache } from "../lib/permissionCache.server.js";

/**
 * POST /permissions-stale: a page's own /v1 call was refused for a permission, so this server
 * drops its cached permission answer for the signed-in user and workspace (app-shell.md §6: the
 * gate's cache is invalidated at once). It can only cause one more read, so it carries no body
 * and no CSRF token; it is same-origin only all the same.
 */
const noStore = { "cache-control": "no-store" };

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return Response.json({ detail: { status: "method_not_allowed", message: "Use POST." } }, { status: 405, headers: noStore });
  const origin = request.headers.get("origin");
  if (origin && origin !== new URL(request.url).origin) return Response.json({ detail: { status: "cross_origin", message: "Only this site's pages can do this." } }, { status: 403, headers: noStore });
  const auth = await getAuth(request, context);
  if (auth) permissionCache.forget(auth.user_id, auth.workspace_id);
  return new Response(null, { status: 204, headers: noStore });
}

export function loader() {
  return new Response(null, { status: 405, headers: { allow: "POST", ...noStore } });
}
