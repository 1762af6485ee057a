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
