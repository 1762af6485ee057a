import type { Table } from "./table.js";
import { withoutKeys, type Stored } from "./table.js";
import type { PermissionId, SeatType } from "../domain/permissions.js";
import type { TierId } from "../domain/tiers.js";
import { CREDENTIALS_TTL_MS } from "./credentials.js";
import { RecentRecords } from "./recent.js";

export interface PronunciationDictionaryLocator {
  pronunciation_dictionary_id: string;
  version_id: string | null;
}

export type SubscriptionStatus = "trialing" | "active" | "incomplete" | "past_due" | "free" | "free_disabled";

export interface WorkspaceRecord {
  workspace_id: string;
  name: string;
  owner_user_id: string;
  tier: TierId;
  status: SubscriptionStatus;
  created_at: number;
  /** Per-workspace feature flag overrides. */
  flags: Record<string, boolean>;
  /** model_id -> character cost multiplier that overrides the model's. */
  custom_model_rates: Record<string, number>;
  pronunciation_dictionary_locators: PronunciationDictionaryLocator[];
  storing_shared_files_on_user: boolean;
  /** Generation history is off for everyone (zero-retention mode). */
  force_logging_disabled: boolean;
  /**
   * The workspace opted out of training use: its professional clones' samples train that voice and
   * nothing else (Voice Data says so under the samples). Absent on older records: false.
   */
  training_opt_out?: boolean;
}

export interface MemberRecord {
  workspace_id: string;
  user_id: string;
  email: string;
  seat_type: SeatType;
  joined_at: number;
  /** A locked member cannot use the workspace (members.update is_locked). */
  is_locked?: boolean;
  /** A service account: a non-human member that owns API keys; not listed among members. */
  service_account?: { name: string; created_by: string } | null;
  /** Credits this member may use per period (from the invite's usage_limit); absent or null: no cap. */
  usage_limit?: number | null;
}

export interface GroupRecord {
  workspace_id: string;
  group_id: string;
  name: string;
  permissions: PermissionId[];
  member_user_ids: string[];
  created_at: number;
}

const memberKey = (workspaceId: string, userId: string) => `${workspaceId}#${userId}`;

const keys = {
  workspace: (ws: string) => ({ pk: `WS#${ws}`, sk: "WORKSPACE" }),
  member: (ws: string, userId: string) => ({ pk: `WS#${ws}`, sk: `MEMBER#${userId}` }),
  /** GSI1: the workspaces a user belongs to. */
  memberIndex: (ws: string, userId: string) => ({ gsi1pk: `USER#${userId}#WORKSPACES`, gsi1sk: `WS#${ws}` }),
  group: (ws: string, groupId: string) => ({ pk: `WS#${ws}`, sk: `GROUP#${groupId}` }),
};


/**
 * A workspace, its members and its groups are read by every request (the plan, the permission
 * check): a process keeps what it read for CREDENTIALS_TTL_MS (RecentRecords), and forgets it
 * whenever it writes through this store, so in one process a plan change, a removed or locked
 * member, or a group's new permissions count at once; another process within the time to live.
 * Only this store writes these records. docs/decisions/2026-12-07-cheap-refusals.md
 */
export class Workspaces {
  private readonly recentWorkspaces: RecentRecords<WorkspaceRecord>;
  private readonly recentMembers: RecentRecords<MemberRecord>;
  private readonly recentGroups: RecentRecords<GroupRecord[]>;

  constructor(
    private readonly main: Table,
    ttlMs = CREDENTIALS_TTL_MS,
  ) {
    this.recentWorkspaces = new RecentRecords(ttlMs);
    this.recentMembers = new RecentRecords(ttlMs);
    this.recentGroups = new RecentRecords(ttlMs);
  }

  /** Runs a write, then forgets what it changes (after it: a read begun before must not keep the old record). */
  private async writing<T>(write: () => Promise<T>, forget: { workspace?: string; member?: [string, string]; groups?: string }): Promise<T> {
    try {
      return await write();
    } finally {
      if (forget.workspace !== undefined) this.recentWorkspaces.forget(forget.workspace);
      if (forget.member) this.recentMembers.forget(memberKey(...forget.member));
      if (forget.groups !== undefined) this.recentGroups.forget(forget.groups);
    }
  }

  async create(ws: WorkspaceRecord): Promise<void> {
    await this.writing(() => this.main.put({ ...keys.workspace(ws.workspace_id), ...ws }, { ifAbsent: true }), { workspace: ws.workspace_id });
  }

  /** The workspace (read again at most every CREDENTIALS_TTL_MS); a copy, the caller may change it. */
  async get(workspaceId: string): Promise<WorkspaceRecord | undefined> {
    const w = await this.recentWorkspaces.get(workspaceId, async () => {
      const item = await this.main.get<Stored<WorkspaceRecord>>(keys.workspace(workspaceId));
      return item ? withoutKeys<WorkspaceRecord>(item) : undefined;
    });
    return w && structuredClone(w);
  }

  async update(workspaceId: string, patch: Partial<Omit<WorkspaceRecord, "workspace_id">>): Promise<WorkspaceRecord | undefined> {
    const item = await this.writing(() => this.main.patch<Stored<WorkspaceRecord>>(keys.workspace(workspaceId), patch), { workspace: workspaceId });
    return item ? (withoutKeys<WorkspaceRecord>(item)) : undefined;
  }

  async addMember(m: MemberRecord): Promise<void> {
    await this.writing(() => this.main.put({ ...keys.member(m.workspace_id, m.user_id), ...keys.memberIndex(m.workspace_id, m.user_id), ...m }), { member: [m.workspace_id, m.user_id] });
  }

  /** The member (read again at most every CREDENTIALS_TTL_MS); a copy, the caller may change it. */
  async member(workspaceId: string, userId: string): Promise<MemberRecord | undefined> {
    const m = await this.recentMembers.get(memberKey(workspaceId, userId), async () => {
      const item = await this.main.get<Stored<MemberRecord>>(keys.member(workspaceId, userId));
      return item ? withoutKeys<MemberRecord>(item) : undefined;
    });
    return m && structuredClone(m);
  }

  async members(workspaceId: string): Promise<MemberRecord[]> {
    const items = await this.main.queryPrefix<Stored<MemberRecord>>(`WS#${workspaceId}`, "MEMBER#");
    return items.map((i) => withoutKeys<MemberRecord>(i));
  }

  async workspacesOf(userId: string): Promise<string[]> {
    const items = await this.main.queryPrefix<Stored<MemberRecord>>(`USER#${userId}#WORKSPACES`, "WS#", { index: "gsi1" });
    return items.map((i) => i.workspace_id);
  }

  async patchMember(workspaceId: string, userId: string, patch: Partial<Pick<MemberRecord, "seat_type" | "is_locked" | "email" | "usage_limit">>): Promise<MemberRecord | undefined> {
    const item = await this.writing(() => this.main.patch<Stored<MemberRecord>>(keys.member(workspaceId, userId), patch), { member: [workspaceId, userId] });
    return item ? withoutKeys<MemberRecord>(item) : undefined;
  }

  async removeMember(workspaceId: string, userId: string): Promise<void> {
    await this.writing(() => this.main.delete(keys.member(workspaceId, userId)), { member: [workspaceId, userId] });
  }

  async putGroup(g: GroupRecord): Promise<void> {
    await this.writing(() => this.main.put({ ...keys.group(g.workspace_id, g.group_id), ...g }), { groups: g.workspace_id });
  }

  /** Creates a group; false when the id is taken. */
  async createGroup(g: GroupRecord): Promise<boolean> {
    return this.writing(() => this.main.put({ ...keys.group(g.workspace_id, g.group_id), ...g }, { ifAbsent: true }), { groups: g.workspace_id });
  }

  async group(workspaceId: string, groupId: string): Promise<GroupRecord | undefined> {
    const item = await this.main.get<Stored<GroupRecord>>(keys.group(workspaceId, groupId));
    return item ? withoutKeys<GroupRecord>(item) : undefined;
  }

  async patchGroup(workspaceId: string, groupId: string, patch: Partial<Pick<GroupRecord, "name" | "permissions" | "member_user_ids">>): Promise<GroupRecord | undefined> {
    const item = await this.writing(() => this.main.patch<Stored<GroupRecord>>(keys.group(workspaceId, groupId), patch), { groups: workspaceId });
    return item ? withoutKeys<GroupRecord>(item) : undefined;
  }

  /** Adds or removes one member of a group in one atomic update (no lost concurrent changes). */
  async setGroupMember(workspaceId: string, groupId: string, userId: string, member: boolean): Promise<GroupRecord | undefined> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const g = await this.group(workspaceId, groupId);
      if (!g) return undefined;
      const has = g.member_user_ids.includes(userId);
      if (has === member) return g;
      const next = member ? [...g.member_user_ids, userId] : g.member_user_ids.filter((u) => u !== userId);
      const version = (g as GroupRecord & { version?: number }).version ?? 0;
      const item = await this.writing(
        () =>
          this.main.update<Stored<GroupRecord>>(keys.group(workspaceId, groupId), {
            UpdateExpression: "SET member_user_ids = :next, version = :v1",
            ConditionExpression: "attribute_exists(pk) AND (attribute_not_exists(version) OR version = :v)",
            ExpressionAttributeValues: { ":next": next, ":v": version, ":v1": version + 1 },
          }),
        { groups: workspaceId },
      );
      if (item) return withoutKeys<GroupRecord>(item);
    }
    throw new Error("group membership kept changing");
  }

  async deleteGroup(workspaceId: string, groupId: string): Promise<void> {
    await this.writing(() => this.main.delete(keys.group(workspaceId, groupId)), { groups: workspaceId });
  }

  /** The workspace's groups (read again at most every CREDENTIALS_TTL_MS); copies, the caller may change them. */
  async groups(workspaceId: string): Promise<GroupRecord[]> {
    const groups = await this.recentGroups.get(workspaceId, async () => {
      const items = await this.main.queryPrefix<Stored<GroupRecord>>(`WS#${workspaceId}`, "GROUP#");
      return items.map((i) => withoutKeys<GroupRecord>(i));
    });
    return structuredClone(groups ?? []);
  }
}
