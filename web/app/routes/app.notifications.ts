import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { v1, v1Form, jsonOr } from "../lib/v1.server.js";

/** The notification feed for the shell's popover (app-shell.md §7). */
const Feed = z.object({
  docs: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      description: z.string(),
      timestamp: z.number(),
      largeImage: z.object({ url: z.string(), alt: z.string() }).nullable(),
      smallImage: z.object({ url: z.string(), alt: z.string() }).nullable(),
      linkTo: z.string().nullable(),
      isImportant: z.boolean(),
      featureFlagControlled: z.boolean(),
      first_shown: z.number().nullable(),
    }),
  ),
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { client } = await v1(request, context);
  return jsonOr(() => client.call("/v1/notifications?limit=10", { schema: Feed }), "The notifications could not be loaded.");
}

/** The popover showed a flag-controlled notification: its first-shown time is stored (app-shell.md §4). */
export async function action({ request, context }: ActionFunctionArgs) {
  const { client, form } = await v1Form(request, context);
  const id = String(form.get("id") ?? "");
  return jsonOr(
    () => client.call(`/v1/notifications/${encodeURIComponent(id)}/shown`, { method: "POST", schema: z.object({ notification_id: z.string(), first_shown: z.number() }) }),
    "The notification could not be marked as shown.",
  );
}
