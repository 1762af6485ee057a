import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Outlet, useLoaderData, useRevalidator, useRouteError, type ShouldRevalidateFunction } from "@remix-run/react";
import { useEffect } from "react";
import { Shell } from "../../components/Shell.js";
import { RouteErrorScreen } from "../../components/ErrorScreen.js";
import { getShell } from "../../lib/shell.server.js";
import { PERMISSION_CACHE_MS, shellClientCache, useShell, type ShellData } from "../../lib/shell.js";

export const meta: MetaFunction = () => [{ title: "Timbre" }];

export async function loader({ request, context }: LoaderFunctionArgs): Promise<ShellData> {
  return (await getShell(request, context)).shell;
}

/**
 * Permissions and flags are cached for 30 minutes in the browser (app-shell.md §6): plain
 * navigations reuse the loaded shell; form submissions, explicit revalidation and a call the
 * page made that was refused for a permission (lib/shell.ts permissionsChanged) reload it. The
 * server keeps the answer for the same window (lib/permissionCache.server.ts).
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, currentUrl, nextUrl, defaultShouldRevalidate }) => {
  if (formMethod && formMethod.toUpperCase() !== "GET") return defaultShouldRevalidate;
  if (currentUrl.href === nextUrl.href) return defaultShouldRevalidate;
  return Date.now() - shellClientCache.loadedAt > PERMISSION_CACHE_MS ? defaultShouldRevalidate : false;
};

export default function AppLayout() {
  const shell = useLoaderData<typeof loader>();
  useEffect(() => {
    shellClientCache.loadedAt = Date.now();
  }, [shell]);
  return (
    <Shell shell={shell}>
      <Outlet />
    </Shell>
  );
}

/** A crash under /app keeps the shell (when it loaded) and offers Try again, which revalidates. */
export function ErrorBoundary() {
  const error = useRouteError();
  const shell = useShell();
  const revalidator = useRevalidator();
  const screen = <RouteErrorScreen error={error} where="app" onRetry={() => revalidator.revalidate()} />;
  if (!shell) return <main id="main" className="page page-narrow">{screen}</main>;
  return (
    <Shell shell={shell}>
      <div className="page">{screen}</div>
    </Shell>
  );
}
