import { Form, useNavigation } from "@remix-run/react";
import { CsrfInput } from "../../components/Csrf.js";

/** One workspace setting switched on or off: a titled card with a checkbox, a hint and Save (the action's `intent`). */
export function SettingForm({ id, title, intent, name, label, checked, hint }: { id: string; title: string; intent: string; name: string; label: string; checked: boolean; hint: string }) {
  const busy = useNavigation().formData?.get("intent") === intent;
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <Form method="post" className="stack-form">
        <CsrfInput />
        <input type="hidden" name="intent" value={intent} />
        <label className="checkbox">
          <input type="checkbox" name={name} value="on" defaultChecked={checked} key={String(checked)} /> {label}
        </label>
        <p className="field-hint">{hint}</p>
        <button type="submit" className="button" disabled={busy}>
          Save
        </button>
      </Form>
    </section>
  );
}
