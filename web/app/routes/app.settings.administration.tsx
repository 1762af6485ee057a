import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import { z } from "zod";
import { CsrfInput } from "../components/Csrf.js";
import { Field, FormError } from "../components/Field.js";
import { Page } from "../components/Page.js";
import { useToast } from "../components/ui/Toast.js";
import { formatDateTimeFull } from "../lib/format.js";
import { getShell } from "../lib/shell.server.js";
import { refusal, v1, v1Form, type ActionFailure } from "../lib/v1.server.js";

export const meta: MetaFunction = () => [{ title: "Server administration · Timbre" }];

const FeedbackWire = z.object({ feedback: z.array(z.object({ feedback_id: z.string(), email: z.string(), feedback: z.string(), category: z.string(), positive: z.boolean(), relevant: z.boolean(), created_at: z.number() })) });

/** For the server's administrators: post to everyone's notification feed, read feedback. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { shell } = await getShell(request, context);
  if (!shell.user.isServerAdmin) throw data({ message: "Only administrators of this server can open this page." }, { status: 403 });
  const { client } = await v1(request, context);
  return { feedback: (await client.call("/v1/feedback", { schema: FeedbackWire })).feedback };
}

const PostSchema = z.object({
  title: z.string().trim().min(1, "A title is required").max(120),
  description: z.string().trim().min(1, "A description is required").max(1000),
  link_to: z.string().trim().max(500),
});

export async function action({ request, context }: ActionFunctionArgs) {
  const { client, form } = await v1Form(request, context);
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
  const { feedback } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const toast = useToast();
  useEffect(() => {
    if (result?.ok) toast.show({ message: result.message, kind: "success" });
  }, [result, toast]);
  return (
    <Page title="Server administration" description="Notifications for every user of this server, and the feedback they sent.">
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
          <FormError id="post-error" message={result && !result.ok ? result.error : null} />
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
