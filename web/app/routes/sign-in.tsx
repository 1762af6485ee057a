import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useRef, useState } from "react";
import { SignInSchema } from "../../../functions/contract/accounts.js";
import { AuthLayout } from "../components/AuthLayout.js";
import { CsrfInput } from "../components/Csrf.js";
import { Field, FormError, useFocusOnError } from "../components/Field.js";
import { api, ApiFailure, SessionWire } from "../lib/api.server.js";
import { requireCsrf } from "../lib/csrf.server.js";
import { fieldErrors, formFields, type FieldErrors } from "../lib/forms.js";
import { safeRedirect } from "../lib/redirect.js";
import { getAuth, startSession } from "../lib/session.server.js";

export const meta: MetaFunction = () => [{ title: "Sign in · Timbre" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  if (await getAuth(request, context)) throw redirect(safeRedirect(url.searchParams.get("redirectTo")));
  return { signupEnabled: context.signupEnabled };
}

const FIELDS = ["email", "password"] as const;

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  await requireCsrf(request, context, form);
  const parsed = SignInSchema.safeParse(formFields(form, FIELDS));
  const email = typeof form.get("email") === "string" ? String(form.get("email")) : "";
  if (!parsed.success) return data({ fields: fieldErrors(parsed.error), formError: null, email }, { status: 400 });
  try {
    const s = await api(context, request).call("/v1/auth/sign-in", { method: "POST", body: parsed.data, schema: SessionWire });
    const cookie = await startSession(context, { session_id: s.session_id, user_id: s.user_id, workspace_id: s.workspace_id });
    return redirect(safeRedirect(form.get("redirectTo")), { headers: { "Set-Cookie": cookie } });
  } catch (e) {
    // Wrong credentials (401) and the failed-attempt limit (429) carry the messages to show.
    if (e instanceof ApiFailure && (e.status === 401 || e.status === 429 || e.status === 422)) {
      return data({ fields: e.fields as FieldErrors, formError: e.message, email }, { status: e.status });
    }
    throw e;
  }
}

export default function SignIn() {
  const { signupEnabled } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const errors: FieldErrors = clientErrors ?? actionData?.fields ?? {};
  const formError = clientErrors ? null : actionData?.formError;
  useFocusOnError(formRef, clientErrors ?? actionData, passwordRef);

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
