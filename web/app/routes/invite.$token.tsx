import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useParams } from "@remix-run/react";
import { z } from "zod";
import { PASSWORD_MAX, PASSWORD_MIN, messages } from "../../../functions/platform/contract/accounts.js";
import { AuthLayout } from "../components/AuthLayout.js";
import { CsrfInput } from "../components/Csrf.js";
import { Field, FormError } from "../components/Field.js";
import { api, ApiFailure, OkWire, SessionWire, UserWire } from "../lib/api.server.js";
import { requireCsrf } from "../lib/csrf.server.js";
import { getAuth, startSession } from "../lib/session.server.js";
import { readForm } from "../lib/form.server.js";

export const meta: MetaFunction = () => [{ title: "Join a workspace · Timbre" }];

const InviteWire = z.object({ email: z.string(), workspace_name: z.string(), has_account: z.boolean(), expires_at_unix: z.number() });

/**
 * An invite link (issue 13 §1): a new person signs up and joins; someone with an account signs in
 * (and comes back here) or, signed in already as the invited address, joins with one click.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const token = params.token ?? "";
  let invite: z.infer<typeof InviteWire>;
  try {
    invite = await api(context, request).call(`/v1/invites/${encodeURIComponent(token)}`, { schema: InviteWire });
  } catch (e) {
    if (e instanceof ApiFailure && e.status < 500) return { state: "invalid" as const, message: e.message };
    throw e;
  }
  const auth = await getAuth(request, context);
  const me = auth ? await api(context, request, auth).call("/v1/user", { schema: UserWire }).catch(() => undefined) : undefined;
  return { state: "valid" as const, invite, signedInAs: me?.email ?? null };
}

const SignUpBody = z.object({
  first_name: z.string().trim().max(80).optional(),
  password: z.string().min(PASSWORD_MIN, messages.passwordTooShort).max(PASSWORD_MAX, messages.passwordTooLong),
});

export async function action({ request, context, params }: ActionFunctionArgs) {
  const form = await readForm(request);
  await requireCsrf(request, context, form);
  const token = params.token ?? "";
  try {
    if (form.get("intent") === "join") {
      const auth = await getAuth(request, context);
      if (!auth) throw redirect(`/sign-in?redirectTo=${encodeURIComponent(`/invite/${token}`)}`);
      const r = await api(context, request, auth).call(`/v1/invites/${encodeURIComponent(token)}/accept`, { method: "POST", schema: OkWire.extend({ workspace_id: z.string() }) });
      // The session now points at the workspace joined.
      const cookie = await startSession(context, { ...auth, workspace_id: r.workspace_id });
      return redirect("/app", { headers: { "Set-Cookie": cookie } });
    }
    const parsed = SignUpBody.safeParse({ first_name: form.get("first_name") ?? undefined, password: form.get("password") ?? "" });
    if (!parsed.success) return data({ error: parsed.error.issues[0].message, field: "password" }, { status: 400 });
    const email = String(form.get("email") ?? "");
    const s = await api(context, request).call("/v1/auth/sign-up", { method: "POST", body: { email, password: parsed.data.password, first_name: parsed.data.first_name || undefined, invite_token: token }, schema: SessionWire });
    const cookie = await startSession(context, { session_id: s.session_id, user_id: s.user_id, workspace_id: s.workspace_id });
    return redirect("/app", { headers: { "Set-Cookie": cookie } });
  } catch (e) {
    if (e instanceof ApiFailure && e.status < 500) return data({ error: e.message, field: null }, { status: e.status });
    throw e;
  }
}

export default function Invite() {
  const loaded = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const token = encodeURIComponent(useParams().token ?? "");

  if (loaded.state === "invalid") {
    return (
      <AuthLayout title="This invite does not work" footer={<p><Link to="/sign-in">Sign in</Link></p>}>
        <p role="status">{loaded.message}</p>
      </AuthLayout>
    );
  }
  const { invite, signedInAs } = loaded;
  const title = `Join ${invite.workspace_name}`;

  if (signedInAs) {
    const same = signedInAs.toLowerCase() === invite.email.toLowerCase();
    return (
      <AuthLayout title={title} footer={<p><Link to="/app">Back to the app</Link></p>}>
        {same ? (
          <Form method="post">
            <CsrfInput />
            <input type="hidden" name="intent" value="join" />
            <p>You are invited to work in {invite.workspace_name}. Joining makes it your current workspace; your own workspace and its voices stay yours.</p>
            <FormError id="join-error" message={result?.error} />
            <button type="submit" className="button button-primary button-block" disabled={busy}>
              {busy ? "Joining…" : `Join ${invite.workspace_name}`}
            </button>
          </Form>
        ) : (
          <p role="status">
            This invite is for {invite.email}, but you are signed in as {signedInAs}. Sign out, then open the link again and sign in with {invite.email}.
          </p>
        )}
      </AuthLayout>
    );
  }

  if (invite.has_account) {
    return (
      <AuthLayout title={title}>
        <p>
          {invite.email} already has an account. Sign in to join {invite.workspace_name}.
        </p>
        <Link className="button button-primary button-block" to={`/sign-in?redirectTo=${encodeURIComponent(`/invite/${token}`)}`}>
          Sign in to join
        </Link>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={title} footer={<p>Already have an account? <Link to="/sign-in">Sign in</Link></p>}>
      <Form method="post" noValidate>
        <CsrfInput />
        <input type="hidden" name="intent" value="sign-up" />
        <p>Create your account to join {invite.workspace_name}.</p>
        <FormError id="invite-error" message={result && !result.field ? result.error : null} />
        <Field name="email" label="Email" type="email" value={invite.email} readOnly />
        <Field name="first_name" label="First name (optional)" type="text" autoComplete="given-name" />
        <Field name="password" label="Password" type="password" autoComplete="new-password" required hint={`At least ${PASSWORD_MIN} characters.`} error={result?.field === "password" ? result.error : undefined} />
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {busy ? "Creating your account…" : "Create account and join"}
        </button>
      </Form>
    </AuthLayout>
  );
}
