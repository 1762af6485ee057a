import { Outlet, useRevalidator, useRouteError } from "@remix-run/react";
import type { ReactNode } from "react";
import { RouteErrorScreen } from "../components/ErrorScreen.js";
import { SettingsNav } from "../components/SettingsNav.js";
import { useShell } from "../lib/shell.js";

function SettingsFrame({ children }: { children: ReactNode }) {
  const shell = useShell();
  if (!shell) return null;
  return (
    <div className="settings">
      <SettingsNav shell={shell} />
      <div className="settings-content">{children}</div>
    </div>
  );
}

export default function SettingsLayout() {
  return (
    <SettingsFrame>
      <Outlet />
    </SettingsFrame>
  );
}

/** A settings page that fails keeps the settings navigation. */
export function ErrorBoundary() {
  const error = useRouteError();
  const revalidator = useRevalidator();
  return (
    <SettingsFrame>
      <div className="page">
        <RouteErrorScreen error={error} where="settings" onRetry={() => revalidator.revalidate()} />
      </div>
    </SettingsFrame>
  );
}
