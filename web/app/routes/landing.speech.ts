import { createHmac } from "node:crypto";
import type { ActionFunctionArgs } from "@remix-run/node";
import { api, ApiFailure } from "../lib/api.server.js";
import { requireCsrf } from "../lib/csrf.server.js";
import { readForm } from "../lib/form.server.js";

/**
 * The landing page's Generate: a logged-out visitor's text spoken by a landing voice. The
 * visitor is this browser's id (the CSRF cookie, which the form's token proves), hashed so the
 * API never sees the cookie itself; the address travels with the web server's proof. The API
 * counts both against the landing page's limits.
 */
const noStore = { "cache-control": "no-store" };

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return Response.json({ detail: { status: "method_not_allowed", message: "Use POST." } }, { status: 405, headers: noStore });
  const form = await readForm(request);
  const browserId = await requireCsrf(request, context, form);
  const visitor = createHmac("sha256", context.sessionSecret).update(`timbre.landing.visitor:${browserId}`).digest("base64url");
  const text = form.get("text");
  const voiceId = form.get("voice_id");
  try {
    const res = await api(context, request).fetchBytes("/v1/landing/text-to-speech", {
      method: "POST",
      body: { text: typeof text === "string" ? text : "", voice_id: typeof voiceId === "string" ? voiceId : "", visitor_id: visitor },
    });
    const headers = new Headers(noStore);
    headers.set("content-type", res.headers.get("content-type") ?? "audio/mpeg");
    const left = res.headers.get("x-landing-requests-left");
    if (left) headers.set("x-landing-requests-left", left);
    return new Response(res.body, { status: 200, headers });
  } catch (e) {
    if (e instanceof ApiFailure) return Response.json({ detail: { status: e.code ?? "error", message: e.message } }, { status: e.status, headers: noStore });
    throw e;
  }
}
