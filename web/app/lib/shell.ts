import { useRouteLoaderData } from "@remix-run/react";
import type { PermissionId } from "../../../functions/platform/domain/permissions.js";
import type { NavContext } from "./nav.js";

/** What the /app layout loads once and every page under it reads (see shell.server.ts). */
export interface ShellData {
  user: {
    id: string;
    email: string;
    /** The name to greet with; the profile menu falls back to "My Account". */
    displayName: string | null;
    photoUrl: string | null;
    isProducer: boolean;
    hasReferralLink: boolean;
    referralCode: string | null;
    /** Administers the server: sets plans, posts notifications, reads feedback. */
    isServerAdmin: boolean;
    createdAtUnix: number;
  };
  workspace: {
    name: string;
    isAdmin: boolean;
    /** The user's effective permissions; null when they could not be loaded (access is then denied). */
    permissions: string[] | null;
  };
  subscription: {
    tier: string;
    status: string;
    used: number;
    limit: number;
    resetsAtUnix: number | null;
  };
  flags: Record<string, boolean>;
}

export const APP_ROUTE_ID = "routes/app";
export const ROOT_ROUTE_ID = "root";

/** The shell's data, or undefined outside /app (or while it has not loaded). */
export function useShell(): ShellData | undefined {
  return useRouteLoaderData<ShellData>(APP_ROUTE_ID);
}

export function navContext(shell: ShellData): NavContext {
  return { flags: shell.flags, tier: shell.subscription.tier, isProducer: shell.user.isProducer, isAdmin: shell.workspace.isAdmin };
}

/** undefined while loading, the permission set once known (empty when loading failed). */
export function usePermissions(): ReadonlySet<PermissionId> | undefined {
  const shell = useShell();
  if (!shell) return undefined;
  return new Set((shell.workspace.permissions ?? []) as PermissionId[]);
}

/** The API's answers that mean "not allowed": the page gates' cached permissions may be out of date. */
export const PERMISSION_DENIALS: ReadonlySet<string> = new Set(["missing_permissions", "workspace_admin_required"]);

/** The page-permission cache's window (app-shell.md §9): in the browser and on the server. */
export const PERMISSION_CACHE_MS = 30 * 60 * 1000;

/** When the browser last loaded the shell (the /app layout's shouldRevalidate reads it; 0: reload on the next navigation). */
export const shellClientCache = { loadedAt: 0 };

/**
 * A call from the page answered 403 for a permission: the shell is reloaded on the next
 * navigation, and the server drops its cached answer for this user (POST /permissions-stale).
 */
export function permissionsChanged(): void {
  shellClientCache.loadedAt = 0;
  void fetch("/permissions-stale", { method: "POST", credentials: "same-origin", keepalive: true }).catch(() => undefined);
}

/** Looks at a /v1 answer the page got (without consuming it): a permission 403 marks the permissions stale. */
export async function notePermissionDenial(res: Response): Promise<void> {
  if (res.status !== 403) return;
  const body: unknown = await res.clone().json().catch(() => undefined);
  const code = (body as { detail?: { status?: unknown } } | undefined)?.detail?.status;
  if (typeof code === "string" && PERMISSION_DENIALS.has(code)) permissionsChanged();
}
