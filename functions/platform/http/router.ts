import { PATH_ID } from "../contract/ids.js";
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

// A parameter that cannot be an id (contract/ids.ts) is answered as not found here instead of
// travelling to DynamoDB, whose key limits would turn it into a 500.
export { PATH_ID };

export type Match<C> =
  | { handler: RouteHandler<C>; params: Record<string, string> }
  | { invalidParam: string; value: string }
  | "not_found"
  | "method_not_allowed";

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined; // a malformed escape (%ff, %zz): no resource has such a name
  }
}

/**
 * A small path router. Static segments win over parameters, so
 * /v1/voices/settings/default is matched before /v1/voices/:voice_id/... patterns.
 */
export class Router<C> {
  private routes: CompiledRoute<C>[] = [];
  private readonly invalid = new Map<string, (value: string) => Error>();

  /** The error for a path parameter that cannot be an id (default: a generic 404). */
  onInvalidParam(name: string, error: (value: string) => Error): this {
    this.invalid.set(name, error);
    return this;
  }

  invalidParamError(name: string, value: string): Error | undefined {
    return this.invalid.get(name)?.(value.length > 64 ? `${value.slice(0, 64)}…` : value);
  }

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
    // Two handlers for one route: the later would never run (registration order decides), so say so at start-up.
    const regex = new RegExp(`^${source}/?$`);
    if (this.routes.some((r) => r.method === method && r.regex.source === regex.source)) throw new Error(`route registered twice: ${method} ${pattern}`);
    this.routes.push({ method, pattern, regex, names, specificity, handler });
    this.routes.sort((a, b) => b.specificity - a.specificity);
    return this;
  }

  get(p: string, h: RouteHandler<C>) { return this.add("GET", p, h); }
  post(p: string, h: RouteHandler<C>) { return this.add("POST", p, h); }
  patch(p: string, h: RouteHandler<C>) { return this.add("PATCH", p, h); }
  put(p: string, h: RouteHandler<C>) { return this.add("PUT", p, h); }
  delete(p: string, h: RouteHandler<C>) { return this.add("DELETE", p, h); }

  /**
   * The handler for a request, or why there is none (404 vs 405), or the first path parameter
   * that cannot be an id (the caller answers 404 for the resource it names).
   */
  match(method: Method, path: string): Match<C> {
    let pathMatched = false;
    for (const r of this.routes) {
      const m = r.regex.exec(path);
      if (!m) continue;
      pathMatched = true;
      if (r.method !== method && !(method === "HEAD" && r.method === "GET")) continue;
      const params: Record<string, string> = {};
      for (let i = 0; i < r.names.length; i++) {
        const value = decode(m[i + 1]);
        if (value === undefined || !PATH_ID.test(value)) return { invalidParam: r.names[i], value: value ?? m[i + 1] };
        params[r.names[i]] = value;
      }
      return { handler: r.handler, params };
    }
    return pathMatched ? "method_not_allowed" : "not_found";
  }
}
