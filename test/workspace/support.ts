import { ElevenLabsClient } from "@elevenlabs/elevenlabs-js";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { createApiKey } from "../../functions/platform/domain/accounts.js";
import { apiFetch, createTestAccount } from "../support/stack.js";
import type { TierId } from "../../functions/platform/domain/tiers.js";

/** A workspace admin and the SDK client that acts as them. */
export async function adminOf(stack: EmbeddedStack, tier: TierId = "business") {
  const acct = await createTestAccount(stack, tier);
  return { ...acct, client: new ElevenLabsClient({ baseUrl: stack.url, apiKey: acct.apiKey, maxRetries: 0 }) };
}

let n = 0;
export const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${++n}@example.test`;

/**
 * A new person joining `admin`'s workspace the way a user would: invited through the SDK, signed
 * up through the invite link's token. Returns an API key of theirs in that workspace.
 */
export async function joinAsMember(stack: EmbeddedStack, admin: { client: ElevenLabsClient }, opts: { email?: string; groupIds?: string[]; seatType?: "workspace_admin" | "workspace_member"; usageLimit?: number } = {}) {
  const email = opts.email ?? uniqueEmail("member");
  const created = (await admin.client.workspace.invites.create({ email, groupIds: opts.groupIds, seatType: opts.seatType, usageLimit: opts.usageLimit })) as unknown as { invite_url: string };
  const token = created.invite_url.split("/invite/")[1];
  const res = await apiFetch(stack, undefined, "/v1/auth/sign-up", { method: "POST", body: JSON.stringify({ email, password: "member password 1", first_name: "Mia", invite_token: token }) });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const session = (await res.json()) as { user_id: string; workspace_id: string; session_id: string };
  const { value } = await createApiKey(stack.ctx, { workspaceId: session.workspace_id, userId: session.user_id, name: "member key" });
  return { email, password: "member password 1", userId: session.user_id, workspaceId: session.workspace_id, apiKey: value, client: new ElevenLabsClient({ baseUrl: stack.url, apiKey: value, maxRetries: 0 }) };
}
