import { z } from "zod";
import type { ApiClient } from "../../lib/api.server.js";
import { OkWire } from "../../lib/api.server.js";

const SeatType = z.enum(["workspace_admin", "workspace_member", "workspace_lite_member"]);
export const MemberWire = z.object({ user_id: z.string(), email: z.string(), first_name: z.string().nullable(), seat_type: SeatType, is_owner: z.boolean(), is_locked: z.boolean() });
export const GroupWire = z.object({ id: z.string(), name: z.string(), members: z.array(z.string()), member_user_ids: z.array(z.string()), permissions: z.array(z.string()), is_everyone: z.boolean() });
const InvitesWire = z.object({
  invites: z.array(z.object({ email: z.string(), seat_type: SeatType, created_at_unix: z.number(), expires_at_unix: z.number() })),
  seats: z.object({ used: z.number(), max: z.number(), members: z.number(), invites: z.number() }),
});
const OutboxWire = z.object({ messages: z.array(z.object({ message_id: z.string(), to: z.string(), subject: z.string(), text: z.string(), created_at_unix: z.number(), delivery: z.string() })) });
const ServiceAccountsWire = z.object({
  "service-accounts": z.array(z.object({ service_account_user_id: z.string(), name: z.string(), "api-keys": z.array(z.object({ key_id: z.string(), name: z.string(), hint: z.string(), is_disabled: z.boolean().nullish() })) })),
});
const InvitedWire = z.object({ status: z.string(), invites: z.array(z.object({ email: z.string(), invite_url: z.string(), email_delivery: z.string() })) });

export type Member = z.infer<typeof MemberWire>;
export type Group = z.infer<typeof GroupWire>;

/** The Workspace settings page's /v1 calls (contract §11 and Timbre's group and invite extensions). */
export function workspaceAdmin(client: ApiClient) {
  const ok = (path: string, method: "POST" | "PATCH" | "DELETE", body?: unknown) => client.call(path, { method, body, schema: OkWire });
  return {
    async load() {
      const [members, groups, invites, outbox, serviceAccounts, workspace] = await Promise.all([
        client.call("/v1/workspace/members", { schema: z.array(MemberWire) }),
        client.call("/v1/workspace/groups", { schema: z.record(GroupWire) }),
        client.call("/v1/workspace/invites", { schema: InvitesWire }),
        client.call("/v1/workspace/outbox", { schema: OutboxWire }),
        client.call("/v1/service-accounts", { schema: ServiceAccountsWire }),
        client.call("/v1/workspace", { schema: z.object({ training_opt_out: z.boolean().optional(), storing_shared_files_on_user: z.boolean().optional() }) }),
      ]);
      return {
        members,
        groups: Object.values(groups),
        invites: invites.invites,
        seats: invites.seats,
        outbox: outbox.messages,
        serviceAccounts: serviceAccounts["service-accounts"],
        trainingOptOut: workspace.training_opt_out === true,
        editorsShare: workspace.storing_shared_files_on_user === true,
      };
    },
    invite: (emails: string[], seatType: string, groupIds: string[]) =>
      client.call("/v1/workspace/invites/add-bulk", { method: "POST", body: { emails, seat_type: seatType, group_ids: groupIds }, schema: InvitedWire }),
    setTrainingOptOut: (on: boolean) => ok("/v1/workspace", "PATCH", { training_opt_out: on }),
    setEditorsShare: (on: boolean) => ok("/v1/workspace", "PATCH", { storing_shared_files_on_user: on }),
    revokeInvite: (email: string) => ok("/v1/workspace/invites", "DELETE", { email }),
    updateMember: (email: string, fields: { workspace_seat_type?: string; is_locked?: boolean }) => ok("/v1/workspace/members", "POST", { email, ...fields }),
    createGroup: (name: string) => client.call("/v1/workspace/groups", { method: "POST", body: { name }, schema: GroupWire }),
    deleteGroup: (id: string) => ok(`/v1/workspace/groups/${encodeURIComponent(id)}`, "DELETE"),
    setPermissions: (id: string, permissions: string[]) => client.call(`/v1/workspace/groups/${encodeURIComponent(id)}`, { method: "PATCH", body: { permissions }, schema: GroupWire }),
    addToGroup: (id: string, email: string) => ok(`/v1/workspace/groups/${encodeURIComponent(id)}/members`, "POST", { email }),
    removeFromGroup: (id: string, email: string) => ok(`/v1/workspace/groups/${encodeURIComponent(id)}/members/remove`, "POST", { email }),
    createServiceAccount: (name: string) => client.call("/v1/service-accounts", { method: "POST", body: { name }, schema: z.object({ "service-account-user-id": z.string() }) }),
    createServiceKey: (id: string, name: string) =>
      client.call(`/v1/service-accounts/${encodeURIComponent(id)}/api-keys`, { method: "POST", body: { name, permissions: "all" }, schema: z.object({ "xi-api-key": z.string(), key_id: z.string() }) }),
  };
}
