import type { AppContext } from "../context.js";
import type { UserRecord } from "../stores/users.js";
import type { GroupRecord, MemberRecord, WorkspaceRecord } from "../stores/workspaces.js";
import { ApiError } from "../http/errors.js";
import { effectivePermissions, permissionDeniedMessage, type PermissionId } from "./permissions.js";
import { resolveFlags, type FlagName, type Flags } from "./flags.js";
import { TIERS, type Tier } from "./tiers.js";

export interface Principal {
  userId: string;
  workspaceId: string;
  via: "api_key" | "session";
  apiKeyPrefix?: string;
  apiKeyId?: string;
  /** The API key's own credit limit per period (service-account keys), when it has one. */
  apiKeyCharacterLimit?: number | null;
  /** What the API key may do ("all", or a list of permission ids); absent for sessions. */
  keyPermissions?: "all" | string[];
  sessionHash?: string;
}

/**
 * The authenticated caller, with its user, workspace, membership and permissions loaded on
 * first use. Every query a handler makes is scoped by `caller.workspaceId`.
 */
export class Caller {
  private cache = new Map<string, Promise<unknown>>();
  constructor(
    readonly ctx: AppContext,
    readonly principal: Principal,
  ) {}

  get userId() {
    return this.principal.userId;
  }
  get workspaceId() {
    return this.principal.workspaceId;
  }

  private once<T>(key: string, load: () => Promise<T>): Promise<T> {
    let p = this.cache.get(key) as Promise<T> | undefined;
    if (!p) {
      p = load();
      this.cache.set(key, p);
    }
    return p;
  }

  user(): Promise<UserRecord> {
    return this.once("user", async () => {
      const u = await this.ctx.stores.users.get(this.userId);
      if (!u) throw new ApiError(401, "invalid_api_key", "The account for these credentials no longer exists.");
      return u;
    });
  }

  workspace(): Promise<WorkspaceRecord> {
    return this.once("workspace", async () => {
      const w = await this.ctx.stores.workspaces.get(this.workspaceId);
      if (!w) throw new ApiError(401, "invalid_api_key", "The workspace for these credentials no longer exists.");
      return w;
    });
  }

  member(): Promise<MemberRecord> {
    return this.once("member", async () => {
      const m = await this.ctx.stores.workspaces.member(this.workspaceId, this.userId);
      if (!m) throw new ApiError(401, "invalid_api_key", "You are no longer a member of this workspace.");
      if (m.is_locked) throw new ApiError(403, "account_locked", "Your account is locked in this workspace. Please contact your workspace administrator.");
      return m;
    });
  }

  groups(): Promise<GroupRecord[]> {
    return this.once("groups", () => this.ctx.stores.workspaces.groups(this.workspaceId));
  }

  async tier(): Promise<Tier> {
    return TIERS[(await this.workspace()).tier];
  }

  async isAdmin(): Promise<boolean> {
    return (await this.member()).seat_type === "workspace_admin";
  }

  async permissions(): Promise<Set<PermissionId>> {
    const [member, groups] = await Promise.all([this.member(), this.groups()]);
    const held = effectivePermissions(this.userId, member.seat_type, groups);
    // A service account's key may be narrowed to some permissions: it holds no more than those.
    const scope = this.principal.keyPermissions;
    if (scope && scope !== "all") for (const p of [...held]) if (!scope.includes(p)) held.delete(p);
    return held;
  }

  /** Administers the server (not just a workspace): SERVER_ADMIN_EMAILS or the user's flag. */
  async isServerAdmin(): Promise<boolean> {
    const u = await this.user();
    return u.is_server_admin === true || this.ctx.config.serverAdminEmails.includes(u.email.toLowerCase());
  }

  async requireServerAdmin(): Promise<void> {
    if (!(await this.isServerAdmin())) throw new ApiError(403, "server_admin_required", "Only administrators of this server can do this.");
  }

  /** Throws 403 with the spec's message when the caller lacks `permission`. */
  async require(permission: PermissionId): Promise<void> {
    if (!(await this.permissions()).has(permission)) {
      throw new ApiError(403, "missing_permissions", permissionDeniedMessage(permission));
    }
  }

  async requireAdmin(): Promise<void> {
    if (!(await this.isAdmin())) throw new ApiError(403, "workspace_admin_required", "Only workspace administrators can do this.");
  }

  async flags(): Promise<Flags> {
    return resolveFlags(this.ctx.config.featureFlags, (await this.workspace()).flags);
  }

  async flag(name: FlagName): Promise<boolean> {
    return (await this.flags())[name];
  }
}
