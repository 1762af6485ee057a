import { SettingForm } from "./SettingForm.js";

export const EDITORS_SHARE_LABEL = "Editors can share pronunciation dictionaries";

/**
 * Who may share the workspace's pronunciation dictionaries (app-shell.md §2, §8: the workspace setting
 * storing_shared_files_on_user). Off, only a dictionary's owner and admins share it; on, its editors too.
 */
export function SharingSettings({ editorsShare }: { editorsShare: boolean }) {
  return (
    <SettingForm
      id="sharing-title"
      title="Sharing"
      intent="sharing"
      name="storing_shared_files_on_user"
      label={EDITORS_SHARE_LABEL}
      checked={editorsShare}
      hint="Off, a dictionary is shared by its owner and its admins only. Viewers never share."
    />
  );
}
