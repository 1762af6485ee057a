import { Link, useSearchParams } from "@remix-run/react";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { apiCallError, v1Fetch, v1Json } from "../tts/client.js";
import { DEFAULT_VOICE_SETTINGS } from "../tts/settings.js";
import { voiceBadges, voiceDisplayName } from "../tts/voices.js";
import { VoiceSettingsWire, type VoiceSettings } from "../tts/wire.js";
import { formatDate } from "../../lib/format.js";
import { AudioPlayer } from "../audio/AudioPlayer.js";
import { Icon } from "../Icon.js";
import { VoicePreview } from "../tts/VoicePreview.js";
import { VoiceSettingsPanel } from "../tts/VoiceSettingsPanel.js";
import { SkeletonLines } from "../ui/Skeleton.js";
import { useToast } from "../ui/Toast.js";
import { ttsHref } from "./AddToMyVoicesDialog.js";
import { ConfirmDialog } from "./ConfirmDialog.js";
import { EditVoiceDialog } from "./EditVoiceDialog.js";
import { formatNoticePeriod, rateInDollars } from "./library.js";
import { useShell } from "../../lib/shell.js";
import { categoryLabel } from "./myVoices.js";
import { ShareVoiceDialog } from "./ShareVoiceDialog.js";
import { FineTuningPanel } from "../pvc/FineTuningPanel.js";
import { SharingDialog } from "../sharing/SharingDialog.js";
import { voiceUsability } from "./usability.js";
import { cloneActionParams, cloneActions } from "./cloneLinks.js";
import { MyVoiceWire, StatusWire, type Collection, type MyVoice } from "./wire.js";

type Modal = "edit" | "share" | "unshare" | "delete" | "workspace-share" | null;

/** Seconds as m:ss. */
const duration = (s: number | null) => (s === null ? "" : `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, "0")}`);

/**
 * A voice of My Voices in detail: its preview and samples (each plays in the shared player),
 * labels, its settings (saved for the workspace), its collections, and for the voice's owners:
 * edit, share to the library (or stop sharing) and delete, each asking first where it cannot be
 * undone.
 */
export function VoiceDetail({ voiceId, collections, onClose, onChanged, onDeleted }: {
  voiceId: string;
  collections: Collection[];
  onClose: () => void;
  onChanged: (voice: MyVoice) => void;
  onDeleted: (voiceId: string) => void;
}) {
  const toast = useToast();
  const tier = useShell()?.subscription.tier;
  const [params] = useSearchParams();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [voice, setVoice] = useState<MyVoice | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [settings, setSettings] = useState<VoiceSettings>(DEFAULT_VOICE_SETTINGS);
  const [savingSettings, setSavingSettings] = useState(false);
  const [modal, setModal] = useState<Modal>(null);
  const [memberships, setMemberships] = useState<string[]>([]);

  const load = useCallback(async () => {
    setError(null);
    try {
      const v = await v1Json(`/v1/voices/${encodeURIComponent(voiceId)}`, MyVoiceWire);
      setVoice(v);
      setSettings(v.settings ?? DEFAULT_VOICE_SETTINGS);
      setMemberships(v.collection_ids);
      return v;
    } catch (e) {
      setError(e instanceof Error ? e.message : "Error fetching voice");
      return null;
    }
  }, [voiceId]);

  useEffect(() => {
    setVoice(null);
    void load();
  }, [load]);

  useEffect(() => {
    if (voice) heading.current?.focus();
  }, [voice?.voice_id]);

  async function refresh() {
    const v = await load();
    if (v) onChanged(v);
  }

  async function saveSettings() {
    setSavingSettings(true);
    try {
      await v1Json(`/v1/voices/${encodeURIComponent(voiceId)}/settings/edit`, StatusWire, { method: "POST", json: settings });
      const saved = await v1Json(`/v1/voices/${encodeURIComponent(voiceId)}/settings`, VoiceSettingsWire);
      setSettings(saved);
      toast.show({ message: "Voice settings saved" });
    } catch (e) {
      toast.show({ message: e instanceof Error ? e.message : "The settings could not be saved.", kind: "error" });
    } finally {
      setSavingSettings(false);
    }
  }

  async function toggleCollection(c: Collection, member: boolean) {
    const path = `/v1/voices/collections/${encodeURIComponent(c.collection_id)}/voice/${encodeURIComponent(voiceId)}`;
    const apply = (on: boolean) => setMemberships((m) => (on ? [...new Set([...m, c.collection_id])] : m.filter((id) => id !== c.collection_id)));
    // Shown at once; put back if the server refuses.
    apply(member);
    try {
      const res = await v1Fetch(path, { method: member ? "POST" : "DELETE" });
      if (!res.ok) throw await apiCallError(res);
    } catch (e) {
      apply(!member);
      toast.show({ message: e instanceof Error ? e.message : "The collection could not be changed.", kind: "error" });
    }
  }

  const close = (
    <button type="button" className="icon-button" aria-label="Close voice details" onClick={onClose}>
      <Icon name="close" />
    </button>
  );

  if (!voice) {
    return (
      <aside className="voice-detail" aria-label="Voice details" aria-busy={!error}>
        <div className="voice-detail-head">{close}</div>
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : (
          <SkeletonLines lines={6} />
        )}
      </aside>
    );
  }

  const name = voiceDisplayName(voice.name);
  const usability = voiceUsability(voice);
  // Resource roles (the sharing model): editors edit; owners and admins also share, publish and delete.
  const manageable = voice.permission_on_resource === "owner" || voice.permission_on_resource === "admin";
  const editable = manageable || voice.permission_on_resource === "editor";
  const libraryCopy = voice.sharing?.original_voice_id ? voice.sharing : null;
  const published = !libraryCopy && voice.sharing?.status === "enabled" ? voice.sharing : null;
  // The owner sees the rate in dollars too; others the multiplier (speech-generation.md §6).
  const ownerRate = voice.permission_on_resource === "owner" && tier ? tier : null;

  return (
    <aside className="voice-detail" aria-labelledby={headingId} data-testid="voice-detail">
      <div className="voice-detail-head">
        <span className="voice-avatar" aria-hidden="true">
          {name.slice(0, 1).toUpperCase()}
        </span>
        <div className="voice-detail-title">
          <h2 id={headingId} ref={heading} tabIndex={-1}>
            {name}
          </h2>
          <span className="muted">
            {categoryLabel(voice.category)}
            {voice.created_at_unix ? ` · added ${formatDate(voice.created_at_unix)}` : ""}
          </span>
        </div>
        {close}
      </div>

      {!usability.usable && (
        <p className="inline-warning" role="status" data-testid="voice-unusable">
          {usability.reason}
        </p>
      )}
      {voice.description && <p>{voice.description}</p>}
      {voiceBadges(voice.labels).length > 0 && (
        <ul className="voice-badges library-badges" aria-label="Labels">
          {voiceBadges(voice.labels).map((b) => (
            <li key={b} className="badge">
              {b}
            </li>
          ))}
        </ul>
      )}

      <div className="voice-detail-actions">
        {usability.usable && (
          <Link className="button button-primary button-small" to={ttsHref(voice.voice_id)}>
            Use in Text to Speech
          </Link>
        )}
        {editable && (
          <button type="button" className="button button-small" onClick={() => setModal("edit")}>
            Edit
          </button>
        )}
        {editable &&
          !libraryCopy &&
          cloneActions(voice).map((a) => (
            <Link key={a} className="button button-small" to={`?${cloneActionParams(params, voice, a).toString()}`} preventScrollReset data-testid={`clone-${a}`}>
              {a === "edit" ? "Edit clone" : "Verify"}
            </Link>
          ))}
        {manageable && (
          <button type="button" className="button button-small" onClick={() => setModal("workspace-share")}>
            Share
          </button>
        )}
        {manageable && !libraryCopy && (
          <button type="button" className="button button-small" onClick={() => setModal("share")}>
            {published ? "Library settings" : "Share to library"}
          </button>
        )}
        {manageable && published && (
          <button type="button" className="button button-small" onClick={() => setModal("unshare")}>
            Remove from library
          </button>
        )}
        {manageable && (
          <button type="button" className="button button-small button-danger-outline" onClick={() => setModal("delete")}>
            <Icon name="trash" size={16} />
            Delete
          </button>
        )}
      </div>

      {voice.preview_url && (
        <section className="voice-detail-section" aria-label="Preview">
          <h3 className="section-title">Preview</h3>
          <VoicePreview url={voice.preview_url} name={name} />
        </section>
      )}

      <section className="voice-detail-section" aria-label="Samples">
        <h3 className="section-title">Samples</h3>
        {voice.samples.length === 0 ? (
          <p className="muted">This voice has no samples.</p>
        ) : (
          <ul className="voice-samples">
            {voice.samples.map((s) => (
              <li key={s.sample_id}>
                <span className="voice-sample-name">
                  {s.file_name} <span className="muted">{duration(s.duration_secs)}</span>
                </span>
                <AudioPlayer
                  label={`sample ${s.file_name}`}
                  variant="compact"
                  load={async () => {
                    const res = await v1Fetch(`/v1/voices/${encodeURIComponent(voice.voice_id)}/samples/${encodeURIComponent(s.sample_id)}/audio`);
                    if (!res.ok) throw await apiCallError(res);
                    return res.blob();
                  }}
                />
              </li>
            ))}
          </ul>
        )}
      </section>

      {voice.category === "professional" && !libraryCopy && <FineTuningPanel voiceId={voice.voice_id} />}

      {(published || libraryCopy) && (
        <section className="voice-detail-section" aria-label="Voice Library">
          <h3 className="section-title">Voice Library</h3>
          {published && (
            <p data-testid="voice-shared">
              Shared in the Voice Library
              {published.notice_period !== null ? ` with a notice period of ${formatNoticePeriod(published.notice_period)}` : ""}
              {published.rate !== null ? `, at ${published.rate}x credits` : ""}
              {published.rate !== null && ownerRate ? ` (about ${rateInDollars(published.rate, ownerRate)})` : ""}.
            </p>
          )}
          {libraryCopy && (
            <p>
              Added from the Voice Library
              {libraryCopy.rate !== null && libraryCopy.rate !== 1 ? `; it costs ${libraryCopy.rate}x credits` : ""}
              {libraryCopy.disable_at_unix !== null ? `. Its owner removed it: it stops working on ${formatDate(libraryCopy.disable_at_unix)}` : ""}.
            </p>
          )}
        </section>
      )}

      <section className="voice-detail-section" aria-label="Settings">
        <h3 className="section-title">Settings</h3>
        <VoiceSettingsPanel settings={settings} onChange={setSettings} dialogue={false} canUseStyle canUseSpeakerBoost />
        {/* A workspace voice shared as viewer: its settings are the owner's (the server refuses a change). */}
        {voice.permission_on_resource !== null && !editable ? (
          <p className="field-hint">You can use this voice but not change its settings: it is shared with you as a viewer.</p>
        ) : (
          <button type="button" className="button button-small" onClick={saveSettings} disabled={savingSettings}>
            {savingSettings ? "Saving…" : "Save settings"}
          </button>
        )}
      </section>

      {collections.length > 0 && (
        <fieldset className="voice-detail-section library-checks">
          <legend className="section-title">Collections</legend>
          {collections.map((c) => (
            <label key={c.collection_id} className="toggle-row">
              <input type="checkbox" checked={memberships.includes(c.collection_id)} onChange={(e) => void toggleCollection(c, e.target.checked)} />
              {c.title}
            </label>
          ))}
        </fieldset>
      )}

      {modal === "workspace-share" && <SharingDialog resourceType="voice" resourceId={voice.voice_id} resourceName={name} onClose={() => setModal(null)} />}
      {modal === "edit" && (
        <EditVoiceDialog
          voice={voice}
          onClose={() => setModal(null)}
          onSaved={() => {
            setModal(null);
            toast.show({ message: "Voice saved" });
            void refresh();
          }}
        />
      )}
      {modal === "share" && (
        <ShareVoiceDialog
          voice={voice}
          onClose={() => setModal(null)}
          onShared={() => {
            setModal(null);
            toast.show({ message: `${name} is shared in the Voice Library` });
            void refresh();
          }}
        />
      )}
      {modal === "unshare" && published && (
        <ConfirmDialog
          title="Remove from the Voice Library"
          confirmLabel="Remove"
          onClose={() => setModal(null)}
          onConfirm={async () => {
            try {
              const res = await v1Fetch(`/v1/voices/${encodeURIComponent(voice.voice_id)}/sharing`, { method: "DELETE" });
              if (!res.ok) throw await apiCallError(res);
              setModal(null);
              toast.show({ message: `${name} was removed from the Voice Library` });
              void refresh();
              return null;
            } catch (e) {
              return e instanceof Error ? e.message : "The voice could not be removed from the library.";
            }
          }}
        >
          <p>
            {name} leaves the Voice Library now. Workspaces that added it keep using it for the notice period
            {published.notice_period !== null ? ` (${formatNoticePeriod(published.notice_period)})` : ""} and are told it is going.
          </p>
        </ConfirmDialog>
      )}
      {modal === "delete" && (
        <ConfirmDialog
          title="Delete voice"
          confirmLabel="Delete"
          onClose={() => setModal(null)}
          onConfirm={async () => {
            try {
              const res = await v1Fetch(`/v1/voices/${encodeURIComponent(voice.voice_id)}`, { method: "DELETE" });
              if (!res.ok) throw await apiCallError(res);
              setModal(null);
              toast.show({ message: `${name} was deleted` });
              onDeleted(voice.voice_id);
              return null;
            } catch (e) {
              return e instanceof Error ? e.message : "The voice could not be deleted.";
            }
          }}
        >
          <p>
            Delete {name}? Its samples and settings go with it, and this cannot be undone.
            {published ? " It also leaves the Voice Library; those who added it keep it for the notice period." : ""}
          </p>
        </ConfirmDialog>
      )}
    </aside>
  );
}
