import { Link, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { permissionDeniedMessage, type PermissionId } from "../../../functions/platform/domain/permissions.js";
import { matchesAny } from "../lib/match.js";
import { usePermissions } from "../lib/shell.js";

export interface HeaderTab {
  label: string;
  to: string;
  patterns: readonly string[];
  keepQuery?: boolean;
}

/**
 * The page header (app-shell.md §2): title, description, underlined tabs matched by route
 * patterns, actions, and the required-permission gate over the page body.
 */
export function Page({ title, description, tabs, actions, requiredPermission, children }: {
  title: string;
  description?: string;
  tabs?: readonly HeaderTab[];
  actions?: ReactNode;
  requiredPermission?: PermissionId;
  children?: ReactNode;
}) {
  const location = useLocation();
  return (
    <div className="page">
      <header className="page-header">
        <div className="page-heading">
          <h1>{title}</h1>
          {description && <p className="page-description">{description}</p>}
        </div>
        {actions && (
          <PermissionGate permission={requiredPermission} quiet>
            <div className="page-actions">{actions}</div>
          </PermissionGate>
        )}
      </header>
      {tabs && tabs.length > 0 && (
        <nav className="tabs" aria-label={`${title} sections`}>
          {tabs.map((t) => (
            <Link key={t.to} className="tab" to={t.keepQuery ? `${t.to}${location.search}` : t.to} aria-current={matchesAny([t.to, ...t.patterns], location.pathname) ? "page" : undefined}>
              {t.label}
            </Link>
          ))}
        </nav>
      )}
      <PermissionGate permission={requiredPermission}>{children}</PermissionGate>
    </div>
  );
}

/**
 * Renders children only when the user holds `permission`; nothing while permissions load; the
 * spec's denial message when they are missing (or could not be loaded). `quiet` omits the message.
 */
export function PermissionGate({ permission, quiet = false, children }: { permission?: PermissionId; quiet?: boolean; children?: ReactNode }) {
  const permissions = usePermissions();
  if (!permission) return <>{children}</>;
  if (permissions === undefined) return null;
  if (permissions.has(permission)) return <>{children}</>;
  return quiet ? null : (
    <p className="permission-denied" role="alert">
      {permissionDeniedMessage(permission)}
    </p>
  );
}
