import type { ApiRequest, ApiResponse, Method } from "./types.js";

export type RouteHandler<C> = (req: ApiRequest, ctx: C) => Promise<ApiResponse>;

interface CompiledRoute<C> {
  method: Method;
  pattern: string;
  regex: RegExp;
  names: string[];
  specificity: number;
  handler: RouteHandler<C>;
}

/**
 * A small path router. Static segments win over parameters, so
 * /v1/voices/settings/default is matched before /v1/voices/:voice_id/... patterns.
 */
export class Router<C> {
  private routes: CompiledRoute<C>[] = [];

  add(method: Method, pattern: string, handler: RouteHandler<C>): this {
    const names: string[] = [];
    const segments = pattern.split("/").filter(Boolean);
    const source = segments
      .map((s) => {
        if (s.startsWith(":")) {
          names.push(s.slice(1));
          return "/([^/]+)";
        }
        return "/" + s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      })
      .join("");
    const specificity = segments.reduce((n, s, i) => n + (s.startsWith(":") ? 0 : 2 ** (16 - i)), 0);
    this.routes.push({ method, pattern, regex: new RegExp(`^${source}/?$`), names, specificity, handler });
    this.routes.sort((a, b) => b.specificity - a.specificity);
    return this;
  }

  get(p: string, h: RouteHandler<C>) { return this.add("GET", p, h); }
  post(p: string, h: RouteHandler<C>) { return this.add("POST", p, h); }
  patch(p: string, h: RouteHandler<C>) { return this.add("PATCH", p, h); }
  put(p: string, h: RouteHandler<C>) { return this.add("PUT", p, h); }
  delete(p: string, h: RouteHandler<C>) { return this.add("DELETE", p, h); }

  /** The handler for a request, or why there is none (404 vs 405). */
  match(method: Method, path: string): { handler: RouteHandler<C>; params: Record<string, string> } | "not_found" | "method_not_allowed" {
    let pathMatched = false;
    for (const r of this.routes) {
      const m = r.regex.exec(path);
      if (!m) continue;
      pathMatched = true;
      if (r.method !== method && !(method === "HEAD" && r.method === "GET")) continue;
      const params: Record<string, string> = {};
      r.names.forEach((n, i) => {
        params[n] = decodeURIComponent(m[i + 1]);
      });
      return { handler: r.handler, params };
    }
    return pathMatched ? "method_not_allowed" : "not_found";
  }
}
