import type { Table } from "./table.js";
import { withoutKeys, type Stored } from "./table.js";

export interface OnboardingChecklist {
  checklist_id: string;
  hidden: boolean;
  items: Array<{ onboarding_checklist_item_id: string; is_completed: boolean }>;
}

export interface UserRecord {
  user_id: string;
  email: string;
  first_name: string | null;
  photo_url: string | null;
  password_hash: string;
  created_at: number;
  default_workspace_id: string;
  is_producer: boolean;
  is_onboarding_completed: boolean;
  onboarding_checklist: OnboardingChecklist;
  /** Administers the server (plans, notifications, feedback); also SERVER_ADMIN_EMAILS. */
  is_server_admin?: boolean;
  /** Two-factor authentication (TOTP): the sealed secret and the last step used, when enabled. */
  two_factor?: { secret_sealed: string; enabled_at: number; last_step: number | null } | null;
  /** A secret being set up, until a first code confirms it. */
  two_factor_pending?: string | null;
  /** SHA-256 of each unused backup code. */
  backup_code_hash?: string[];
  /** The S3 key of the profile photo (its id is in photo_url). */
  photo_key?: string | null;
  /** Referral (affiliate) code, once generated. */
  referral_link_code?: string | null;
}

/** Keys of the main table owned by this module. */
const keys = {
  user: (userId: string) => ({ pk: `USER#${userId}`, sk: "PROFILE" }),
  email: (email: string) => ({ pk: `EMAIL#${normaliseEmail(email)}`, sk: "EMAIL" }),
};

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export class Users {
  constructor(private readonly main: Table) {}

  /** Claims the e-mail address; false when another account holds it. */
  async claimEmail(email: string, userId: string): Promise<boolean> {
    return this.main.put({ ...keys.email(email), user_id: userId }, { ifAbsent: true });
  }

  async releaseEmail(email: string, userId: string): Promise<void> {
    await this.main.delete(keys.email(email), { expression: "user_id = :u", values: { ":u": userId } });
  }

  async create(user: UserRecord): Promise<void> {
    await this.main.put({ ...keys.user(user.user_id), ...user }, { ifAbsent: true });
  }

  async get(userId: string): Promise<UserRecord | undefined> {
    const item = await this.main.get<Stored<UserRecord>>(keys.user(userId));
    return item ? (withoutKeys<UserRecord>(item)) : undefined;
  }

  /** Several users by id, in no particular order; missing ids are absent. */
  async many(userIds: string[]): Promise<UserRecord[]> {
    const unique = [...new Set(userIds)];
    if (!unique.length) return [];
    const items = await this.main.batchGet<Stored<UserRecord>>(unique.map(keys.user));
    return items.map((i) => withoutKeys<UserRecord>(i));
  }

  async findByEmail(email: string): Promise<UserRecord | undefined> {
    const lock = await this.main.get<{ user_id: string }>(keys.email(email));
    return lock ? this.get(lock.user_id) : undefined;
  }

  async update(userId: string, patch: Partial<Omit<UserRecord, "user_id" | "email">>): Promise<UserRecord | undefined> {
    const item = await this.main.patch<Stored<UserRecord>>(keys.user(userId), patch);
    return item ? (withoutKeys<UserRecord>(item)) : undefined;
  }
}
