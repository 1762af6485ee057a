import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { z } from "zod";
import { SignInSchema } from "../../../functions/platform/contract/accounts.js";
import { AuthLayout } from "../components/AuthLayout.js";
import { CsrfInput } from "../components/Csrf.js";
import { Field, FormError, useFocusOnError } from "../components/Field.js";
import { api, ApiFailure, SessionWire } from "../lib/api.server.js";
import { requireCsrf } from "../lib/csrf.server.js";
import { fieldErrors, formFields, type FieldErrors } from "../lib/forms.js";
import { safeRedirect } from "../lib/redirect.js";
import { getAuth, startSession } from "../lib/session.server.js";
import { readForm } from "../lib/form.server.js";

export const meta: MetaFunction = () => [{ title: "Sign in · Timbre" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  if (await getAuth(request, context)) throw redirect(safeRedirect(url.searchParams.get("redirectTo")));
  return { signupEnabled: context.signupEnabled };
}

const FIELDS = ["email", "password"] as const;

const SignInAnswer = z.union([SessionWire, z.object({ two_factor_required: z.literal(true), challenge: z.string() })]);
const CodeSchema = z.object({ code: z.string().trim().min(1, "Please enter the code.").max(32), challenge: z.string().min(1).max(1024) });

type ActionData = { fields: FieldErrors; formError: string | null; email: string; challenge?: string };

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  await requireCsrf(request, context, form);
  const email = typeof form.get("email") === "string" ? String(form.get("email")) : "";
  const finish = async (s: z.infer<typeof SessionWire>) => {
    const cookie = await startSession(context, { session_id: s.session_id, user_id: s.user_id, workspace_id: s.workspace_id });
    return redirect(safeRedirect(form.get("redirectTo")), { headers: { "Set-Cookie": cookie } });
  };

  // The second step: a code from the authenticator app (or a backup code) for the challenge.
  if (form.get("intent") === "code") {
    const code = CodeSchema.safeParse(formFields(form, ["code", "challenge"]));
    if (!code.success) return data<ActionData>({ fields: fieldErrors(code.error), formError: null, email, challenge: String(form.get("challenge") ?? "") }, { status: 400 });
    try {
      return await finish(await api(context, request).call("/v1/auth/sign-in/two-factor", { method: "POST", body: code.data, schema: SessionWire }));
    } catch (e) {
      if (e instanceof ApiFailure && e.status === 401) return data<ActionData>({ fields: {}, formError: e.message, email }, { status: 401 });
      if (e instanceof ApiFailure && (e.status === 400 || e.status === 429)) return data<ActionData>({ fields: { code: e.message }, formError: null, email, challenge: code.data.challenge }, { status: e.status });
      throw e;
    }
  }

  const parsed = SignInSchema.safeParse(formFields(form, FIELDS));
  if (!parsed.success) return data<ActionData>({ fields: fieldErrors(parsed.error), formError: null, email }, { status: 400 });
  try {
    const s = await api(context, request).call("/v1/auth/sign-in", { method: "POST", body: parsed.data, schema: SignInAnswer });
    if ("two_factor_required" in s) return data<ActionData>({ fields: {}, formError: null, email, challenge: s.challenge });
    return await finish(s);
  } catch (e) {
    // Wrong credentials (401) and the failed-attempt limit (429) carry the messages to show.
    if (e instanceof ApiFailure && (e.status === 401 || e.status === 429 || e.status === 422)) {
      return data<ActionData>({ fields: e.fields as FieldErrors, formError: e.message, email }, { status: e.status });
    }
    throw e;
  }
}

/** Two-factor sign-in: the code field after a right password. */
function CodeStep({ challenge, error, redirectTo }: { challenge: string; error: string | undefined; redirectTo: string }) {
  const navigation = useNavigation();
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => ref.current?.focus(), [error]);
  return (
    <AuthLayout title="Two-factor authentication" footer={<p><Link to="/sign-in">Start again</Link></p>}>
      <Form method="post" noValidate>
        <CsrfInput />
        <input type="hidden" name="intent" value="code" />
        <input type="hidden" name="challenge" value={challenge} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Field ref={ref} name="code" label="Authentication code" inputMode="numeric" autoComplete="one-time-code" required hint="Enter the 6-digit code from your authenticator app, or one of your backup codes." error={error} />
        <button type="submit" className="button button-primary button-block" disabled={navigation.state === "submitting"}>
          {navigation.state === "submitting" ? "Checking…" : "Verify and sign in"}
        </button>
      </Form>
    </AuthLayout>
  );
}

export default function SignIn() {
  const { signupEnabled } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const errors: FieldErrors = clientErrors ?? actionData?.fields ?? {};
  const formError = clientErrors ? null : actionData?.formError;
  useFocusOnError(formRef, clientErrors ?? actionData, passwordRef);

  if (actionData?.challenge) return <CodeStep challenge={actionData.challenge} error={actionData.fields.code} redirectTo={params.get("redirectTo") ?? ""} />;

  return (
    <AuthLayout
      title="Sign in"
      footer={signupEnabled ? <p>New to Timbre? <Link to="/sign-up">Create an account</Link></p> : <p>Sign-up is disabled on this server.</p>}
    >
      <Form
        ref={formRef}
        method="post"
        noValidate
        aria-describedby={formError ? "sign-in-error" : undefined}
        onSubmit={(e) => {
          const r = SignInSchema.safeParse(formFields(new FormData(e.currentTarget), FIELDS));
          if (r.success) return setClientErrors(null);
          e.preventDefault();
          setClientErrors(fieldErrors(r.error));
        }}
      >
        <CsrfInput />
        <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? ""} />
        <FormError id="sign-in-error" message={formError} />
        <Field name="email" label="Email" type="email" autoComplete="email" required defaultValue={actionData?.email} error={errors.email} />
        <Field ref={passwordRef} name="password" label="Password" type="password" autoComplete="current-password" required error={errors.password} />
        <button type="submit" className="button button-primary button-block" disabled={navigation.state === "submitting"}>
          {navigation.state === "submitting" ? "Signing in…" : "Sign in"}
        </button>
      </Form>
    </AuthLayout>
  );
}
