import { Form, Link } from "@remix-run/react";
import { CsrfInput } from "../Csrf.js";
import { progressText, widgetVisible, type Checklist } from "./checklist.js";

export function Progress({ c }: { c: Checklist }) {
  const percent = c.total_count ? Math.round((c.completed_count / c.total_count) * 100) : 0;
  return (
    <>
      <p className="small">{progressText(c)}</p>
      <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={c.total_count} aria-valuenow={c.completed_count} aria-label={progressText(c)}>
        <div className="progress-bar" style={{ width: `${percent}%` }} />
      </div>
    </>
  );
}

/** Home's checklist card: progress, the next open step, the full list, and Hide. */
export function ChecklistWidget({ checklist }: { checklist: Checklist | null }) {
  if (!checklist || !widgetVisible(checklist)) return null;
  const next = checklist.items.find((i) => !i.is_completed);
  return (
    <section className="card checklist-widget" aria-labelledby="checklist-widget-title">
      <div className="card-header">
        <h2 id="checklist-widget-title">Getting started</h2>
        <Form method="post" action="/app/onboarding-checklist">
          <CsrfInput />
          <input type="hidden" name="intent" value="hide" />
          <button type="submit" className="button button-small">
            Hide
          </button>
        </Form>
      </div>
      <Progress c={checklist} />
      {next && (
        <p>
          Next: <strong>{next.title}</strong>. {next.description}
        </p>
      )}
      <div className="row-form">
        {next && (
          <Link className="button button-primary button-small" to={next.to}>
            {next.button}
          </Link>
        )}
        <Link className="button button-small" to="/app/onboarding-checklist">
          See all steps
        </Link>
      </div>
    </section>
  );
}
