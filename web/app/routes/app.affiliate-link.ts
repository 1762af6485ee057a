import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { jsonOr, v1Form } from "../lib/v1.server.js";

/** Generates (or returns) the user's referral code and link for the affiliate dialog. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { client } = await v1Form(request, context);
  return jsonOr(() => client.call("/v1/user/affiliate-link", { method: "POST", schema: z.object({ referral_link_code: z.string(), link: z.string() }) }), "Error generating affiliate link");
}
