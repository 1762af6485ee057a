import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { z } from "zod";
import { CreateApiKeySchema } from "../../../../functions/platform/contract/accounts.js";
import { CopyButton } from "../../components/CopyButton.js";
import { CsrfInput } from "../../components/Csrf.js";
import { Dialog } from "../../components/Dialog.js";
import { ConfirmFormDialog } from "../../components/ConfirmFormDialog.js";
import { Field, FormError } from "../../components/Field.js";
import { Page, PermissionGate } from "../../components/Page.js";
import { Pagination } from "../../components/Pagination.js";
import { ApiFailure } from "../../lib/api.server.js";
import { requireCsrf } from "../../lib/csrf.server.js";
import { formatDate, formatDateTimeFull } from "../../lib/format.js";
import { fieldErrors, formFields, type FieldErrors } from "../../lib/forms.js";
import { pageCount } from "../../lib/pagination.js";
import { requireAuth } from "../../lib/session.server.js";
import { apiKeys, newestFirst, type ApiKey } from "./api-keys.server.js";
import { EmptyState } from "../../components/ui/EmptyState.js";
import { useToast } from "../../components/ui/Toast.js";
import { readForm } from "../../lib/form.server.js";

export const meta: MetaFunction = () => [{ title: "API Keys · Timbre" }];

const PAGE_SIZE = 10;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireAuth(request, context);
  return { keys: newestFirst(await apiKeys(context, request, auth).list()) };
}

const RevokeSchema = z.object({ key_id: z.string().min(1).max(64) });

type ActionResult =
  | { intent: "create"; created: { name: string; value: string } | null; fields: FieldErrors; formError: string | null }
  | { intent: "revoke"; revoked: string | null; formError: string | null };

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireAuth(request, context);
  const form = await readForm(request);
  await requireCsrf(request, context, form);
  const keys = apiKeys(context, request, auth);

  if (form.get("intent") === "revoke") {
    const parsed = RevokeSchema.safeParse(formFields(form, ["key_id"]));
    if (!parsed.success) return data<ActionResult>({ intent: "revoke", revoked: null, formError: "Choose a key to revoke." }, { status: 400 });
    try {
      await keys.revoke(parsed.data.key_id);
      return { intent: "revoke", revoked: parsed.data.key_id, formError: null } satisfies ActionResult;
    } catch (e) {
      if (e instanceof ApiFailure && e.status < 500) return data<ActionResult>({ intent: "revoke", revoked: null, formError: e.message }, { status: e.status });
      throw e;
    }
  }

  const parsed = CreateApiKeySchema.safeParse(formFields(form, ["name"]));
  if (!parsed.success) return data<ActionResult>({ intent: "create", created: null, fields: fieldErrors(parsed.error), formError: null }, { status: 400 });
  try {
    const created = await keys.create(parsed.data.name);
    return { intent: "create", created: { name: created.name, value: created.xi_api_key }, fields: {}, formError: null } satisfies ActionResult;
  } catch (e) {
    // 403 carries the permission message; 400 the per-user key limit.
    if (e instanceof ApiFailure && e.status < 500) return data<ActionResult>({ intent: "create", created: null, fields: e.fields, formError: e.message }, { status: e.status });
    throw e;
  }
}

function CreateKeyForm({ result }: { result: Extract<ActionResult, { intent: "create" }> | undefined }) {
  const navigation = useNavigation();
  const formRef = useRef<HTMLFormElement>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const errors = clientErrors ?? result?.fields ?? {};
  const creating = navigation.state === "submitting" && navigation.formData?.get("intent") === "create";

  useEffect(() => {
    if (result?.created) formRef.current?.reset();
    else if (result || clientErrors) nameRef.current?.focus();
  }, [result, clientErrors]);

  return (
    <Form
      ref={formRef}
      method="post"
      className="inline-form"
      noValidate
      onSubmit={(e) => {
        const r = CreateApiKeySchema.safeParse(formFields(new FormData(e.currentTarget), ["name"]));
        if (r.success) return setClientErrors(null);
        e.preventDefault();
        setClientErrors(fieldErrors(r.error));
      }}
    >
      <CsrfInput />
      <input type="hidden" name="intent" value="create" />
      <Field ref={nameRef} name="name" label="Name" placeholder="e.g. Production server" maxLength={100} required error={errors.name} />
      <button type="submit" className="button button-primary" disabled={creating}>
        {creating ? "Creating…" : "Create API key"}
      </button>
      {!clientErrors && <FormError id="create-key-error" message={result?.formError} />}
    </Form>
  );
}

function NewKey({ name, value }: { name: string; value: string }) {
  const section = useRef<HTMLElement>(null);
  // Focus moves to the new key's Copy button: the one thing to do next.
  useEffect(() => section.current?.querySelector<HTMLButtonElement>("button")?.focus(), [value]);
  return (
    <section ref={section} className="card new-key" aria-labelledby="new-key-title">
      <h2 id="new-key-title">API key “{name}” created</h2>
      <p className="warning" role="status">
        Copy this key now and keep it somewhere safe. It will not be shown again.
      </p>
      <div className="secret-row">
        <code className="secret" data-testid="new-api-key">
          {value}
        </code>
        <CopyButton value={value} />
      </div>
    </section>
  );
}

export default function ApiKeys() {
  const { keys } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const [confirming, setConfirming] = useState<ApiKey | null>(null);
  const [page, setPage] = useState(1);
  const pages = pageCount(keys.length, PAGE_SIZE);
  const current = Math.min(page, pages);
  const shown = keys.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE);
  const createResult = result?.intent === "create" ? result : undefined;
  const keysHeading = useRef<HTMLHeadingElement>(null);
  const toast = useToast();
  const revoked = result?.intent === "revoke" ? result.revoked : null;

  useEffect(() => {
    if (!revoked) return;
    toast.show({ message: "API key revoked." });
    // The revoked row is gone: focus its list, not the top of the page.
    keysHeading.current?.focus();
  }, [revoked, result, toast]);

  return (
    <Page title="API Keys" description="API keys let programs call the Timbre API (/v1) as you. Send one in the xi-api-key header.">
      <section className="card" aria-labelledby="create-key-title">
        <h2 id="create-key-title">Create an API key</h2>
        <PermissionGate permission="create_user_api_key">
          <CreateKeyForm result={createResult} />
        </PermissionGate>
      </section>

      {createResult?.created && <NewKey name={createResult.created.name} value={createResult.created.value} />}
      {result?.intent === "revoke" && <FormError id="revoke-error" message={result.formError} />}

      <section aria-labelledby="keys-title">
        <h2 id="keys-title" ref={keysHeading} tabIndex={-1}>
          Your API keys
        </h2>
        {keys.length === 0 ? (
          <EmptyState icon="key" title="No API keys" headingLevel={3} id="keys-empty">
            <p>You have no API keys yet. Create one above to call the Timbre API from your programs.</p>
          </EmptyState>
        ) : (
          <table className="table table-responsive">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((k) => (
                <tr key={k.key_id}>
                  <td data-label="Name">{k.name}</td>
                  <td data-label="Key">
                    <code>{k.hint}</code>
                  </td>
                  <td data-label="Created">
                    <time dateTime={new Date(k.created_at_unix * 1000).toISOString()} title={formatDateTimeFull(k.created_at_unix)}>
                      {formatDate(k.created_at_unix)}
                    </time>
                  </td>
                  <td data-label="Last used">
                    {k.last_used_at_unix ? (
                      <time dateTime={new Date(k.last_used_at_unix * 1000).toISOString()} title={formatDateTimeFull(k.last_used_at_unix)}>
                        {formatDate(k.last_used_at_unix)}
                      </time>
                    ) : (
                      formatDate(null)
                    )}
                  </td>
                  <td className="table-actions">
                    <button type="button" className="button button-small button-danger-outline" onClick={() => setConfirming(k)} aria-label={`Revoke ${k.name}`}>
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pagination page={current} pageCount={pages} onPageChange={setPage} label="API keys pages" />
      </section>

      {confirming && (
        <ConfirmFormDialog title="Revoke API key" intent="revoke" fields={{ key_id: confirming.key_id }} confirmLabel="Revoke" onClose={() => setConfirming(null)}>
          <p>
            Revoke “{confirming.name}” ({confirming.hint})? Programs using it will stop working at once. This cannot be undone.
          </p>
        </ConfirmFormDialog>
      )}
    </Page>
  );
}
