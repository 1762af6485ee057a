/**
 * The Sharing dialog's words and rules (app-shell.md §2, §4, §8), in one place: every toast and
 * confirmation text word for word, the page size, the order of roles.
 */
export const SHARE_PAGE_SIZE = 5;

export const SHARING_FAILURES = {
  update: "Failed to update sharing settings",
  groups: "Failed to load workspace groups",
  serviceAccounts: "Failed to load workspace service accounts",
  metadata: "Failed to load resource metadata",
} as const;

export const SHARING_SUCCESS = {
  shared: (group: string) => `Successfully shared resource with ${group}`,
  settings: "Sharing settings updated successfully",
  role: "Successfully updated role",
  revoked: "Successfully revoked access",
} as const;

export const REVOKE_TITLE = "Revoke Access";
export const revokeText = (name: string) => `Are you sure you want to remove access for the member or group: ${name}?`;

/** Least to most access; "restricted" is for the default group only (no access). */
export const ROLES = ["viewer", "editor", "admin"] as const;
export const DEFAULT_ACCESS = ["restricted", "viewer", "editor", "admin"] as const;
export const ROLE_LABELS: Record<string, string> = { restricted: "Restricted", viewer: "Viewer", commenter: "Commenter", editor: "Editor", admin: "Admin", owner: "Owner" };

export interface Principal {
  id: string;
  name: string;
  type: "user" | "group" | "key";
  role: string;
  email?: string;
  is_owner: boolean;
  is_self: boolean;
}

export interface SharingData {
  resource_id: string;
  resource_name: string | null;
  default_access: string;
  principals: Principal[];
  share_options: Array<{ id: string; name: string; type: "user" | "group" | "key"; email?: string }>;
  permission_on_resource: string | null;
  /** null when the workspace's groups could not be loaded. */
  groups: Array<{ id: string; name: string }> | null;
}

/** What a share or unshare targets, as the API wants it. */
export function target(p: { id: string; type: "user" | "group" | "key"; email?: string }): Record<string, string> {
  if (p.type === "group") return { group_id: p.id };
  // Service accounts already holding a role are named by their account's address.
  if (p.email) return { user_email: p.email };
  return { workspace_api_key_id: p.id };
}
