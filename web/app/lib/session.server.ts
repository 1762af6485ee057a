import { createCookieSessionStorage, redirect, type AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { WEB_SESSION_COOKIE, webCookieKey } from "../../../functions/platform/domain/webCookie.js";
import { permissionCache } from "./permissionCache.server.js";

/**
 * The browser keeps only an HttpOnly, signed session cookie holding the /v1 session id; loaders
 * turn it into a short-lived bearer token for each call (api.server.ts).
 */
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 3600;

const WebSessionSchema = z.object({ session_id: z.string().min(1), user_id: z.string().min(1), workspace_id: z.string().min(1) });
export type WebSession = z.infer<typeof WebSessionSchema>;


function storage(context: AppLoadContext) {
  return createCookieSessionStorage<{ auth: WebSession }>({
    cookie: {
      name: WEB_SESSION_COOKIE,
      httpOnly: true,
      sameSite: "lax",
      secure: context.secureCookies,
      path: "/",
      maxAge: SESSION_MAX_AGE_SECONDS,
      secrets: [webCookieKey(context.sessionSecret)],
    },
  });
}

export async function getAuth(request: Request, context: AppLoadContext): Promise<WebSession | undefined> {
  const session = await storage(context).getSession(request.headers.get("cookie"));
  const parsed = WebSessionSchema.safeParse(session.get("auth"));
  return parsed.success ? parsed.data : undefined;
}

export function signInPath(request: Request): string {
  const url = new URL(request.url);
  const here = `${url.pathname}${url.search}`;
  return here === "/app" || here === "/" ? "/sign-in" : `/sign-in?redirectTo=${encodeURIComponent(here)}`;
}

/** The signed-in session, or a redirect to the sign-in page that comes back here afterwards. */
export async function requireAuth(request: Request, context: AppLoadContext): Promise<WebSession> {
  const auth = await getAuth(request, context);
  if (!auth) throw redirect(signInPath(request));
  return auth;
}

/** A new session (sign-in, sign-up, a workspace joined): the user's cached permissions go. */
export async function startSession(context: AppLoadContext, auth: WebSession): Promise<string> {
  permissionCache.forgetUser(auth.user_id);
  const s = storage(context);
  const session = await s.getSession();
  session.set("auth", auth);
  return s.commitSession(session);
}

/** Sign-out (or a session /v1 no longer knows): the user's cached permissions go too. */
export async function endSession(request: Request, context: AppLoadContext): Promise<string> {
  const s = storage(context);
  const session = await s.getSession(request.headers.get("cookie"));
  const parsed = WebSessionSchema.safeParse(session.get("auth"));
  if (parsed.success) permissionCache.forgetUser(parsed.data.user_id);
  return s.destroySession(session);
}
