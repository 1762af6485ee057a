import type { EmbeddedStack } from "../../infra/local/stack.js";
import { issueToken } from "../../functions/platform/domain/tokens.js";
import { sha256Hex } from "../../functions/platform/adapters/ids.js";
import { apiFetch } from "../support/stack.js";

/** Signs in through the API and returns what the web would call /v1 with: a session token. */
export async function signInSession(stack: EmbeddedStack, email: string, password: string) {
  const res = await apiFetch(stack, undefined, "/v1/auth/sign-in", { method: "POST", body: JSON.stringify({ email, password }), headers: { "user-agent": "Test browser" } });
  const body = (await res.json()) as { session_id: string; user_id: string; workspace_id: string; two_factor_required?: boolean; challenge?: string };
  return { status: res.status, body };
}

export function bearerFor(stack: EmbeddedStack, s: { session_id: string; user_id: string; workspace_id: string }) {
  const token = issueToken(stack.ctx.secrets.session, { sid: sha256Hex(s.session_id), uid: s.user_id, ws: s.workspace_id, exp: Math.floor(Date.now() / 1000) + 600 });
  return (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set("authorization", `Bearer ${token}`);
    return apiFetch(stack, undefined, path, { ...init, headers });
  };
}
