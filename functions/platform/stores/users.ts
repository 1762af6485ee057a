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
  /** What the user said they do (app-shell.md: onboarding_survey{role, subrole}); notifications may be for some personas only. */
  onboarding_survey?: { role: string; subrole: string | null } | null;
  /** Producer Mode settings: the languages the producer reviews (empty: every language). */
  producer_languages?: string[];
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

  /**
   * Records that a TOTP time step was used, only when it is later than the last one used with the
   * same secret: of several sign-ins sending the same code at once, exactly one gets true.
   */
  async useTotpStep(userId: string, secretSealed: string, step: number): Promise<boolean> {
    const done = await this.main.update(keys.user(userId), {
      UpdateExpression: "SET #tf.#last = :step",
      ConditionExpression: "#tf.#secret = :secret AND (attribute_not_exists(#tf.#last) OR attribute_type(#tf.#last, :null) OR #tf.#last < :step)",
      ExpressionAttributeNames: { "#tf": "two_factor", "#last": "last_step", "#secret": "secret_sealed" },
      ExpressionAttributeValues: { ":step": step, ":secret": secretSealed, ":null": "NULL" },
    });
    return done !== undefined;
  }

  /**
   * Removes one backup code's hash, only if it is still where it was read (a conditional write):
   * of requests using the same code at once, exactly one gets true, and codes used in parallel
   * all disappear (a removal that lost a race reads the list again).
   */
  async useBackupCode(userId: string, hash: string, matches: (stored: string) => boolean): Promise<boolean> {
    // Each lost race means another code left the list, so this ends within its length.
    for (let attempt = 0; attempt < 64; attempt++) {
      const user = await this.get(userId);
      const index = (user?.backup_code_hash ?? []).findIndex(matches);
      if (index < 0) return false;
      const done = await this.main.update(keys.user(userId), {
        UpdateExpression: `REMOVE #codes[${index}]`,
        ConditionExpression: `#codes[${index}] = :hash`,
        ExpressionAttributeNames: { "#codes": "backup_code_hash" },
        ExpressionAttributeValues: { ":hash": hash },
      });
      if (done) return true;
    }
    return false;
  }

  async update(userId: string, patch: Partial<Omit<UserRecord, "user_id" | "email">>): Promise<UserRecord | undefined> {
    const item = await this.main.patch<Stored<UserRecord>>(keys.user(userId), patch);
    return item ? (withoutKeys<UserRecord>(item)) : undefined;
  }
}
