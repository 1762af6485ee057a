import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { api, ApiFailure, OkWire } from "../lib/api.server.js";
import { requireCsrf } from "../lib/csrf.server.js";
import { requireAuth } from "../lib/session.server.js";
import { SHARING_FAILURES, type SharingData } from "../components/sharing/sharing.js";
import { readForm } from "../lib/form.server.js";

/**
 * The Sharing dialog's server side (app-shell.md §2, §7): GET the resource's metadata (roles,
 * principals, share options) and the workspace's groups; POST a share or unshare. JSON only,
 * for the dialog's own fetches; every POST carries the CSRF token.
 */
const TYPES = ["pronunciation_dictionary", "voice", "voice_collection"] as const;
const Type = z.enum(TYPES);
const Role = z.enum(["admin", "editor", "commenter", "viewer"]);
const PrincipalWire = z.object({ id: z.string(), name: z.string(), type: z.enum(["user", "group", "key"]), role: z.string(), email: z.string().optional(), is_owner: z.boolean(), is_self: z.boolean() });
const MetadataWire = z.object({
  resource_id: z.string(),
  resource_name: z.string().nullable(),
  default_access: z.string(),
  principals: z.array(PrincipalWire),
  share_options: z.array(z.object({ id: z.string(), name: z.string(), type: z.enum(["user", "group", "key"]), email: z.string().optional() })),
  permission_on_resource: z.string().nullable(),
});
const GroupsWire = z.record(z.object({ id: z.string(), name: z.string() }));

const noStore = { "cache-control": "no-store" };

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const auth = await requireAuth(request, context);
  const client = api(context, request, auth);
  const type = Type.safeParse(params.type);
  if (!type.success) return Response.json({ error: SHARING_FAILURES.metadata }, { status: 404, headers: noStore });
  const id = encodeURIComponent(params.id ?? "");
  const [metadata, groups] = await Promise.allSettled([
    client.call(`/v1/workspace/resources/${id}?resource_type=${type.data}`, { schema: MetadataWire }),
    client.call("/v1/workspace/groups", { schema: GroupsWire }),
  ]);
  if (metadata.status === "rejected") {
    const e = metadata.reason;
    if (e instanceof ApiFailure) return Response.json({ error: SHARING_FAILURES.metadata }, { status: e.status, headers: noStore });
    throw e;
  }
  const body: SharingData = {
    ...metadata.value,
    groups: groups.status === "fulfilled" ? Object.values(groups.value).map((g) => ({ id: g.id, name: g.name })) : null,
  };
  return Response.json(body, { headers: noStore });
}

const Body = z.object({
  op: z.enum(["share", "unshare"]),
  role: Role.optional(),
  group_id: z.string().max(64).optional(),
  user_email: z.string().max(254).optional(),
  workspace_api_key_id: z.string().max(64).optional(),
});

export async function action({ request, context, params }: ActionFunctionArgs) {
  const auth = await requireAuth(request, context);
  const form = await readForm(request);
  await requireCsrf(request, context, form);
  const type = Type.safeParse(params.type);
  const parsed = Body.safeParse(Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string" && v !== "")));
  if (!type.success || !parsed.success || (parsed.data.op === "share" && !parsed.data.role)) return Response.json({ error: SHARING_FAILURES.update }, { status: 400, headers: noStore });
  const { op, ...target } = parsed.data;
  try {
    await api(context, request, auth).call(`/v1/workspace/resources/${encodeURIComponent(params.id ?? "")}/${op}`, {
      method: "POST",
      body: { resource_type: type.data, ...target, ...(op === "unshare" ? { role: undefined } : {}) },
      schema: OkWire,
    });
    return Response.json({ ok: true }, { headers: noStore });
  } catch (e) {
    if (e instanceof ApiFailure) return Response.json({ error: SHARING_FAILURES.update, detail: e.message }, { status: e.status, headers: noStore });
    throw e;
  }
}
