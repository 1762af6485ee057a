import { SettingForm } from "./SettingForm.js";

export const TRAINING_OPT_OUT_LABEL = "Opt out of training use";

/**
 * The workspace's training use (professional-voice-clone.md §2, §6: the setting training_opt_out
 * feeds Voice Data's training-use notice): when on, its samples train only its own voices.
 */
export function TrainingSettings({ optedOut }: { optedOut: boolean }) {
  return (
    <SettingForm
      id="training-title"
      title="Training use"
      intent="training"
      name="training_opt_out"
      label={TRAINING_OPT_OUT_LABEL}
      checked={optedOut}
      hint="Samples of this workspace's professional clones then train those voices only; Voice Data tells members so."
    />
  );
}
