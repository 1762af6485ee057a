import type { Table } from "./table.js";
import { withoutKeys, type Stored } from "./table.js";
import type { SeatType } from "../domain/permissions.js";

/**
 * Workspace invites and the mail outbox. An invite is one item per (workspace, e-mail) plus a
 * pointer from the hash of its link token, so opening a link is one read and a new invite to
 * the same address replaces the old one (whose link then stops working).
 */
export interface InviteRecord {
  workspace_id: string;
  email: string;
  seat_type: SeatType;
  group_ids: string[];
  usage_limit: number | null;
  invited_by: string;
  created_at: number;
  expires_at: number;
  token_hash: string;
}

export interface OutboxMessage {
  message_id: string;
  workspace_id: string;
  to: string;
  subject: string;
  text: string;
  created_at: number;
  /** What happened to it: written only here, or also handed to the SMTP server. */
  delivery: "outbox" | "sent" | "failed";
}

const keys = {
  invite: (ws: string, email: string) => ({ pk: `WS#${ws}`, sk: `INVITE#${email}` }),
  token: (hash: string) => ({ pk: `INVITETOKEN#${hash}`, sk: "INVITE" }),
  outbox: (ws: string, at: number, id: string) => ({ pk: `WS#${ws}`, sk: `OUTBOX#${String(at).padStart(12, "0")}#${id}` }),
};

export class Invites {
  constructor(private readonly main: Table) {}

  /** Writes (or replaces) the invite for its e-mail; the replaced invite's link is removed. */
  async put(i: InviteRecord): Promise<void> {
    const old = await this.get(i.workspace_id, i.email);
    await this.main.put({ ...keys.token(i.token_hash), workspace_id: i.workspace_id, email: i.email, ttl: i.expires_at });
    await this.main.put({ ...keys.invite(i.workspace_id, i.email), ...i, ttl: i.expires_at });
    if (old && old.token_hash !== i.token_hash) await this.main.delete(keys.token(old.token_hash));
  }

  async get(ws: string, email: string): Promise<InviteRecord | undefined> {
    const item = await this.main.get<Stored<InviteRecord>>(keys.invite(ws, email));
    return item ? withoutKeys<InviteRecord>(item) : undefined;
  }

  /** The live invite a link token names (expired ones read as absent: TTL deletion is lazy). */
  async byTokenHash(hash: string, nowUnix: number): Promise<InviteRecord | undefined> {
    const pointer = await this.main.get<{ workspace_id: string; email: string }>(keys.token(hash));
    if (!pointer) return undefined;
    const invite = await this.get(pointer.workspace_id, pointer.email);
    return invite && invite.token_hash === hash && invite.expires_at > nowUnix ? invite : undefined;
  }

  async list(ws: string, nowUnix: number): Promise<InviteRecord[]> {
    const items = await this.main.queryPrefix<Stored<InviteRecord>>(`WS#${ws}`, "INVITE#");
    return items.map((i) => withoutKeys<InviteRecord>(i)).filter((i) => i.expires_at > nowUnix);
  }

  /** Removes an invite and its link; false when there was none. */
  async delete(ws: string, email: string): Promise<boolean> {
    const old = await this.get(ws, email);
    if (!old) return false;
    await this.main.delete(keys.invite(ws, email));
    await this.main.delete(keys.token(old.token_hash));
    return true;
  }

  async putMail(m: OutboxMessage): Promise<void> {
    // Outbox mail is kept for 30 days.
    await this.main.put({ ...keys.outbox(m.workspace_id, m.created_at, m.message_id), ...m, ttl: m.created_at + 30 * 86_400 });
  }

  /** The workspace's outbox, newest first. */
  async outbox(ws: string, limit = 50): Promise<OutboxMessage[]> {
    const items = await this.main.queryPrefix<Stored<OutboxMessage>>(`WS#${ws}`, "OUTBOX#", { newestFirst: true, limit });
    return items.map((i) => withoutKeys<OutboxMessage>(i));
  }
}
