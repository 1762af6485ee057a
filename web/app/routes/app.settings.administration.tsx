import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { z } from "zod";
import { CsrfInput } from "../components/Csrf.js";
import { Field, FormError } from "../components/Field.js";
import { Page } from "../components/Page.js";
import { useToast } from "../components/ui/Toast.js";
import { formatDateTimeFull } from "../lib/format.js";
import { getShell } from "../lib/shell.server.js";
import { refusal, v1, v1Form, type ActionFailure } from "../lib/v1.server.js";
import { Icon } from "../components/Icon.js";
import { apiCallError, v1Fetch } from "../components/tts/client.js";

export const meta: MetaFunction = () => [{ title: "Server administration · Timbre" }];

const ManualRequestsWire = z.object({
  requests: z.array(
    z.object({
      request_id: z.string(),
      voice_id: z.string(),
      voice_name: z.string(),
      email: z.string(),
      extra_text: z.string(),
      request_time_unix: z.number(),
      files: z.array(z.object({ file_id: z.string(), file_name: z.string(), mime_type: z.string(), size_bytes: z.number() })),
    }),
  ),
});
const TeamsWire = z.object({
  teams: z.array(z.object({ team_id: z.string(), name: z.string(), members: z.array(z.object({ user_id: z.string(), email: z.string(), role: z.string() })) })),
});
const FeedbackWire = z.object({ feedback: z.array(z.object({ feedback_id: z.string(), email: z.string(), feedback: z.string(), category: z.string(), positive: z.boolean(), relevant: z.boolean(), created_at: z.number() })) });

/** For the server's administrators: post to everyone's notification feed, read feedback. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { shell } = await getShell(request, context);
  if (!shell.user.isServerAdmin) throw data({ message: "Only administrators of this server can open this page." }, { status: 403 });
  const { client } = await v1(request, context);
  const [feedback, manual, teams] = await Promise.all([
    client.call("/v1/feedback", { schema: FeedbackWire }),
    client.call("/v1/admin/manual-verifications?status=pending", { schema: ManualRequestsWire }),
    client.call("/v1/admin/producer-teams", { schema: TeamsWire }),
  ]);
  return { feedback: feedback.feedback, manualRequests: manual.requests, teams: teams.teams };
}

const PostSchema = z.object({
  title: z.string().trim().min(1, "A title is required").max(120),
  description: z.string().trim().min(1, "A description is required").max(1000),
  link_to: z.string().trim().max(500),
});

export async function action({ request, context }: ActionFunctionArgs) {
  const { client, form } = await v1Form(request, context);
  const intent = String(form.get("intent") ?? "post");
  if (intent === "producer" || intent === "unproducer" || intent === "team" || intent === "member") return producerAction(client, form, intent);
  if (intent === "approve" || intent === "reject") {
    const id = encodeURIComponent(String(form.get("request_id") ?? ""));
    const reason = String(form.get("reason") ?? "").trim();
    if (intent === "reject" && !reason) return data<ActionFailure>({ ok: false, intent, error: "Give the user a reason." }, { status: 400 });
    try {
      await client.call(`/v1/admin/manual-verifications/${id}/${intent}`, { method: "POST", body: intent === "reject" ? { reason } : {}, schema: z.object({ status: z.string() }) });
      return { ok: true as const, intent, message: intent === "approve" ? "Request approved: the voice is verified." : "Request rejected: the user was told why." };
    } catch (e) {
      return refusal(e, intent);
    }
  }
  const p = PostSchema.safeParse({ title: form.get("title") ?? "", description: form.get("description") ?? "", link_to: form.get("link_to") ?? "" });
  if (!p.success) return data<ActionFailure>({ ok: false, intent: "post", error: p.error.issues[0].message }, { status: 400 });
  try {
    await client.call("/v1/notifications", {
      method: "POST",
      body: { title: p.data.title, description: p.data.description, link_to: p.data.link_to || null, is_important: form.get("is_important") === "on" },
      schema: z.object({ id: z.string() }),
    });
    return { ok: true as const, intent: "post", message: "Notification posted." };
  } catch (e) {
    return refusal(e, "post");
  }
}

export default function ServerAdministration() {
  const { feedback, manualRequests, teams } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const toast = useToast();
  useEffect(() => {
    if (result?.ok) toast.show({ message: result.message, kind: "success" });
  }, [result, toast]);
  return (
    <Page title="Server administration" description="Notifications for every user of this server, the feedback they sent, and manual voice verification requests.">
      <ManualVerificationRequests requests={manualRequests} busy={busy} error={result && !result.ok && (result.intent === "approve" || result.intent === "reject") ? result.error : null} />
      <Producers teams={teams} busy={busy} result={result} />
      <section className="card" aria-labelledby="post-title">
        <h2 id="post-title">Post a notification</h2>
        <Form method="post" className="stack-form" noValidate>
          <CsrfInput />
          <Field name="title" label="Title" maxLength={120} />
          <div className="field">
            <label htmlFor="notification-description">Description</label>
            <textarea id="notification-description" name="description" maxLength={1000} />
          </div>
          <Field name="link_to" label="Link (optional)" placeholder="/app/voice-library or https://…" maxLength={500} />
          <label className="check">
            <input type="checkbox" name="is_important" /> Important (opens the notifications by itself once)
          </label>
          <button type="submit" className="button button-primary" disabled={busy}>
            Post
          </button>
          <FormError id="post-error" message={result && !result.ok && result.intent === "post" ? result.error : null} />
        </Form>
      </section>
      <section aria-labelledby="feedback-title">
        <h2 id="feedback-title">Feedback</h2>
        {feedback.length === 0 ? (
          <p className="muted">No feedback yet.</p>
        ) : (
          <table className="table table-responsive">
            <thead>
              <tr>
                <th scope="col">Feedback</th>
                <th scope="col">Category</th>
                <th scope="col">From</th>
                <th scope="col">Sent</th>
              </tr>
            </thead>
            <tbody>
              {feedback.map((f) => (
                <tr key={f.feedback_id}>
                  <td data-label="Feedback">{f.feedback}</td>
                  <td data-label="Category">
                    {f.category.replace("_", " ")} {f.positive ? "· positive" : ""} {f.relevant ? "" : "· not relevant"}
                  </td>
                  <td data-label="From">{f.email}</td>
                  <td data-label="Sent">{formatDateTimeFull(f.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </Page>
  );
}

type Client = Awaited<ReturnType<typeof v1Form>>["client"];

/** Producer Mode's administration: who is a producer, the teams and their members. */
async function producerAction(client: Client, form: FormData, intent: string) {
  const email = String(form.get("email") ?? "").trim();
  try {
    if (intent === "producer" || intent === "unproducer") {
      await client.call("/v1/admin/producers", { method: "POST", body: { email, is_producer: intent === "producer" }, schema: z.object({ email: z.string() }) });
      return { ok: true as const, intent, message: intent === "producer" ? `${email} is a producer.` : `${email} is no longer a producer.` };
    }
    if (intent === "team") {
      await client.call("/v1/admin/producer-teams", { method: "POST", body: { name: String(form.get("name") ?? "") }, schema: z.object({ team_id: z.string() }) });
      return { ok: true as const, intent, message: "Team created." };
    }
    const team = encodeURIComponent(String(form.get("team_id") ?? ""));
    await client.call(`/v1/admin/producer-teams/${team}/members`, { method: "POST", body: { email, role: String(form.get("role") ?? "member") }, schema: z.object({ user_id: z.string() }) });
    return { ok: true as const, intent, message: `${email} joined the team.` };
  } catch (e) {
    return refusal(e, intent);
  }
}

type Team = z.infer<typeof TeamsWire>["teams"][number];
const PRODUCER_INTENTS = ["producer", "unproducer", "team", "member"];

function Producers({ teams, busy, result }: { teams: Team[]; busy: boolean; result: { ok: boolean; intent: string; error?: string } | undefined }) {
  const error = result && !result.ok && PRODUCER_INTENTS.includes(result.intent) ? (result.error ?? null) : null;
  return (
    <section className="card" aria-labelledby="producers-title">
      <h2 id="producers-title">Producers</h2>
      <p className="muted">Producers review manual verification requests in Producer Mode. Teams group them; leaders and owners see their team's work.</p>
      <Form method="post" className="stack-form">
        <CsrfInput />
        <Field name="email" id="producer-email" label="E-mail address of a user" type="email" maxLength={320} />
        <div className="form-actions-inline">
          <button type="submit" name="intent" value="producer" className="button button-primary" disabled={busy}>
            Make producer
          </button>
          <button type="submit" name="intent" value="unproducer" className="button" disabled={busy}>
            Remove producer
          </button>
        </div>
      </Form>
      <h3>Teams</h3>
      {teams.length === 0 ? (
        <p className="muted">No teams yet.</p>
      ) : (
        <ul className="producer-teams">
          {teams.map((t) => (
            <li key={t.team_id}>
              <strong>{t.name}</strong>: {t.members.length ? t.members.map((m) => `${m.email} (${m.role})`).join(", ") : "no members"}
            </li>
          ))}
        </ul>
      )}
      <Form method="post" className="stack-form">
        <CsrfInput />
        <Field name="name" id="team-name" label="New team's name" maxLength={100} />
        <button type="submit" name="intent" value="team" className="button" disabled={busy}>
          Create team
        </button>
      </Form>
      {teams.length > 0 && (
        <Form method="post" className="stack-form">
          <CsrfInput />
          <div className="field">
            <label htmlFor="member-team">Team</label>
            <select id="member-team" name="team_id">
              {teams.map((t) => (
                <option key={t.team_id} value={t.team_id}>
                  {t.name}
                </option>
              ))}
            </select>
          </div>
          <Field name="email" id="member-email" label="Producer's e-mail address" type="email" maxLength={320} />
          <div className="field">
            <label htmlFor="member-role">Role</label>
            <select id="member-role" name="role" defaultValue="member">
              <option value="member">Member</option>
              <option value="leader">Leader</option>
              <option value="owner">Owner</option>
            </select>
          </div>
          <button type="submit" name="intent" value="member" className="button" disabled={busy}>
            Add to team
          </button>
        </Form>
      )}
      <FormError id="producers-error" message={error} />
    </section>
  );
}

type ManualRequest = z.infer<typeof ManualRequestsWire>["requests"][number];

/** Opens a document through the API (server administrators only), as a download. */
async function openDocument(requestId: string, fileId: string, name: string) {
  const r = await v1Fetch(`/v1/admin/manual-verifications/${encodeURIComponent(requestId)}/files/${encodeURIComponent(fileId)}`);
  if (!r.ok) throw await apiCallError(r);
  const url = URL.createObjectURL(await r.blob());
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Pending manual verification requests of professional clones: read the documents, approve or reject with a reason. */
function ManualVerificationRequests({ requests, busy, error }: { requests: ManualRequest[]; busy: boolean; error: string | null }) {
  const [openError, setOpenError] = useState<string | null>(null);
  return (
    <section className="card" aria-labelledby="manual-title">
      <h2 id="manual-title">Manual voice verification</h2>
      {requests.length === 0 ? (
        <p className="muted">No requests are waiting.</p>
      ) : (
        <ul className="admin-requests">
          {requests.map((r) => (
            <li key={r.request_id} className="admin-request" aria-label={`Request for ${r.voice_name}`}>
              <p>
                <strong>{r.voice_name}</strong> · {r.email} · {formatDateTimeFull(r.request_time_unix)}
              </p>
              {r.extra_text && <p className="admin-request-text">{r.extra_text}</p>}
              <ul className="admin-request-files">
                {r.files.map((f) => (
                  <li key={f.file_id}>
                    <button type="button" className="button button-small" onClick={() => openDocument(r.request_id, f.file_id, f.file_name).catch((e: unknown) => setOpenError(e instanceof Error ? e.message : "The document could not be opened."))}>
                      <Icon name="download" size={16} />
                      {f.file_name}
                    </button>
                  </li>
                ))}
              </ul>
              <div className="admin-request-actions">
                <Form method="post">
                  <CsrfInput />
                  <input type="hidden" name="request_id" value={r.request_id} />
                  <button type="submit" name="intent" value="approve" className="button button-primary" disabled={busy}>
                    Approve
                  </button>
                </Form>
                <Form method="post" className="admin-reject">
                  <CsrfInput />
                  <input type="hidden" name="request_id" value={r.request_id} />
                  <label htmlFor={`reason-${r.request_id}`}>Reason for rejecting</label>
                  <input id={`reason-${r.request_id}`} name="reason" maxLength={500} />
                  <button type="submit" name="intent" value="reject" className="button button-danger-outline" disabled={busy}>
                    Reject
                  </button>
                </Form>
              </div>
            </li>
          ))}
        </ul>
      )}
      <FormError id="manual-error" message={error ?? openError} />
    </section>
  );
}
