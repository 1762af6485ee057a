import { redirect, type AppLoadContext } from "@remix-run/node";
import { api, ApiFailure, UserWire, WorkspaceWire } from "./api.server.js";
import { permissionCache } from "./permissionCache.server.js";
import { endSession, requireAuth, signInPath, type WebSession } from "./session.server.js";
import type { ShellData } from "./shell.js";

/**
 * Loads the shell (user, subscription, workspace permissions and flags) from /v1. The /app
 * layout and child loaders that need it share one load per request. The workspace answer (the
 * page gates' permissions) comes from the 30-minute permission cache (permissionCache.server.ts);
 * the user (credits, plan) is read every time.
 */
const loads = new WeakMap<Request, Promise<{ auth: WebSession; shell: ShellData }>>();

export function getShell(request: Request, context: AppLoadContext): Promise<{ auth: WebSession; shell: ShellData }> {
  let p = loads.get(request);
  if (!p) {
    p = loadShell(request, context);
    loads.set(request, p);
  }
  return p;
}

async function loadShell(request: Request, context: AppLoadContext): Promise<{ auth: WebSession; shell: ShellData }> {
  const auth = await requireAuth(request, context);
  const client = api(context, request, auth);
  const [userResult, workspaceResult] = await Promise.allSettled([
    client.call("/v1/user", { schema: UserWire }),
    permissionCache.get(auth.user_id, auth.workspace_id, () => client.call("/v1/workspace", { schema: WorkspaceWire })),
  ]);
  if (userResult.status === "rejected") {
    const e = userResult.reason;
    // The session ended (signed out elsewhere, expired, user removed): sign in again.
    if (e instanceof ApiFailure && e.status === 401) throw redirect(signInPath(request), { headers: { "Set-Cookie": await endSession(request, context) } });
    throw e;
  }
  const user = userResult.value;
  const workspace = workspaceResult.status === "fulfilled" ? workspaceResult.value : undefined;
  if (workspaceResult.status === "rejected") {
    // Spec: when permissions cannot be loaded, access is denied and the failure reported.
    console.error(JSON.stringify({ level: "error", msg: "shell: loading the workspace failed", error: String(workspaceResult.reason) }));
  }
  const shell: ShellData = {
    user: {
      id: user.user_id,
      email: user.email,
      displayName: user.display_name || user.first_name || null,
      photoUrl: user.photo_url,
      isProducer: user.is_producer,
      hasReferralLink: Boolean(user.referral_link_code),
      referralCode: user.referral_link_code ?? null,
      isServerAdmin: user.is_server_admin === true,
      createdAtUnix: user.created_at,
    },
    workspace: {
      name: workspace?.name ?? user.workspace_name,
      isAdmin: workspace ? workspace.is_admin : false,
      permissions: workspace ? workspace.permissions : null,
    },
    subscription: {
      tier: user.subscription.tier,
      status: user.subscription.status,
      used: user.subscription.character_count,
      limit: user.subscription.character_limit,
      resetsAtUnix: user.subscription.next_character_count_reset_unix,
    },
    flags: workspace?.flags ?? context.defaultFlags,
  };
  return { auth, shell };
}
