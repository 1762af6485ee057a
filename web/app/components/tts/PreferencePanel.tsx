import type { Preference } from "./dialogue.js";
import { AudioPlayer } from "../audio/AudioPlayer.js";
import type { Generation } from "./useSpeechGeneration.js";

/**
 * Two generations of the same dialogue side by side (speech-generation.md §2, §4). Downloading
 * one chooses it; dismissing the panel sends the choice.
 */
export function PreferencePanel({ a, b, preference, onChoose, onDismiss }: {
  a: Generation;
  b: Generation;
  preference: Preference | null;
  onChoose: (which: Preference) => void;
  onDismiss: () => void;
}) {
  const column = (g: Generation, which: Preference, label: string) => (
    <div className="preference-option" data-preferred={preference === which || undefined}>
      <h3>{label}</h3>
      {g.url && <AudioPlayer label={label} src={g.url} waveform={g.blob} variant="compact" />}
      <div className="preference-actions">
        {g.url && (
          <a className="button button-small" href={g.url} download={g.fileName} onClick={() => onChoose(which)} aria-label={`Download ${label}`}>
            Download
          </a>
        )}
        {preference === which && <span className="badge">Preferred</span>}
      </div>
    </div>
  );
  return (
    <section className="preference-panel card" aria-labelledby="preference-title">
      <div className="preference-header">
        <h2 id="preference-title">Which generation do you prefer?</h2>
        <button type="button" className="button button-small" onClick={onDismiss}>
          Dismiss
        </button>
      </div>
      <p className="muted">Download the one you prefer; it helps us improve dialogue generation.</p>
      <div className="preference-grid">
        {column(a, "a", "Generation 1")}
        {column(b, "b", "Generation 2")}
      </div>
    </section>
  );
}
