import { Form, useNavigation } from "@remix-run/react";
import { CsrfInput } from "../../components/Csrf.js";

export const TRAINING_OPT_OUT_LABEL = "Opt out of training use";

/**
 * The workspace's training use (professional-voice-clone.md §2, §6: the setting training_opt_out
 * feeds Voice Data's training-use notice): when on, its samples train only its own voices.
 */
export function TrainingSettings({ optedOut }: { optedOut: boolean }) {
  const busy = useNavigation().formData?.get("intent") === "training";
  return (
    <section className="card" aria-labelledby="training-title">
      <h2 id="training-title">Training use</h2>
      <Form method="post" className="stack-form">
        <CsrfInput />
        <input type="hidden" name="intent" value="training" />
        <label className="checkbox">
          <input type="checkbox" name="training_opt_out" value="on" defaultChecked={optedOut} key={String(optedOut)} /> {TRAINING_OPT_OUT_LABEL}
        </label>
        <p className="field-hint">Samples of this workspace's professional clones then train those voices only; Voice Data tells members so.</p>
        <button type="submit" className="button" disabled={busy}>
          Save
        </button>
      </Form>
    </section>
  );
}
