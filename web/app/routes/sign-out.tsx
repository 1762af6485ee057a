import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { api, OkWire } from "../lib/api.server.js";
import { requireCsrf } from "../lib/csrf.server.js";
import { endSession, getAuth } from "../lib/session.server.js";
import { readForm } from "../lib/form.server.js";

export function loader() {
  return redirect("/");
}

/** Ends the /v1 session (so outstanding tokens die at once) and clears the cookie. */
export async function action({ request, context }: ActionFunctionArgs) {
  await requireCsrf(request, context, await readForm(request));
  const auth = await getAuth(request, context);
  if (auth) {
    await api(context, request, auth)
      .call("/v1/auth/sign-out", { method: "POST", schema: OkWire })
      .catch((e: unknown) => console.error(JSON.stringify({ level: "warn", msg: "sign-out: ending the session failed", error: String(e) })));
  }
  return redirect("/sign-in", { headers: { "Set-Cookie": await endSession(request, context) } });
}
