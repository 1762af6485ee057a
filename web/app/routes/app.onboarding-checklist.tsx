import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { CsrfInput } from "../components/Csrf.js";
import { Page } from "../components/Page.js";
import { Progress } from "../components/onboarding/ChecklistWidget.js";
import { ChecklistWire } from "../components/onboarding/checklist.js";
import { OkWire } from "../lib/api.server.js";
import { docsPath } from "../lib/links.js";
import { useShell } from "../lib/shell.js";
import { v1, v1Form } from "../lib/v1.server.js";

export const meta: MetaFunction = () => [{ title: "Getting started · Timbre" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { client } = await v1(request, context);
  return client.call("/v1/user/onboarding-checklist", { schema: ChecklistWire });
}

/** Hide or show the checklist widget. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { client, form } = await v1Form(request, context);
  const hidden = form.get("intent") === "hide";
  await client.call("/v1/user/onboarding-checklist", { method: "PATCH", body: { hidden }, schema: OkWire });
  const back = request.headers.get("referer");
  return redirect(back && new URL(back).origin === new URL(request.url).origin ? new URL(back).pathname : "/app/onboarding-checklist");
}

/** The onboarding checklist page (app-shell.md §2): greeting, progress, the steps, and the congratulations. */
export default function OnboardingChecklist() {
  const shell = useShell();
  const c = useLoaderData<typeof loader>();
  const name = shell?.user.displayName;
  return (
    <Page title={name ? `Welcome to Timbre, ${name}` : "Welcome to Timbre"} description="A few steps to get the most out of your workspace.">
      <Progress c={c} />
      {c.is_completed && (
        <section className="card callout" aria-labelledby="congrats-title">
          <h2 id="congrats-title">Congratulations, you have completed every step!</h2>
          <p>
            Keep going with the <Link to={docsPath("guides")}>documentation</Link> or visit the <Link to={docsPath("help-center")}>help centre</Link>.
          </p>
        </section>
      )}
      <ul className="checklist">
        {c.items.map((i) => (
          <li key={i.onboarding_checklist_item_id}>
            <details open={!i.is_completed && c.items.find((x) => !x.is_completed) === i}>
              <summary>
                <span className={i.is_completed ? "step-done" : "muted"} aria-hidden="true">
                  {i.is_completed ? "✓" : "○"}
                </span>
                {i.title}
                {i.is_completed && <span className="badge">Completed</span>}
              </summary>
              <p>{i.description}</p>
              {i.is_completed ? (
                <button type="button" className="button button-small" disabled>
                  Completed
                </button>
              ) : (
                <Link className="button button-small button-primary" to={i.to}>
                  {i.button}
                </Link>
              )}
            </details>
          </li>
        ))}
      </ul>
      <Form method="post">
        <CsrfInput />
        <input type="hidden" name="intent" value={c.hidden ? "show" : "hide"} />
        <button type="submit" className="button button-small">
          {c.hidden ? "Show the checklist on Home" : "Hide the checklist on Home"}
        </button>
      </Form>
    </Page>
  );
}
