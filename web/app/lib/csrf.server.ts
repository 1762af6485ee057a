import { randomBytes } from "node:crypto";
import { createCookie, data, type AppLoadContext } from "@remix-run/node";
import { csrfToken } from "../../../functions/platform/domain/tokens.js";
import { safeEqual } from "../../../functions/platform/adapters/ids.js";

/**
 * CSRF protection for every form: a random browser id in an HttpOnly cookie, and in each form
 * a token that is an HMAC of that id under the server secret. Actions check the token and, when
 * the browser sends one, that the Origin is this site.
 */
export const CSRF_FIELD = "csrf";
export const CSRF_FAILED_MESSAGE = "This form has expired or was sent from another site. Please reload the page and try again.";

function browserIdCookie(context: AppLoadContext) {
  // __Host- pins the cookie to this exact host over HTTPS.
  return createCookie(context.secureCookies ? "__Host-timbre_bid" : "timbre_bid", {
    httpOnly: true,
    sameSite: "lax",
    secure: context.secureCookies,
    path: "/",
    maxAge: 400 * 24 * 3600,
  });
}

async function readBrowserId(request: Request, context: AppLoadContext): Promise<string | undefined> {
  const value: unknown = await browserIdCookie(context).parse(request.headers.get("cookie"));
  return typeof value === "string" && value.length >= 16 ? value : undefined;
}

/** The token for this browser's forms; `setCookie` is set when the browser had no id yet. */
export async function csrfForBrowser(request: Request, context: AppLoadContext): Promise<{ token: string; setCookie?: string }> {
  const existing = await readBrowserId(request, context);
  if (existing) return { token: csrfToken(context.sessionSecret, existing) };
  const id = randomBytes(24).toString("base64url");
  return { token: csrfToken(context.sessionSecret, id), setCookie: await browserIdCookie(context).serialize(id) };
}

/** Throws a 403 unless the form carries this browser's token and comes from this site; returns the browser's id. */
export async function requireCsrf(request: Request, context: AppLoadContext, form: FormData): Promise<string> {
  const origin = request.headers.get("origin");
  const sameOrigin = origin === null || origin === new URL(request.url).origin;
  const id = await readBrowserId(request, context);
  const sent = form.get(CSRF_FIELD);
  const valid = id !== undefined && typeof sent === "string" && safeEqual(sent, csrfToken(context.sessionSecret, id));
  if (!sameOrigin || !valid) throw data({ message: CSRF_FAILED_MESSAGE }, { status: 403, statusText: "Forbidden" });
  return id;
}
