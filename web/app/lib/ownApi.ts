/**
 * The path to fetch for one of this server's own API resources (a voice preview, a sample's
 * audio) that the API gave as an absolute URL. The API writes those with PUBLIC_URL, but the
 * same server may be opened at another of its addresses (127.0.0.1, a LAN address, a name a
 * proxy answers to): a `/v1/` or `/v2/` path is then fetched from the page's own origin, as the
 * user. Anything else is not ours and is refused (null): the CSP allows no other origin.
 */
export function ownApiPath(url: string, pageUrl: string): string | null {
  let u: URL;
  try {
    u = new URL(url, pageUrl);
  } catch {
    return null;
  }
  if (u.origin === new URL(pageUrl).origin || /^\/v[12]\//.test(u.pathname)) return u.pathname + u.search;
  return null;
}
