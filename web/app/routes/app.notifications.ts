import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { v1, jsonOr } from "../lib/v1.server.js";

/** The notification feed for the shell's popover (GET only; app-shell.md §7). */
const Feed = z.object({ docs: z.array(z.object({ id: z.string(), title: z.string(), description: z.string(), timestamp: z.number(), largeImage: z.object({ url: z.string(), alt: z.string() }).nullable(), smallImage: z.object({ url: z.string(), alt: z.string() }).nullable(), linkTo: z.string().nullable(), isImportant: z.boolean() })) });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { client } = await v1(request, context);
  return jsonOr(() => client.call("/v1/notifications?limit=10", { schema: Feed }), "The notifications could not be loaded.");
}
