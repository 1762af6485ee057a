import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { jsonOr, v1Form } from "../lib/v1.server.js";

/** The feedback popover's POST (app-shell.md §7): {feedback} -> {relevant, category, positive}. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { client, form } = await v1Form(request, context);
  const feedback = String(form.get("feedback") ?? "");
  return jsonOr(() => client.call("/v1/feedback", { method: "POST", body: { feedback }, schema: z.object({ relevant: z.boolean(), category: z.string(), positive: z.boolean() }) }), "Sending failed.");
}
