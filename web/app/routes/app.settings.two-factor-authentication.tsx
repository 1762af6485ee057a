import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { CopyButton } from "../components/CopyButton.js";
import { CsrfInput } from "../components/Csrf.js";
import { Field, FormError } from "../components/Field.js";
import { Page } from "../components/Page.js";
import { OkWire } from "../lib/api.server.js";
import { refusal, v1, v1Form, type ActionFailure } from "../lib/v1.server.js";

export const meta: MetaFunction = () => [{ title: "Two-factor authentication · Timbre" }];

const StatusWire = z.object({ enabled: z.boolean(), enabled_at_unix: z.number().nullable(), backup_codes_left: z.number() });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { client } = await v1(request, context);
  return client.call("/v1/user/two-factor", { schema: StatusWire });
}

type Result =
  | ActionFailure
  | { ok: true; intent: "setup"; secret: string; otpauth_url: string }
  | { ok: true; intent: "enable" | "backup-codes"; backup_codes: string[] }
  | { ok: true; intent: "disable" };

export async function action({ request, context }: ActionFunctionArgs) {
  const { client, form } = await v1Form(request, context);
  const intent = String(form.get("intent") ?? "");
  const code = String(form.get("code") ?? "").trim();
  try {
    if (intent === "setup") {
      const r = await client.call("/v1/user/two-factor/setup", { method: "POST", schema: z.object({ secret: z.string(), otpauth_url: z.string() }) });
      return { ok: true, intent, ...r } satisfies Result;
    }
    if (!code) return data<ActionFailure>({ ok: false, intent, error: "Please enter the code." }, { status: 400 });
    if (intent === "enable" || intent === "backup-codes") {
      const r = await client.call(`/v1/user/two-factor/${intent === "enable" ? "enable" : "backup-codes"}`, { method: "POST", body: { code }, schema: z.object({ backup_codes: z.array(z.string()) }) });
      return { ok: true, intent, backup_codes: r.backup_codes } satisfies Result;
    }
    if (intent === "disable") {
      await client.call("/v1/user/two-factor/disable", { method: "POST", body: { code, password: String(form.get("password") ?? "") }, schema: OkWire });
      return { ok: true, intent } satisfies Result;
    }
    return data<ActionFailure>({ ok: false, intent, error: "Unknown action." }, { status: 400 });
  } catch (e) {
    // A wrong first code keeps the setup on screen (the key is echoed from the form).
    if (intent === "enable") {
      const r = refusal(e, intent);
      return data({ ...r.data, secret: String(form.get("secret") ?? ""), otpauth_url: String(form.get("otpauth_url") ?? "") }, { status: r.init?.status ?? 400 });
    }
    return refusal(e, intent);
  }
}

function BackupCodes({ codes }: { codes: string[] }) {
  return (
    <section className="card new-key" aria-labelledby="codes-title">
      <h2 id="codes-title">Backup codes</h2>
      <p className="warning" role="status">
        Keep these somewhere safe: each signs you in once if you lose your authenticator. They will not be shown again.
      </p>
      <ul className="codes" data-testid="backup-codes">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <CopyButton value={codes.join("\n")} label="Copy codes" />
    </section>
  );
}

/** The two-factor authentication settings (speech-generation.md §2 lists the route). */
export default function TwoFactor() {
  const status = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as Result | undefined;
  const busy = useNavigation().state === "submitting";
  const error = result && !result.ok ? result.error : null;
  const echoed = result as (ActionFailure & { secret?: string; otpauth_url?: string }) | undefined;
  const setup = result?.ok && result.intent === "setup" ? result : echoed && !echoed.ok && echoed.intent === "enable" && echoed.secret ? { secret: echoed.secret, otpauth_url: echoed.otpauth_url ?? "" } : undefined;

  return (
    <Page title="Two-factor authentication" description="A code from an authenticator app at sign-in, besides your password.">
      <p>
        <Link to="/app/settings/profile" className="back-link">← Profile</Link>
      </p>
      {result?.ok && (result.intent === "enable" || result.intent === "backup-codes") && <BackupCodes codes={result.backup_codes} />}
      {status.enabled ? (
        <>
          <section className="card" aria-labelledby="on-title">
            <h2 id="on-title">Two-factor authentication is on</h2>
            <p>{status.backup_codes_left} backup codes left.</p>
            <Form method="post" className="inline-form" noValidate>
              <CsrfInput />
              <input type="hidden" name="intent" value="backup-codes" />
              <Field name="code" label="Code from your app" inputMode="numeric" autoComplete="one-time-code" />
              <button type="submit" className="button" disabled={busy}>
                New backup codes
              </button>
            </Form>
          </section>
          <section className="card" aria-labelledby="off-title">
            <h2 id="off-title">Turn it off</h2>
            <Form method="post" className="stack-form" noValidate>
              <CsrfInput />
              <input type="hidden" name="intent" value="disable" />
              <Field name="password" label="Password" type="password" autoComplete="current-password" />
              <Field name="code" id="disable-code" label="Code from your app, or a backup code" autoComplete="one-time-code" />
              <button type="submit" className="button button-danger" disabled={busy}>
                Turn off two-factor authentication
              </button>
            </Form>
          </section>
          <FormError id="two-factor-error" message={error} />
        </>
      ) : setup ? (
        <section className="card" aria-labelledby="setup-title">
          <h2 id="setup-title">Scan or enter this key</h2>
          <p>Add an account in your authenticator app (any app that supports TOTP) with this key, or open the link on a phone that has one.</p>
          <div className="secret-row">
            <code className="secret" data-testid="totp-secret">
              {setup.secret}
            </code>
            <CopyButton value={setup.secret} label="Copy key" />
            <a className="button button-small" href={setup.otpauth_url}>
              Open in authenticator
            </a>
          </div>
          <Form method="post" className="inline-form" noValidate>
            <CsrfInput />
            <input type="hidden" name="intent" value="enable" />
            <input type="hidden" name="secret" value={setup.secret} />
            <input type="hidden" name="otpauth_url" value={setup.otpauth_url} />
            <Field name="code" label="Code from your app" inputMode="numeric" autoComplete="one-time-code" error={error ?? undefined} />
            <button type="submit" className="button button-primary" disabled={busy}>
              Turn on
            </button>
          </Form>
        </section>
      ) : (
        <section className="card" aria-labelledby="start-title">
          <h2 id="start-title">Two-factor authentication is off</h2>
          <Form method="post">
            <CsrfInput />
            <input type="hidden" name="intent" value="setup" />
            <button type="submit" className="button button-primary" disabled={busy}>
              Set up two-factor authentication
            </button>
          </Form>
          <FormError id="two-factor-error" message={error} />
        </section>
      )}
    </Page>
  );
}
