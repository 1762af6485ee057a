import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useRef, useState } from "react";
import { SignUpSchema, PASSWORD_MIN } from "../../../functions/platform/contract/accounts.js";
import { AuthLayout } from "../components/AuthLayout.js";
import { CsrfInput } from "../components/Csrf.js";
import { Field, FormError, useFocusOnError } from "../components/Field.js";
import { api, ApiFailure, SessionWire } from "../lib/api.server.js";
import { requireCsrf } from "../lib/csrf.server.js";
import { fieldErrors, formFields, type FieldErrors } from "../lib/forms.js";
import { getAuth, startSession } from "../lib/session.server.js";
import { readForm } from "../lib/form.server.js";

export const meta: MetaFunction = () => [{ title: "Create your account · Timbre" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (await getAuth(request, context)) throw redirect("/app");
  return { signupEnabled: context.signupEnabled };
}

const FIELDS = ["email", "password", "first_name"] as const;

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  await requireCsrf(request, context, form);
  const values = formFields(form, FIELDS);
  const echo = { email: values.email ?? "", first_name: values.first_name ?? "" };
  const parsed = SignUpSchema.safeParse(values);
  if (!parsed.success) return data({ fields: fieldErrors(parsed.error), formError: null, values: echo }, { status: 400 });
  try {
    const body = { email: parsed.data.email, password: parsed.data.password, first_name: parsed.data.first_name || undefined };
    const s = await api(context, request).call("/v1/auth/sign-up", { method: "POST", body, schema: SessionWire });
    const cookie = await startSession(context, { session_id: s.session_id, user_id: s.user_id, workspace_id: s.workspace_id });
    return redirect("/app", { headers: { "Set-Cookie": cookie } });
  } catch (e) {
    if (!(e instanceof ApiFailure)) throw e;
    if (e.code === "email_taken") return data({ fields: { email: e.message } as FieldErrors, formError: null, values: echo }, { status: 409 });
    if (e.status === 422) return data({ fields: e.fields as FieldErrors, formError: null, values: echo }, { status: 422 });
    if (e.status === 403 || e.status === 429) return data({ fields: {} as FieldErrors, formError: e.message, values: echo }, { status: e.status });
    throw e;
  }
}

export default function SignUp() {
  const { signupEnabled } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const errors: FieldErrors = clientErrors ?? actionData?.fields ?? {};
  const formError = clientErrors ? null : actionData?.formError;
  useFocusOnError(formRef, clientErrors ?? actionData);

  if (!signupEnabled) {
    return (
      <AuthLayout title="Create your account" footer={<p>Already have an account? <Link to="/sign-in">Sign in</Link></p>}>
        <p role="status">Sign-up is disabled on this server. Ask its administrator for an account.</p>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Create your account" footer={<p>Already have an account? <Link to="/sign-in">Sign in</Link></p>}>
      <Form
        ref={formRef}
        method="post"
        noValidate
        onSubmit={(e) => {
          const r = SignUpSchema.safeParse(formFields(new FormData(e.currentTarget), FIELDS));
          if (r.success) return setClientErrors(null);
          e.preventDefault();
          setClientErrors(fieldErrors(r.error));
        }}
      >
        <CsrfInput />
        <FormError id="sign-up-error" message={formError} />
        <Field name="first_name" label="First name (optional)" type="text" autoComplete="given-name" defaultValue={actionData?.values.first_name} error={errors.first_name} />
        <Field name="email" label="Email" type="email" autoComplete="email" required defaultValue={actionData?.values.email} error={errors.email} />
        <Field name="password" label="Password" type="password" autoComplete="new-password" required hint={`At least ${PASSWORD_MIN} characters.`} error={errors.password} />
        <button type="submit" className="button button-primary button-block" disabled={navigation.state === "submitting"}>
          {navigation.state === "submitting" ? "Creating your account…" : "Create account"}
        </button>
      </Form>
    </AuthLayout>
  );
}
