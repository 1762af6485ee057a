import { createHmac } from "node:crypto";

/**
 * The web app's session cookie, named and keyed in one place: the Remix app signs it, and the
 * embedded front checks its signature before it reads a large body from a browser.
 */
export const WEB_SESSION_COOKIE = "timbre_session";

/** A key for cookie signatures, separate from the one that signs /v1 tokens. */
export const webCookieKey = (secret: string) => createHmac("sha256", secret).update("timbre.web.cookie").digest("base64url");
