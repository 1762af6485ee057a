import { Form, useNavigation } from "@remix-run/react";
import { CsrfInput } from "../../components/Csrf.js";

export const EDITORS_SHARE_LABEL = "Editors can share pronunciation dictionaries";

/**
 * Who may share the workspace's pronunciation dictionaries (app-shell.md §2, §8: the workspace setting
 * storing_shared_files_on_user). Off, only a dictionary's owner and admins share it; on, its editors too.
 */
export function SharingSettings({ editorsShare }: { editorsShare: boolean }) {
  const busy = useNavigation().formData?.get("intent") === "sharing";
  return (
    <section className="card" aria-labelledby="sharing-title">
      <h2 id="sharing-title">Sharing</h2>
      <Form method="post" className="stack-form">
        <CsrfInput />
        <input type="hidden" name="intent" value="sharing" />
        <label className="checkbox">
          <input type="checkbox" name="storing_shared_files_on_user" value="on" defaultChecked={editorsShare} key={String(editorsShare)} /> {EDITORS_SHARE_LABEL}
        </label>
        <p className="field-hint">Off, a dictionary is shared by its owner and its admins only. Viewers never share.</p>
        <button type="submit" className="button" disabled={busy}>
          Save
        </button>
      </Form>
    </section>
  );
}
