import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { getShell } from "../../lib/shell.server.js";
import { refusal, v1, v1Form, type ActionFailure } from "../../lib/v1.server.js";

export const ProductionWire = z.object({
  production_id: z.string(),
  type: z.literal("voice_verification"),
  voice_name: z.string(),
  language: z.string().nullable(),
  note: z.string(),
  requested_at_unix: z.number(),
  status: z.enum(["pending", "approved", "rejected"]),
  claimed_at_unix: z.number().nullable(),
  reviewed_at_unix: z.number().nullable(),
  rejection_reason: z.string().nullable(),
  files: z.array(z.object({ file_id: z.string(), file_name: z.string(), mime_type: z.string(), size_bytes: z.number() })),
});
export type Production = z.infer<typeof ProductionWire>;

/** Producer Mode's pages are for producers only (app-shell.md §6): anyone else gets the page's own 403. */
export async function requireProducerPage(request: Request, context: LoaderFunctionArgs["context"]) {
  const { shell } = await getShell(request, context);
  if (!shell.user.isProducer) throw data({ message: "Producer Mode is only for producers. Ask an administrator of this server." }, { status: 403 });
  return shell;
}

export async function loadProductions(args: LoaderFunctionArgs, view: "unclaimed" | "active" | "history") {
  await requireProducerPage(args.request, args.context);
  const { client } = await v1(args.request, args.context);
  const r = await client.call(`/v1/productions?view=${view}`, { schema: z.object({ productions: z.array(ProductionWire) }) });
  return { productions: r.productions };
}

/** Claim, release, approve or reject: the form's intent, on the production named in the form. */
export async function productionAction({ request, context }: ActionFunctionArgs) {
  const { client, form } = await v1Form(request, context);
  const intent = String(form.get("intent") ?? "");
  const id = encodeURIComponent(String(form.get("production_id") ?? ""));
  if (!["claim", "release", "approve", "reject"].includes(intent)) return data<ActionFailure>({ ok: false, intent, error: "Unknown action." }, { status: 400 });
  const reason = String(form.get("reason") ?? "").trim();
  if (intent === "reject" && !reason) return data<ActionFailure>({ ok: false, intent, error: "Give the user a reason." }, { status: 400 });
  try {
    await client.call(`/v1/productions/${id}/${intent}`, { method: "POST", body: intent === "reject" ? { reason } : {}, schema: ProductionWire });
  } catch (e) {
    return refusal(e, intent);
  }
  const messages: Record<string, string> = {
    claim: "Claimed: it is in your active productions.",
    release: "Released: it is back in the unclaimed queue.",
    approve: "Approved: the voice is verified.",
    reject: "Rejected: the user was told why.",
  };
  return { ok: true as const, intent, message: messages[intent] };
}
