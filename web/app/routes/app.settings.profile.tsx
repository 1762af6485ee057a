import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import { z } from "zod";
import { PASSWORD_MAX, PASSWORD_MIN, messages } from "../../../functions/platform/contract/accounts.js";
import { CsrfInput } from "../components/Csrf.js";
import { Field, FormError } from "../components/Field.js";
import { Page } from "../components/Page.js";
import { Avatar } from "../components/ProfileMenu.js";
import { useToast } from "../components/ui/Toast.js";
import { OkWire } from "../lib/api.server.js";
import { formatDateTimeFull } from "../lib/format.js";
import { useShell } from "../lib/shell.js";
import { refusal, v1, v1Form, type ActionFailure } from "../lib/v1.server.js";

export const meta: MetaFunction = () => [{ title: "Profile · Timbre" }];

const SessionsWire = z.object({ sessions: z.array(z.object({ session_id: z.string(), created_at_unix: z.number(), user_agent: z.string(), is_current: z.boolean() })) });
const TwoFactorWire = z.object({ enabled: z.boolean(), backup_codes_left: z.number() });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { client } = await v1(request, context);
  const [sessions, twoFactor] = await Promise.all([client.call("/v1/user/sessions", { schema: SessionsWire }), client.call("/v1/user/two-factor", { schema: TwoFactorWire })]);
  return { sessions: sessions.sessions, twoFactor };
}

const PHOTO_MAX_BYTES = 5 * 1024 * 1024;
const PasswordForm = z.object({
  current_password: z.string().min(1, "Please enter your current password.").max(PASSWORD_MAX),
  new_password: z.string().min(PASSWORD_MIN, messages.passwordTooShort).max(PASSWORD_MAX, messages.passwordTooLong),
});

type Result = ActionFailure | { ok: true; intent: string; message: string };

export async function action({ request, context }: ActionFunctionArgs) {
  const { client, form } = await v1Form(request, context);
  const intent = String(form.get("intent") ?? "");
  try {
    switch (intent) {
      case "name": {
        const name = String(form.get("first_name") ?? "").trim().slice(0, 80);
        await client.call("/v1/user/profile", { method: "PATCH", body: { first_name: name || null }, schema: OkWire });
        return { ok: true, intent, message: "Name saved." } satisfies Result;
      }
      case "photo": {
        const file = form.get("photo");
        if (!(file instanceof File) || file.size === 0) return data<ActionFailure>({ ok: false, intent, error: "Choose an image to upload." }, { status: 400 });
        if (file.size > PHOTO_MAX_BYTES) return data<ActionFailure>({ ok: false, intent, error: "The photo must be at most 5 MB." }, { status: 413 });
        await client.send("/v1/user/photo", { method: "PUT", body: new Uint8Array(await file.arrayBuffer()), contentType: file.type || "application/octet-stream", schema: z.object({ photo_url: z.string() }) });
        return { ok: true, intent, message: "Photo updated." } satisfies Result;
      }
      case "remove-photo":
        await client.call("/v1/user/photo", { method: "DELETE", schema: OkWire });
        return { ok: true, intent, message: "Photo removed." } satisfies Result;
      case "password": {
        const p = PasswordForm.safeParse({ current_password: form.get("current_password") ?? "", new_password: form.get("new_password") ?? "" });
        if (!p.success) return data<ActionFailure>({ ok: false, intent, error: p.error.issues[0].message }, { status: 400 });
        const r = await client.call("/v1/user/password", { method: "POST", body: p.data, schema: OkWire.extend({ signed_out_sessions: z.number() }) });
        return { ok: true, intent, message: `Password changed. ${r.signed_out_sessions ? `Signed out ${r.signed_out_sessions} other ${r.signed_out_sessions === 1 ? "session" : "sessions"}.` : ""}`.trim() } satisfies Result;
      }
      case "sign-out-others": {
        const r = await client.call("/v1/user/sessions/sign-out-others", { method: "POST", schema: OkWire.extend({ signed_out_sessions: z.number() }) });
        return { ok: true, intent, message: `Signed out ${r.signed_out_sessions} other ${r.signed_out_sessions === 1 ? "session" : "sessions"}.` } satisfies Result;
      }
      case "sign-out-session":
        await client.call(`/v1/user/sessions/${encodeURIComponent(String(form.get("session_id") ?? ""))}`, { method: "DELETE", schema: OkWire });
        return { ok: true, intent, message: "Session signed out." } satisfies Result;
      default:
        return data<ActionFailure>({ ok: false, intent, error: "Unknown action." }, { status: 400 });
    }
  } catch (e) {
    return refusal(e, intent);
  }
}

function browserName(ua: string): string {
  const b = /Edg\//.test(ua) ? "Edge" : /Firefox\//.test(ua) ? "Firefox" : /Chrome\//.test(ua) ? "Chrome" : /Safari\//.test(ua) ? "Safari" : ua ? ua.slice(0, 40) : "Unknown browser";
  const os = /Android/.test(ua) ? "Android" : /iPhone|iPad/.test(ua) ? "iOS" : /Mac OS X/.test(ua) ? "macOS" : /Windows/.test(ua) ? "Windows" : /Linux/.test(ua) ? "Linux" : "";
  return os ? `${b} on ${os}` : b;
}

export default function Profile() {
  const shell = useShell();
  const { sessions, twoFactor } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as Result | undefined;
  const navigation = useNavigation();
  const toast = useToast();
  const busy = (intent: string) => navigation.formData?.get("intent") === intent;
  useEffect(() => {
    if (result?.ok) toast.show({ message: result.message, kind: "success" });
  }, [result, toast]);
  if (!shell) return null;
  const error = (intent: string) => (result && !result.ok && result.intent === intent ? result.error : null);

  return (
    <Page title="Profile" description="Your account on this server.">
      <section className="card" aria-labelledby="profile-title">
        <h2 id="profile-title">Your details</h2>
        <div className="photo-row">
          <span className="photo-large">
            <Avatar name={shell.user.displayName ?? shell.user.email} photoUrl={shell.user.photoUrl} />
          </span>
          <Form method="post" encType="multipart/form-data" className="stack-form">
            <CsrfInput />
            <input type="hidden" name="intent" value="photo" />
            <label htmlFor="photo-file">Photo (PNG or JPEG, up to 5 MB)</label>
            <input id="photo-file" name="photo" type="file" accept="image/png,image/jpeg" />
            <div className="row-form">
              <button type="submit" className="button button-small" disabled={busy("photo")}>
                {busy("photo") ? "Uploading…" : "Upload photo"}
              </button>
            </div>
            <FormError id="photo-error" message={error("photo")} />
          </Form>
          {shell.user.photoUrl && (
            <Form method="post">
              <CsrfInput />
              <input type="hidden" name="intent" value="remove-photo" />
              <button type="submit" className="button button-small button-danger-outline">
                Remove photo
              </button>
            </Form>
          )}
        </div>
        <Form method="post" className="inline-form">
          <CsrfInput />
          <input type="hidden" name="intent" value="name" />
          <Field name="first_name" label="Display name" defaultValue={shell.user.displayName ?? ""} maxLength={80} />
          <button type="submit" className="button" disabled={busy("name")}>
            Save name
          </button>
        </Form>
        <dl className="details">
          <dt>Email</dt>
          <dd>{shell.user.email}</dd>
          <dt>Workspace</dt>
          <dd>{shell.workspace.name}</dd>
          <dt>Role</dt>
          <dd>{shell.workspace.isAdmin ? "Workspace admin" : "Workspace member"}</dd>
          <dt>User ID</dt>
          <dd>
            <code>{shell.user.id}</code>
          </dd>
        </dl>
      </section>

      <section className="card" aria-labelledby="password-title">
        <h2 id="password-title">Password</h2>
        <Form method="post" className="stack-form" noValidate>
          <CsrfInput />
          <input type="hidden" name="intent" value="password" />
          <Field name="current_password" label="Current password" type="password" autoComplete="current-password" />
          <Field name="new_password" label="New password" type="password" autoComplete="new-password" hint={`At least ${PASSWORD_MIN} characters. Your other sessions are signed out.`} />
          <button type="submit" className="button" disabled={busy("password")}>
            Change password
          </button>
          <FormError id="password-error" message={error("password")} />
        </Form>
      </section>

      <section className="card" aria-labelledby="security-title">
        <h2 id="security-title">Two-factor authentication</h2>
        <p>
          {twoFactor.enabled ? `On. Sign-in asks for a code from your authenticator app. ${twoFactor.backup_codes_left} backup codes left.` : "Off. Turn it on to ask for a code from an authenticator app at sign-in."}
        </p>
        <Link className="button" to="/app/settings/two-factor-authentication">
          {twoFactor.enabled ? "Manage two-factor authentication" : "Set up two-factor authentication"}
        </Link>
      </section>

      <section className="card" aria-labelledby="sessions-title">
        <div className="card-header">
          <h2 id="sessions-title">Sessions</h2>
          {sessions.length > 1 && (
            <Form method="post">
              <CsrfInput />
              <input type="hidden" name="intent" value="sign-out-others" />
              <button type="submit" className="button button-small">
                Sign out all other sessions
              </button>
            </Form>
          )}
        </div>
        <table className="table table-responsive">
          <thead>
            <tr>
              <th scope="col">Browser</th>
              <th scope="col">Signed in</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((s) => (
              <tr key={s.session_id}>
                <td data-label="Browser">
                  {browserName(s.user_agent)} {s.is_current && <span className="badge badge-accent">This session</span>}
                </td>
                <td data-label="Signed in">{formatDateTimeFull(s.created_at_unix)}</td>
                <td className="table-actions">
                  {!s.is_current && (
                    <Form method="post">
                      <CsrfInput />
                      <input type="hidden" name="intent" value="sign-out-session" />
                      <input type="hidden" name="session_id" value={s.session_id} />
                      <button type="submit" className="button button-small">
                        Sign out
                      </button>
                    </Form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </Page>
  );
}
