import type { AppLoadContext } from "@remix-run/node";
import { data } from "@remix-run/node";
import { api, ApiFailure } from "./api.server.js";
import { requireCsrf } from "./csrf.server.js";
import { requireAuth } from "./session.server.js";
import { readForm } from "./form.server.js";

/** The signed-in user's /v1 client for a loader or action. */
export async function v1(request: Request, context: AppLoadContext) {
  const auth = await requireAuth(request, context);
  return { auth, client: api(context, request, auth) };
}

/** An action's form, with its CSRF token checked, and the user's /v1 client. */
export async function v1Form(request: Request, context: AppLoadContext) {
  const { auth, client } = await v1(request, context);
  const form = await readForm(request);
  await requireCsrf(request, context, form);
  return { auth, client, form };
}

export interface ActionFailure {
  ok: false;
  intent: string;
  error: string;
  fields?: Record<string, string>;
}

/** An API refusal (4xx) becomes the action's answer with the API's own message; anything else is thrown. */
export function refusal(e: unknown, intent: string) {
  if (e instanceof ApiFailure && e.status < 500) return data<ActionFailure>({ ok: false, intent, error: e.message, fields: e.fields }, { status: e.status });
  throw e;
}

/** JSON for the page's own fetches: the data, or {error} with the API's status and message. */
export async function jsonOr<T>(work: () => Promise<T>, fallback: string): Promise<Response> {
  try {
    return Response.json(await work(), { headers: { "cache-control": "no-store" } });
  } catch (e) {
    if (e instanceof ApiFailure) return Response.json({ error: e.status < 500 ? e.message : fallback }, { status: e.status, headers: { "cache-control": "no-store" } });
    throw e;
  }
}
