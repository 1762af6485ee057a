import { createCookie } from "@remix-run/node";
import { WEB_SESSION_COOKIE, webCookieKey } from "../../functions/platform/domain/webCookie.js";

/** True when the Cookie header holds a session cookie signed with this server's key. */
export async function hasValidWebSession(cookieHeader: string | undefined, secret: string): Promise<boolean> {
  if (!cookieHeader || !cookieHeader.includes(`${WEB_SESSION_COOKIE}=`)) return false;
  const cookie = createCookie(WEB_SESSION_COOKIE, { secrets: [webCookieKey(secret)] });
  const value: unknown = await cookie.parse(cookieHeader).catch(() => null);
  return value !== null && value !== undefined && value !== "";
}
