import type { LoaderFunctionArgs } from "@remix-run/node";
import { TOKEN_TTL_SECONDS } from "../../../functions/platform/domain/tokens.js";
import { sessionToken } from "../lib/api.server.js";
import { getAuth } from "../lib/session.server.js";

/**
 * A short-lived /v1 bearer token for the signed-in browser, so the page can call /v1 itself
 * (audio that plays while it streams, voice search as the user types). Same origin only: no
 * CORS headers, and a request another site initiated is refused. Never cached.
 */
const noStore = { "cache-control": "no-store", vary: "cookie" };

function refuse(status: number, code: string, message: string): Response {
  return Response.json({ detail: { status: code, message } }, { status, headers: noStore });
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const site = request.headers.get("sec-fetch-site");
  if (site && site !== "same-origin") return refuse(403, "cross_site_request", "Tokens are only issued to this site's own pages.");
  const origin = request.headers.get("origin");
  if (origin && origin !== new URL(request.url).origin) return refuse(403, "cross_site_request", "Tokens are only issued to this site's own pages.");
  const auth = await getAuth(request, context);
  if (!auth) return refuse(401, "invalid_api_key", "Please sign in again.");
  const expiresAt = Math.floor(Date.now() / 1000) + TOKEN_TTL_SECONDS;
  return Response.json({ token: sessionToken(context, auth), expires_at: expiresAt }, { headers: noStore });
}
