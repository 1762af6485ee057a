/**
 * Route patterns as the specs write them: "/app/conversational-ai/talk-to/:id" (a param is one
 * non-empty segment) and "/app/studio/*" (the rest, possibly nothing). Used by the navigation's
 * active state, page tabs and the page registry.
 */
const segments = (path: string) => path.replace(/\/+$/, "").split("/").filter((s, i) => i === 0 || s !== "");

export function matchesPattern(pattern: string, pathname: string): boolean {
  const p = segments(pattern);
  const s = segments(pathname);
  for (let i = 0; i < p.length; i++) {
    if (p[i] === "*") return true;
    if (i >= s.length) return false;
    if (p[i].startsWith(":")) continue;
    if (p[i] !== s[i]) return false;
  }
  return p.length === s.length;
}

export const matchesAny = (patterns: readonly string[], pathname: string) => patterns.some((p) => matchesPattern(p, pathname));
