import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRevalidator, useSearchParams } from "@remix-run/react";
import { useEffect, useState } from "react";
import { z } from "zod";
import { EVENT_LABELS, EVENT_TYPES } from "../../../../functions/platform/events/types.js";
import { CopyButton } from "../../components/CopyButton.js";
import { CsrfInput } from "../../components/Csrf.js";
import { Dialog } from "../../components/Dialog.js";
import { ConfirmFormDialog } from "../../components/ConfirmFormDialog.js";
import { FormError } from "../../components/Field.js";
import { Page } from "../../components/Page.js";
import { EmptyState } from "../../components/ui/EmptyState.js";
import { useToast } from "../../components/ui/Toast.js";
import { formatDate, formatDateTimeFull } from "../../lib/format.js";
import { getShell } from "../../lib/shell.server.js";
import { useShell } from "../../lib/shell.js";
import { refusal, v1, v1Form, type ActionFailure } from "../../lib/v1.server.js";
import { webhooks, type Delivery, type Webhook } from "./webhooks.server.js";

export const meta: MetaFunction = () => [{ title: "Webhooks · Timbre" }];

/** ?log={webhook_id} shows that webhook's delivery log. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await getShell(request, context);
  const { client } = await v1(request, context);
  const api = webhooks(client);
  const list = await api.list();
  const logId = new URL(request.url).searchParams.get("log");
  const selected = list.find((w) => w.webhook_id === logId) ?? null;
  return { webhooks: list, selected: selected?.webhook_id ?? null, deliveries: selected ? await api.deliveries(selected.webhook_id) : [] };
}

type ActionResult = ActionFailure | { ok: true; intent: "create"; name: string; secret: string } | { ok: true; intent: string; message: string };

const CreateSchema = z.object({
  name: z.string().trim().min(1, "Please give the webhook a name").max(100),
  url: z.string().trim().min(1, "Please enter the URL that receives the events").max(2048),
  header_name: z.string().trim().max(64),
  header_value: z.string().max(1024),
});

export async function action({ request, context }: ActionFunctionArgs) {
  const { client, form } = await v1Form(request, context);
  const api = webhooks(client);
  const intent = String(form.get("intent") ?? "");
  const id = String(form.get("webhook_id") ?? "");
  const events = (): string[] | null => (form.get("all_events") === "on" ? null : form.getAll("events").map(String));
  try {
    switch (intent) {
      case "create": {
        const p = CreateSchema.safeParse({ name: form.get("name") ?? "", url: form.get("url") ?? "", header_name: form.get("header_name") ?? "", header_value: form.get("header_value") ?? "" });
        if (!p.success) return data<ActionFailure>({ ok: false, intent, error: p.error.issues[0].message }, { status: 400 });
        const headers = p.data.header_name ? { [p.data.header_name]: p.data.header_value } : {};
        const created = await api.create({ name: p.data.name, url: p.data.url, headers, events: events(), retry: form.get("retry") === "on" });
        return { ok: true, intent, name: p.data.name, secret: created.webhook_secret } satisfies ActionResult;
      }
      case "toggle": {
        const disable = form.get("disable") === "true";
        await api.update(id, { name: String(form.get("name") ?? ""), is_disabled: disable });
        return { ok: true, intent, message: disable ? "Webhook disabled." : "Webhook enabled." } satisfies ActionResult;
      }
      case "edit": {
        const name = String(form.get("name") ?? "").trim();
        if (!name) return data<ActionFailure>({ ok: false, intent, error: "Please give the webhook a name" }, { status: 400 });
        await api.update(id, { name, is_disabled: form.get("is_disabled") === "true", events: events(), retry_enabled: form.get("retry") === "on" });
        return { ok: true, intent, message: "Webhook saved." } satisfies ActionResult;
      }
      case "test": {
        await api.test(id);
        return { ok: true, intent, message: "Test event queued. It appears in the delivery log once sent." } satisfies ActionResult;
      }
      case "delete":
        await api.remove(id);
        return { ok: true, intent, message: "Webhook deleted." } satisfies ActionResult;
      default:
        return data<ActionFailure>({ ok: false, intent, error: "Unknown action." }, { status: 400 });
    }
  } catch (e) {
    return refusal(e, intent);
  }
}

function EventChoice({ idPrefix, selected }: { idPrefix: string; selected: string[] | null }) {
  const [all, setAll] = useState(selected === null);
  return (
    <fieldset className="checks">
      <legend>Events</legend>
      <label className="check">
        <input type="checkbox" name="all_events" checked={all} onChange={(e) => setAll(e.currentTarget.checked)} /> All events of {""}
        {idPrefix === "new" ? "this scope" : "this webhook's scope"}
      </label>
      {!all &&
        EVENT_TYPES.map((t) => (
          <label key={t} className="check" htmlFor={`${idPrefix}-${t}`}>
            <input id={`${idPrefix}-${t}`} type="checkbox" name="events" value={t} defaultChecked={selected?.includes(t) ?? false} /> {EVENT_LABELS[t]}
          </label>
        ))}
    </fieldset>
  );
}

function status(w: Webhook): { label: string; cls: string } {
  if (w.is_auto_disabled) return { label: "Disabled after repeated failures", cls: "badge state-failed" };
  if (w.is_disabled) return { label: "Disabled", cls: "badge" };
  return { label: "Enabled", cls: "badge badge-accent" };
}

function WebhookCard({ w, onDelete }: { w: Webhook; onDelete: (w: Webhook) => void }) {
  const s = status(w);
  const enabled = !w.is_disabled && !w.is_auto_disabled;
  return (
    <li className="card webhook-card">
      <div className="card-header">
        <h3>
          {w.name} <span className={s.cls}>{s.label}</span>
        </h3>
        <div className="webhook-actions">
          <Form method="post">
            <CsrfInput />
            <input type="hidden" name="intent" value="test" />
            <input type="hidden" name="webhook_id" value={w.webhook_id} />
            <button type="submit" className="button button-small" disabled={!enabled}>
              Send test event
            </button>
          </Form>
          <Form method="post">
            <CsrfInput />
            <input type="hidden" name="intent" value="toggle" />
            <input type="hidden" name="webhook_id" value={w.webhook_id} />
            <input type="hidden" name="name" value={w.name} />
            <input type="hidden" name="disable" value={String(enabled)} />
            <button type="submit" className="button button-small">
              {enabled ? "Disable" : "Enable"}
            </button>
          </Form>
          <Link className="button button-small" to={`?log=${w.webhook_id}`} preventScrollReset>
            Delivery log
          </Link>
          <button type="button" className="button button-small button-danger-outline" onClick={() => onDelete(w)} aria-label={`Delete ${w.name}`}>
            Delete
          </button>
        </div>
      </div>
      <p className="webhook-url">{w.webhook_url}</p>
      <p className="muted small">
        {w.events === null ? "All events" : w.events.length ? w.events.map((e) => EVENT_LABELS[e as keyof typeof EVENT_LABELS] ?? e).join(", ") : "No events"} · Retries{" "}
        {w.retry_enabled ? "on" : "off"}
        {w.request_header_names.length > 0 && ` · Headers: ${w.request_header_names.join(", ")}`}
        {w.most_recent_failure_timestamp !== null && ` · Last failure: ${w.most_recent_failure_error_code ?? "no answer"} on ${formatDate(w.most_recent_failure_timestamp)}`}
      </p>
      <details>
        <summary>Edit</summary>
        <Form method="post" className="stack-form">
          <CsrfInput />
          <input type="hidden" name="intent" value="edit" />
          <input type="hidden" name="webhook_id" value={w.webhook_id} />
          <input type="hidden" name="is_disabled" value={String(w.is_disabled)} />
          <div className="field">
            <label htmlFor={`name-${w.webhook_id}`}>Name</label>
            <input id={`name-${w.webhook_id}`} name="name" defaultValue={w.name} maxLength={100} />
          </div>
          <EventChoice idPrefix={w.webhook_id} selected={w.events} />
          <label className="check">
            <input type="checkbox" name="retry" defaultChecked={w.retry_enabled} /> Retry failed deliveries (5xx, 429, no answer) for up to 3 days
          </label>
          <button type="submit" className="button button-small">
            Save
          </button>
        </Form>
      </details>
    </li>
  );
}

function DeliveryLog({ webhook, deliveries }: { webhook: Webhook; deliveries: Delivery[] }) {
  const revalidator = useRevalidator();
  return (
    <section className="card" aria-labelledby="log-title">
      <div className="card-header">
        <h2 id="log-title">Delivery log: {webhook.name}</h2>
        <button type="button" className="button button-small" onClick={() => revalidator.revalidate()}>
          Refresh
        </button>
      </div>
      {deliveries.length === 0 ? (
        <p className="muted">No deliveries yet. Send a test event to see one here.</p>
      ) : (
        <table className="table table-responsive">
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">State</th>
              <th scope="col">Attempts</th>
              <th scope="col">Last answer</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.map((d) => (
              <tr key={d.delivery_id}>
                <td data-label="Event">
                  {d.event_type}
                  <br />
                  <code className="small">{d.event_id}</code>
                </td>
                <td data-label="State">
                  <span className={`state-${d.state}`}>{d.state === "pending" ? `Retrying${d.next_attempt_unix ? ` at ${formatDateTimeFull(d.next_attempt_unix)}` : ""}` : d.state[0].toUpperCase() + d.state.slice(1)}</span>
                </td>
                <td data-label="Attempts">{d.attempts}</td>
                <td data-label="Last answer">{d.last_status ?? (d.last_error ? "No answer" : "—")}{d.last_error ? ` (${d.last_error})` : ""}</td>
                <td data-label="Created">
                  <time dateTime={new Date(d.created_at_unix * 1000).toISOString()} title={formatDateTimeFull(d.created_at_unix)}>
                    {formatDate(d.created_at_unix)}
                  </time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** Workspace webhooks for admins, personal webhooks for everyone else (app-shell.md §2). */
export default function Webhooks() {
  const shell = useShell();
  const { webhooks: list, selected, deliveries } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const busy = useNavigation().formData?.get("intent") === "create";
  const toast = useToast();
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const [params] = useSearchParams();
  useEffect(() => {
    if (!result) return;
    if (result.ok && "message" in result) toast.show({ message: result.message, kind: "success" });
    else if (!result.ok && result.intent !== "create") toast.show({ message: result.error, kind: "error" });
  }, [result, toast]);
  if (!shell) return null;
  const workspace = shell.workspace.isAdmin;
  const logOf = list.find((w) => w.webhook_id === selected);
  const createFailure = result && !result.ok && result.intent === "create" ? result.error : null;

  return (
    <Page
      title={workspace ? "Workspace webhooks" : "Webhooks"}
      description={workspace ? "Endpoints that receive every event of the workspace, signed with their secret." : "Endpoints that receive the events of your own jobs, signed with their secret."}
    >
      <section className="card" aria-labelledby="new-webhook-title">
        <h2 id="new-webhook-title">Add a webhook</h2>
        <Form method="post" className="stack-form" noValidate>
          <CsrfInput />
          <input type="hidden" name="intent" value="create" />
          <div className="field">
            <label htmlFor="webhook-name">Name</label>
            <input id="webhook-name" name="name" maxLength={100} placeholder="e.g. Production" />
          </div>
          <div className="field">
            <label htmlFor="webhook-url">URL</label>
            <input id="webhook-url" name="url" type="url" inputMode="url" placeholder="https://example.com/webhooks/timbre" aria-describedby="webhook-url-hint" />
            <p className="field-hint" id="webhook-url-hint">
              Events are POSTed here as JSON with an ElevenLabs-Signature header. Private, loopback and link-local addresses are refused.
            </p>
          </div>
          <div className="row-form">
            <div className="field">
              <label htmlFor="header-name">Extra header (optional)</label>
              <input id="header-name" name="header_name" maxLength={64} placeholder="X-Webhook-Token" />
            </div>
            <div className="field">
              <label htmlFor="header-value">Header value</label>
              <input id="header-value" name="header_value" maxLength={1024} />
            </div>
          </div>
          <EventChoice idPrefix="new" selected={null} />
          <label className="check">
            <input type="checkbox" name="retry" defaultChecked /> Retry failed deliveries (5xx, 429, no answer) for up to 3 days
          </label>
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? "Adding…" : "Add webhook"}
          </button>
          <FormError id="webhook-error" message={createFailure} />
        </Form>
      </section>

      {result?.ok && result.intent === "create" && "secret" in result && (
        <section className="card new-key" aria-labelledby="secret-title">
          <h2 id="secret-title">Signing secret of “{result.name}”</h2>
          <p className="warning" role="status">
            Copy this secret now: it will not be shown again. Verify each delivery with it, for example with the SDK's webhooks.constructEvent.
          </p>
          <div className="secret-row">
            <code className="secret" data-testid="webhook-secret">
              {result.secret}
            </code>
            <CopyButton value={result.secret} />
          </div>
        </section>
      )}

      <section aria-labelledby="webhooks-title">
        <h2 id="webhooks-title">{workspace ? "Workspace webhooks" : "Your webhooks"}</h2>
        {list.length === 0 ? (
          <EmptyState icon="plug" title="No webhooks" headingLevel={3} id="webhooks-empty">
            <p>Add one above to receive events as they happen.</p>
          </EmptyState>
        ) : (
          <ul className="card-list">
            {list.map((w) => (
              <WebhookCard key={w.webhook_id} w={w} onDelete={setDeleting} />
            ))}
          </ul>
        )}
      </section>

      {logOf && params.get("log") && <DeliveryLog webhook={logOf} deliveries={deliveries} />}

      {deleting && (
        <ConfirmFormDialog title="Delete webhook" intent="delete" fields={{ webhook_id: deleting.webhook_id }} confirmLabel="Delete" onClose={() => setDeleting(null)}>
          <p>Delete “{deleting.name}”? It stops receiving events at once; deliveries still waiting are dropped.</p>
        </ConfirmFormDialog>
      )}
    </Page>
  );
}
