import { useRef, useState, type FormEvent } from "react";
import { FormActions } from "../FormActions.js";
import { EditVoiceFields, VOICE_DESCRIPTION_MAX } from "../../../../functions/platform/contract/voices.js";
import { apiCallError, v1Fetch } from "../tts/client.js";
import { Dialog } from "../Dialog.js";
import { Field } from "../Field.js";
import { labelRows, labelsError, labelsRecord, type LabelRow } from "./labels.js";
import { LabelsEditor } from "./LabelsEditor.js";
import type { MyVoice } from "./wire.js";

/**
 * Edit a voice: name, description and labels, checked by the API's own schema before sending
 * (POST /v1/voices/{id}/edit, multipart as the SDK sends it).
 */
export function EditVoiceDialog({ voice, onClose, onSaved }: { voice: MyVoice; onClose: () => void; onSaved: () => void }) {
  const [name, setName] = useState(voice.name);
  const [description, setDescription] = useState(voice.description ?? "");
  const [rows, setRows] = useState<LabelRow[]>(() => labelRows(voice.labels));
  const [errors, setErrors] = useState<{ name?: string; description?: string; labels?: string; form?: string }>({});
  const [saving, setSaving] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const labels = labelsRecord(rows);
    const parsed = EditVoiceFields.safeParse({ name, description: description || null, labels });
    const next: typeof errors = {};
    if (!parsed.success) for (const issue of parsed.error.issues) next[issue.path[0] as "name" | "description"] ??= issue.message;
    const labelError = labelsError(rows);
    if (labelError) next.labels = labelError;
    setErrors(next);
    if (Object.keys(next).length || !parsed.success) {
      requestAnimationFrame(() => form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    setSaving(true);
    const body = new FormData();
    body.set("name", parsed.data.name);
    body.set("description", parsed.data.description ?? "");
    body.set("labels", JSON.stringify(labels));
    try {
      const res = await v1Fetch(`/v1/voices/${encodeURIComponent(voice.voice_id)}/edit`, { method: "POST", body });
      if (!res.ok) throw await apiCallError(res);
      onSaved();
    } catch (err) {
      setErrors({ form: err instanceof Error ? err.message : "The voice could not be saved." });
    } finally {
      setSaving(false);
    }
  }

  return (
    <Dialog title="Edit voice" onClose={onClose}>
      <form ref={form} onSubmit={submit} noValidate className="edit-voice-form">
        <Field name="name" label="Name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} error={errors.name} required />
        <div className="field">
          <label htmlFor="edit-voice-description">Description</label>
          <textarea
            id="edit-voice-description"
            value={description}
            rows={3}
            onChange={(e) => setDescription(e.target.value)}
            aria-invalid={errors.description ? true : undefined}
            aria-describedby={errors.description ? "edit-voice-description-error" : "edit-voice-description-count"}
          />
          <p className="field-hint" id="edit-voice-description-count">
            {description.length} / {VOICE_DESCRIPTION_MAX}
          </p>
          {errors.description && (
            <p className="field-error" id="edit-voice-description-error">
              {errors.description}
            </p>
          )}
        </div>
        <LabelsEditor rows={rows} onChange={setRows} error={errors.labels ?? null} />
        <FormActions error={errors.form ?? null} onCancel={onClose} busy={saving} submit={saving ? "Saving…" : "Save"} />
      </form>
    </Dialog>
  );
}
