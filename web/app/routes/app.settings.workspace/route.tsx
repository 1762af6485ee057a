import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useId } from "react";
import { z } from "zod";
import { FEATURE_NAMES, PERMISSION_IDS, type PermissionId } from "../../../../functions/platform/domain/permissions.js";
import { workspaceMessages } from "../../../../functions/platform/contract/workspace.js";
import { CopyButton } from "../../components/CopyButton.js";
import { CsrfInput } from "../../components/Csrf.js";
import { FormError } from "../../components/Field.js";
import { Page } from "../../components/Page.js";
import { useToast } from "../../components/ui/Toast.js";
import { formatDate, formatDateTimeFull } from "../../lib/format.js";
import { getShell } from "../../lib/shell.server.js";
import { useShell } from "../../lib/shell.js";
import { refusal, v1, v1Form, type ActionFailure } from "../../lib/v1.server.js";
import { workspaceAdmin, type Group, type Member } from "./workspace.server.js";
import { TrainingSettings } from "./TrainingSettings.js";
import { SharingSettings } from "./SharingSettings.js";

export const meta: MetaFunction = () => [{ title: "Workspace settings · Timbre" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { shell } = await getShell(request, context);
  if (!shell.workspace.isAdmin) throw data({ message: "Only workspace administrators can open workspace settings." }, { status: 403 });
  const { client } = await v1(request, context);
  return workspaceAdmin(client).load();
}

type ActionResult =
  | ActionFailure
  | { ok: true; intent: "invite"; invites: Array<{ email: string; invite_url: string; email_delivery: string }> }
  | { ok: true; intent: "create-sa-key"; key: string; account: string }
  | { ok: true; intent: string; message: string };

const EmailList = z
  .string()
  .transform((s) => s.split(/[\s,;]+/).map((e) => e.trim()).filter(Boolean))
  .pipe(z.array(z.string().email("Enter valid email addresses, separated by commas.")).min(1, "Enter at least one email address.").max(50));

export async function action({ request, context }: ActionFunctionArgs) {
  const { client, form } = await v1Form(request, context);
  const admin = workspaceAdmin(client);
  const intent = String(form.get("intent") ?? "");
  const text = (name: string) => String(form.get(name) ?? "").trim();
  try {
    switch (intent) {
      case "invite": {
        const emails = EmailList.safeParse(text("emails"));
        if (!emails.success) return data<ActionFailure>({ ok: false, intent, error: emails.error.issues[0].message, fields: { emails: emails.error.issues[0].message } }, { status: 400 });
        const seat = text("seat_type") === "workspace_admin" ? "workspace_admin" : "workspace_member";
        const r = await admin.invite(emails.data, seat, form.getAll("group_ids").map(String));
        return { ok: true, intent, invites: r.invites } satisfies ActionResult;
      }
      case "revoke-invite":
        await admin.revokeInvite(text("email"));
        return { ok: true, intent, message: `The invite for ${text("email")} was revoked.` } satisfies ActionResult;
      case "member-role":
        await admin.updateMember(text("email"), { workspace_seat_type: text("seat_type") });
        return { ok: true, intent, message: `${text("email")} is now ${text("seat_type") === "workspace_admin" ? "an admin" : "a member"}.` } satisfies ActionResult;
      case "member-lock": {
        const lock = text("lock") === "true";
        await admin.updateMember(text("email"), { is_locked: lock });
        return { ok: true, intent, message: `${text("email")} was ${lock ? "locked" : "unlocked"}.` } satisfies ActionResult;
      }
      case "create-group": {
        const name = text("name");
        if (!name) return data<ActionFailure>({ ok: false, intent, error: "Group name is required", fields: { name: "Group name is required" } }, { status: 400 });
        await admin.createGroup(name);
        return { ok: true, intent, message: `Group “${name}” created.` } satisfies ActionResult;
      }
      case "delete-group":
        await admin.deleteGroup(text("group_id"));
        return { ok: true, intent, message: "Group deleted." } satisfies ActionResult;
      case "permissions":
        await admin.setPermissions(text("group_id"), form.getAll("permission").map(String));
        return { ok: true, intent, message: "Permissions saved." } satisfies ActionResult;
      case "group-add":
        await admin.addToGroup(text("group_id"), text("email"));
        return { ok: true, intent, message: `${text("email")} added to the group.` } satisfies ActionResult;
      case "group-remove":
        await admin.removeFromGroup(text("group_id"), text("email"));
        return { ok: true, intent, message: `${text("email")} removed from the group.` } satisfies ActionResult;
      case "create-sa": {
        const name = text("name");
        if (!name) return data<ActionFailure>({ ok: false, intent, error: "Name is required", fields: { name: "Name is required" } }, { status: 400 });
        await admin.createServiceAccount(name);
        return { ok: true, intent, message: `Service account “${name}” created.` } satisfies ActionResult;
      }
      case "create-sa-key": {
        const r = await admin.createServiceKey(text("service_account_id"), text("name") || "Key");
        return { ok: true, intent, key: r["xi-api-key"], account: text("account_name") } satisfies ActionResult;
      }
      case "training": {
        const on = form.get("training_opt_out") === "on";
        await admin.setTrainingOptOut(on);
        return { ok: true, intent, message: on ? "This workspace opted out of training use." : "Training use is back to the default." } satisfies ActionResult;
      }
      case "sharing": {
        const on = form.get("storing_shared_files_on_user") === "on";
        await admin.setEditorsShare(on);
        return { ok: true, intent, message: on ? "Editors can now share pronunciation dictionaries." : "Only owners and admins share pronunciation dictionaries now." } satisfies ActionResult;
      }
      default:
        return data<ActionFailure>({ ok: false, intent, error: "Unknown action." }, { status: 400 });
    }
  } catch (e) {
    return refusal(e, intent);
  }
}

const display = (m: Pick<Member, "first_name" | "email">) => m.first_name ?? m.email;
/** The feature's name as a label ("The Voice Library", "Publishing Studio projects"). */
const permissionLabel = (p: PermissionId) => FEATURE_NAMES[p].charAt(0).toUpperCase() + FEATURE_NAMES[p].slice(1);

function Seats({ seats }: { seats: { used: number; max: number; members: number; invites: number } }) {
  return (
    <p className="seats" aria-live="polite">
      <strong>
        {seats.used} of {seats.max}
      </strong>{" "}
      {seats.max === 1 ? "seat" : "seats"} used: {seats.members} {seats.members === 1 ? "member" : "members"}, {seats.invites} pending {seats.invites === 1 ? "invite" : "invites"}.
    </p>
  );
}

function InviteForm({ groups, result, full }: { groups: Group[]; result: ActionResult | undefined; full: string | null }) {
  const busy = useNavigation().formData?.get("intent") === "invite";
  const failure = result && !result.ok && result.intent === "invite" ? result : undefined;
  const custom = groups.filter((g) => !g.is_everyone);
  return (
    <Form method="post" className="stack-form" noValidate>
      <CsrfInput />
      <input type="hidden" name="intent" value="invite" />
      <div className="field">
        <label htmlFor="invite-emails">Email addresses</label>
        <input id="invite-emails" name="emails" type="text" placeholder="ana@example.com, ben@example.com" aria-invalid={failure?.fields?.emails ? true : undefined} aria-describedby="invite-emails-hint" />
        <p className="field-hint" id="invite-emails-hint">
          Separate several addresses with commas. Each gets a link to sign up and join, or to join with the account they have.
        </p>
      </div>
      <div className="field">
        <label htmlFor="invite-role">Role</label>
        <select id="invite-role" name="seat_type" defaultValue="workspace_member">
          <option value="workspace_member">Member</option>
          <option value="workspace_admin">Admin</option>
        </select>
      </div>
      {custom.length > 0 && (
        <fieldset className="checks">
          <legend>Groups</legend>
          {custom.map((g) => (
            <label key={g.id} className="check">
              <input type="checkbox" name="group_ids" value={g.id} /> {g.name}
            </label>
          ))}
        </fieldset>
      )}
      {/* Every seat is used: said here, before anyone types addresses (issue 28). */}
      {full && (
        <p className="field-hint" id="invite-seats-full" role="status">
          {full}
        </p>
      )}
      <button type="submit" className="button button-primary" disabled={busy || full !== null} aria-describedby={full ? "invite-seats-full" : undefined}>
        {busy ? "Inviting…" : "Send invites"}
      </button>
      <FormError id="invite-error" message={failure?.error} />
    </Form>
  );
}

function InviteLinks({ invites }: { invites: Array<{ email: string; invite_url: string; email_delivery: string }> }) {
  return (
    <section className="card new-key" aria-labelledby="links-title">
      <h2 id="links-title">Invite links</h2>
      <p className="muted">Send each person their link (it works for 7 days). {invites.some((i) => i.email_delivery === "sent") ? "The links were also mailed." : "No mail server is configured, so nothing was mailed."}</p>
      <ul className="plain-list invite-links">
        {invites.map((i) => (
          <li key={i.email}>
            <span className="invite-email">{i.email}</span>
            <div className="secret-row">
              <code className="secret" data-testid="invite-url">
                {i.invite_url}
              </code>
              <CopyButton value={i.invite_url} label="Copy link" />
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function MemberRow({ m, me }: { m: Member; me: string }) {
  const self = m.user_id === me;
  return (
    <tr>
      <td data-label="Member">
        <span className="member-name">{display(m)}</span> {m.is_owner && <span className="badge badge-accent">Owner</span>} {m.is_locked && <span className="badge">Locked</span>}
        {m.first_name && (
          <>
            <br />
            <span className="muted small">{m.email}</span>
          </>
        )}
      </td>
      <td data-label="Role">
        {m.is_owner ? (
          "Admin"
        ) : (
          <Form method="post" className="row-form">
            <CsrfInput />
            <input type="hidden" name="intent" value="member-role" />
            <input type="hidden" name="email" value={m.email} />
            <label className="visually-hidden" htmlFor={`role-${m.user_id}`}>
              Role of {display(m)}
            </label>
            <select id={`role-${m.user_id}`} name="seat_type" defaultValue={m.seat_type === "workspace_admin" ? "workspace_admin" : "workspace_member"}>
              <option value="workspace_member">Member</option>
              <option value="workspace_admin">Admin</option>
            </select>
            <button type="submit" className="button button-small">
              Save
            </button>
          </Form>
        )}
      </td>
      <td className="table-actions">
        {!m.is_owner && !self && (
          <Form method="post">
            <CsrfInput />
            <input type="hidden" name="intent" value="member-lock" />
            <input type="hidden" name="email" value={m.email} />
            <input type="hidden" name="lock" value={String(!m.is_locked)} />
            <button type="submit" className={`button button-small ${m.is_locked ? "" : "button-danger-outline"}`} aria-label={`${m.is_locked ? "Unlock" : "Lock"} ${display(m)}`}>
              {m.is_locked ? "Unlock" : "Lock"}
            </button>
          </Form>
        )}
      </td>
    </tr>
  );
}

/** Permission toggles of one group; a custom group cannot enable what Everyone grants (speech-generation.md §6). */
function PermissionsForm({ group, everyone }: { group: Group; everyone: Group | undefined }) {
  const hintId = useId();
  return (
    <Form method="post" className="permissions-form">
      <CsrfInput />
      <input type="hidden" name="intent" value="permissions" />
      <input type="hidden" name="group_id" value={group.id} />
      <fieldset>
        <legend>Permissions of {group.name}</legend>
        <p className="muted small" id={hintId}>
          {group.is_everyone ? "What every member of the workspace may use. Admins may use everything." : "What this group's members may use beyond what Everyone may."}
        </p>
        <ul className="permission-list">
          {PERMISSION_IDS.map((p: PermissionId) => {
            const locked = !group.is_everyone && (everyone?.permissions.includes(p) ?? false);
            const id = `${group.id}-${p}`;
            return (
              <li key={p}>
                <label className="check" htmlFor={id}>
                  <input id={id} type="checkbox" name="permission" value={p} defaultChecked={group.permissions.includes(p)} disabled={locked} aria-describedby={locked ? `${id}-why` : undefined} />
                  <span>{permissionLabel(p)}</span>
                  <span className="muted small">{group.permissions.includes(p) || locked ? "Has access" : "No access"}</span>
                </label>
                {locked && (
                  <span className="permission-why small" id={`${id}-why`}>
                    {workspaceMessages.disableInEveryoneFirst}
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      </fieldset>
      <button type="submit" className="button button-small">
        Save permissions
      </button>
    </Form>
  );
}

function GroupCard({ group, everyone, members }: { group: Group; everyone: Group | undefined; members: Member[] }) {
  const outside = members.filter((m) => !group.member_user_ids.includes(m.user_id));
  return (
    <section className="card group-card" aria-labelledby={`group-${group.id}`}>
      <div className="card-header">
        <h3 id={`group-${group.id}`}>
          {group.name} <span className="muted small">({group.members.length} {group.members.length === 1 ? "member" : "members"})</span>
        </h3>
        {!group.is_everyone && (
          <Form method="post">
            <CsrfInput />
            <input type="hidden" name="intent" value="delete-group" />
            <input type="hidden" name="group_id" value={group.id} />
            <button type="submit" className="button button-small button-danger-outline" aria-label={`Delete group ${group.name}`}>
              Delete
            </button>
          </Form>
        )}
      </div>
      {!group.is_everyone && (
        <>
          <ul className="plain-list chips">
            {members
              .filter((m) => group.member_user_ids.includes(m.user_id))
              .map((m) => (
                <li key={m.user_id} className="chip">
                  {display(m)}
                  <Form method="post">
                    <CsrfInput />
                    <input type="hidden" name="intent" value="group-remove" />
                    <input type="hidden" name="group_id" value={group.id} />
                    <input type="hidden" name="email" value={m.email} />
                    <button type="submit" className="chip-remove" aria-label={`Remove ${display(m)} from ${group.name}`}>
                      ×
                    </button>
                  </Form>
                </li>
              ))}
          </ul>
          {outside.length > 0 && (
            <Form method="post" className="row-form">
              <CsrfInput />
              <input type="hidden" name="intent" value="group-add" />
              <input type="hidden" name="group_id" value={group.id} />
              <label className="visually-hidden" htmlFor={`add-${group.id}`}>
                Member to add to {group.name}
              </label>
              <select id={`add-${group.id}`} name="email">
                {outside.map((m) => (
                  <option key={m.user_id} value={m.email}>
                    {display(m)}
                  </option>
                ))}
              </select>
              <button type="submit" className="button button-small">
                Add to group
              </button>
            </Form>
          )}
        </>
      )}
      <PermissionsForm group={group} everyone={everyone} />
    </section>
  );
}

export default function WorkspaceSettings() {
  const { members, groups, invites, seats, outbox, serviceAccounts, trainingOptOut, editorsShare } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const toast = useToast();
  const me = useShell()?.user.id ?? "";
  const everyone = groups.find((g) => g.is_everyone);
  const custom = groups.filter((g) => !g.is_everyone).sort((a, b) => a.name.localeCompare(b.name));

  useEffect(() => {
    if (!result) return;
    if (result.ok && "message" in result) toast.show({ message: result.message, kind: "success" });
    else if (!result.ok && result.intent !== "invite") toast.show({ message: result.error, kind: "error" });
  }, [result, toast]);

  return (
    <Page title="Workspace settings" description="Members, invites, groups and what each group may use.">
      <section className="card" aria-labelledby="invite-title">
        <div className="card-header">
          <h2 id="invite-title">Invite people</h2>
        </div>
        <Seats seats={seats} />
        <InviteForm groups={groups} result={result} full={seats.used >= seats.max ? workspaceMessages.seatLimitReached(seats.max) : null} />
      </section>
      {result?.ok && result.intent === "invite" && "invites" in result && <InviteLinks invites={result.invites} />}

      {invites.length > 0 && (
        <section aria-labelledby="pending-title">
          <h2 id="pending-title">Pending invites</h2>
          <table className="table table-responsive">
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Expires</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {invites.map((i) => (
                <tr key={i.email}>
                  <td data-label="Email">{i.email}</td>
                  <td data-label="Role">{i.seat_type === "workspace_admin" ? "Admin" : "Member"}</td>
                  <td data-label="Expires">
                    <time dateTime={new Date(i.expires_at_unix * 1000).toISOString()} title={formatDateTimeFull(i.expires_at_unix)}>
                      {formatDate(i.expires_at_unix)}
                    </time>
                  </td>
                  <td className="table-actions">
                    <Form method="post">
                      <CsrfInput />
                      <input type="hidden" name="intent" value="revoke-invite" />
                      <input type="hidden" name="email" value={i.email} />
                      <button type="submit" className="button button-small button-danger-outline" aria-label={`Revoke the invite for ${i.email}`}>
                        Revoke
                      </button>
                    </Form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}

      {outbox.length > 0 && (
        <section aria-labelledby="outbox-title">
          <h2 id="outbox-title">Outbox</h2>
          <p className="muted">Invite mail this server wrote, newest first: what was (or would have been) mailed.</p>
          <ul className="plain-list outbox">
            {outbox.map((mail) => (
              <li key={mail.message_id}>
                <details>
                  <summary>
                    <span>{mail.subject}</span> <span className="muted small">to {mail.to}, {formatDate(mail.created_at_unix)}</span>{" "}
                    <span className="badge">{mail.delivery === "sent" ? "Sent" : mail.delivery === "failed" ? "Not sent" : "Outbox only"}</span>
                  </summary>
                  <pre className="mail-text">{mail.text}</pre>
                </details>
              </li>
            ))}
          </ul>
        </section>
      )}

      <section aria-labelledby="members-title">
        <h2 id="members-title">Members</h2>
        <table className="table table-responsive">
          <thead>
            <tr>
              <th scope="col">Member</th>
              <th scope="col">Role</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <MemberRow key={m.user_id} m={m} me={me} />
            ))}
          </tbody>
        </table>
      </section>

      <section aria-labelledby="groups-title">
        <h2 id="groups-title">Groups and permissions</h2>
        <Form method="post" className="inline-form" noValidate>
          <CsrfInput />
          <input type="hidden" name="intent" value="create-group" />
          <div className="field">
            <label htmlFor="group-name">New group</label>
            <input id="group-name" name="name" maxLength={80} placeholder="e.g. Narrators" />
          </div>
          <button type="submit" className="button">
            Create group
          </button>
        </Form>
        {everyone && <GroupCard group={everyone} everyone={everyone} members={members} />}
        {custom.map((g) => (
          <GroupCard key={g.id} group={g} everyone={everyone} members={members} />
        ))}
      </section>

      <section aria-labelledby="sa-title">
        <h2 id="sa-title">Service accounts</h2>
        <p className="muted">Accounts for programs: they own API keys, take no seat, and can be given access to shared voices and dictionaries.</p>
        <Form method="post" className="inline-form" noValidate>
          <CsrfInput />
          <input type="hidden" name="intent" value="create-sa" />
          <div className="field">
            <label htmlFor="sa-name">Service account name</label>
            <input id="sa-name" name="name" maxLength={100} placeholder="e.g. Render farm" />
          </div>
          <button type="submit" className="button">
            Create service account
          </button>
        </Form>
        {result?.ok && result.intent === "create-sa-key" && "key" in result && (
          <div className="card new-key">
            <p className="warning" role="status">
              API key for {result.account}. Copy it now: it will not be shown again.
            </p>
            <div className="secret-row">
              <code className="secret">{result.key}</code>
              <CopyButton value={result.key} />
            </div>
          </div>
        )}
        <ul className="plain-list">
          {serviceAccounts.map((sa) => (
            <li key={sa.service_account_user_id} className="card">
              <div className="card-header">
                <h3>{sa.name}</h3>
                <Form method="post">
                  <CsrfInput />
                  <input type="hidden" name="intent" value="create-sa-key" />
                  <input type="hidden" name="service_account_id" value={sa.service_account_user_id} />
                  <input type="hidden" name="account_name" value={sa.name} />
                  <input type="hidden" name="name" value={`Key ${sa["api-keys"].length + 1}`} />
                  <button type="submit" className="button button-small">
                    New API key
                  </button>
                </Form>
              </div>
              {sa["api-keys"].length === 0 ? (
                <p className="muted small">No API keys yet.</p>
              ) : (
                <ul className="plain-list">
                  {sa["api-keys"].map((k) => (
                    <li key={k.key_id}>
                      {k.name} <code>{k.hint}</code> {k.is_disabled && <span className="badge">Disabled</span>}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      </section>
      <TrainingSettings optedOut={trainingOptOut} />
      <SharingSettings editorsShare={editorsShare} />
    </Page>
  );
}
