import { useState, type FormEvent } from "react";
import { FormActions } from "../FormActions.js";
import { DESCRIPTIVES, MAX_DESCRIPTIVES, NOTICE_PERIOD_DAYS, PublishVoiceBody, RATE_MAX, RATE_MIN, USE_CASES } from "../../../../functions/platform/contract/voices.js";
import { apiCallError, v1Fetch } from "../tts/client.js";
import { Dialog } from "../Dialog.js";
import { SelectField } from "./SelectField.js";
import { formatNoticePeriod, readable } from "./library.js";
import type { MyVoice } from "./wire.js";

const title = (s: string) => readable(s).replace(/^./, (c) => c.toUpperCase());

/**
 * Share one of your voices to the Voice Library (Timbre's POST /v1/voices/{id}/sharing): the use
 * case, one to three descriptive tags, the notice period adders keep it for if you remove it, an
 * optional credit rate, and whether free plans and live moderation apply. The API's schema
 * checks the form first.
 */
export function ShareVoiceDialog({ voice, onClose, onShared }: { voice: MyVoice; onClose: () => void; onShared: () => void }) {
  const current = voice.sharing?.status === "enabled" ? voice.sharing : null;
  const [useCase, setUseCase] = useState<string>(voice.labels.use_case ?? "");
  const [descriptives, setDescriptives] = useState<string[]>(voice.labels.descriptive ? [voice.labels.descriptive] : []);
  const [notice, setNotice] = useState<number>(current?.notice_period ?? 30);
  const [rate, setRate] = useState<string>(current?.rate ? String(current.rate) : "");
  const [freeUsers, setFreeUsers] = useState(current?.free_users_allowed ?? true);
  const [moderation, setModeration] = useState(current?.live_moderation_enabled ?? false);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  function toggle(d: string) {
    setDescriptives((list) => (list.includes(d) ? list.filter((x) => x !== d) : list.length >= MAX_DESCRIPTIVES ? list : [...list, d]));
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = PublishVoiceBody.safeParse({
      use_case: useCase || undefined,
      descriptives,
      notice_period: notice,
      rate: rate.trim() ? Number(rate) : null,
      free_users_allowed: freeUsers,
      live_moderation_enabled: moderation,
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = String(issue.path[0]);
      setError(
        field === "use_case"
          ? "Please choose a use case."
          : field === "descriptives"
            ? `Please choose 1 to ${MAX_DESCRIPTIVES} descriptive tags.`
            : field === "rate"
              ? `The rate must be between ${RATE_MIN} and ${RATE_MAX}.`
              : issue.message,
      );
      return;
    }
    setSaving(true);
    setError(null);
    try {
      const res = await v1Fetch(`/v1/voices/${encodeURIComponent(voice.voice_id)}/sharing`, { method: "POST", body: JSON.stringify(parsed.data) });
      if (!res.ok) throw await apiCallError(res);
      onShared();
    } catch (err) {
      setError(err instanceof Error ? err.message : "The voice could not be shared.");
    } finally {
      setSaving(false);
    }
  }

  return (
    <Dialog title={current ? "Library settings" : "Share to the Voice Library"} onClose={onClose}>
      <form onSubmit={submit} noValidate className="share-voice-form">
        <p className="muted">Everyone on this server can find, preview and add a shared voice. You can remove it later; those who added it keep it for the notice period.</p>
        <SelectField label="Use case" value={useCase} onChange={(e) => setUseCase(e.target.value)}>
            <option value="">Choose…</option>
            {USE_CASES.map((u) => (
              <option key={u} value={u}>
                {title(u)}
              </option>
            ))}
          </SelectField>
        <fieldset className="library-checks library-descriptives">
          <legend>
            Descriptive tags ({descriptives.length} of {MAX_DESCRIPTIVES})
          </legend>
          {DESCRIPTIVES.map((d) => (
            <label key={d} className="toggle-row">
              <input type="checkbox" checked={descriptives.includes(d)} disabled={!descriptives.includes(d) && descriptives.length >= MAX_DESCRIPTIVES} onChange={() => toggle(d)} />
              {title(d)}
            </label>
          ))}
        </fieldset>
        <SelectField label="Notice period" value={notice} onChange={(e) => setNotice(Number(e.target.value))}>
            {NOTICE_PERIOD_DAYS.map((d) => (
              <option key={d} value={d}>
                {formatNoticePeriod(d)}
              </option>
            ))}
          </SelectField>
        <label className="library-select">
          <span>Credit rate (optional, {RATE_MIN} to {RATE_MAX})</span>
          <input type="number" inputMode="decimal" min={RATE_MIN} max={RATE_MAX} step={0.01} value={rate} onChange={(e) => setRate(e.target.value)} />
        </label>
        <label className="toggle-row">
          <input type="checkbox" checked={freeUsers} onChange={(e) => setFreeUsers(e.target.checked)} />
          Free plans may use it
        </label>
        <label className="toggle-row">
          <input type="checkbox" checked={moderation} onChange={(e) => setModeration(e.target.checked)} />
          Moderate what is generated with it
        </label>
        <FormActions error={error} onCancel={onClose} busy={saving} submit={saving ? "Sharing…" : current ? "Save" : "Share"} />
      </form>
    </Dialog>
  );
}
