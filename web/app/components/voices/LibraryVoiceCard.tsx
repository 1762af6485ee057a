import { useId } from "react";
import { MAX_VOICE_BADGES, voiceBadges, voiceDisplayName } from "../tts/voices.js";
import { Icon } from "../Icon.js";
import { formatNoticePeriod, readable, voiceStats } from "./library.js";
import type { LibraryVoice } from "./wire.js";

/** Up to 8 badges of a library voice: language, accent, gender, age, use case, descriptive tags. */
export function libraryBadges(v: LibraryVoice): string[] {
  const labels: Record<string, string> = { language: v.language ?? "", accent: v.accent, gender: v.gender, age: v.age };
  const tags = v.descriptives.length ? v.descriptives : v.descriptive ? [v.descriptive] : [];
  return [...voiceBadges(labels), ...(v.use_case ? [readable(v.use_case)] : []), ...tags.map(readable)].slice(0, MAX_VOICE_BADGES);
}

export interface CardActions {
  playing: boolean;
  loadingPreview: boolean;
  onPreview: () => void;
  onAdd: () => void;
  onSimilar: () => void;
}

/** One voice of the library grid. */
export function LibraryVoiceCard({ voice, actions, highlighted }: { voice: LibraryVoice; actions: CardActions; highlighted?: boolean }) {
  const titleId = useId();
  const name = voiceDisplayName(voice.name);
  const stats = voiceStats(voice);
  return (
    <article className="library-card" aria-labelledby={titleId} data-testid="library-voice" data-voice-id={voice.voice_id} data-highlighted={highlighted || undefined}>
      <div className="library-card-head">
        <span className="voice-avatar" aria-hidden="true">
          {name.slice(0, 1).toUpperCase()}
        </span>
        <div className="library-card-title">
          <h3 id={titleId}>{name}</h3>
          {voice.owner_name && <span className="muted library-card-owner">by {voice.owner_name}</span>}
        </div>
        {voice.featured && <span className="badge badge-accent">Featured</span>}
      </div>
      {voice.description && <p className="library-card-description">{voice.description}</p>}
      <ul className="voice-badges library-badges" aria-label="Labels">
        {libraryBadges(voice).map((b, i) => (
          <li key={`${b}-${i}`} className="badge">
            {b}
          </li>
        ))}
      </ul>
      <p className="library-card-meta muted">
        {voice.similarity !== null && <span className="library-card-similarity">{Math.round(Math.max(0, voice.similarity) * 100)}% similar</span>}
        {stats.map((s) => (
          <span key={s}>{s}</span>
        ))}
        {voice.notice_period !== null && <span>Notice period {formatNoticePeriod(voice.notice_period)}</span>}
        {voice.rate !== null && voice.rate !== 1 && <span>{voice.rate}x credits</span>}
        {voice.live_moderation_enabled && <span>Live moderated</span>}
        {!voice.free_users_allowed && <span>Paid plans only</span>}
      </p>
      <div className="library-card-actions">
        <button
          type="button"
          className="button button-small"
          onClick={actions.onPreview}
          disabled={!voice.preview_url || actions.loadingPreview}
          aria-label={`${actions.playing ? "Pause" : "Play"} preview of ${name}`}
          title={voice.preview_url ? undefined : "This voice has no preview yet"}
        >
          {actions.loadingPreview ? <span className="spinner" aria-hidden="true" /> : <Icon name={actions.playing ? "pause" : "play"} size={16} />}
          {actions.playing ? "Pause" : "Play"}
        </button>
        {voice.is_added_by_user ? (
          <span className="badge library-card-added">
            <Icon name="check" size={14} /> Added
          </span>
        ) : (
          <button type="button" className="button button-small button-primary" onClick={actions.onAdd}>
            <Icon name="plus" size={16} />
            {/* Named "Add Nora to my voices"; the card's title says whose. */}
            <span>
              Add<span className="visually-hidden"> {name}</span> to my voices
            </span>
          </button>
        )}
        <button type="button" className="button button-small" onClick={actions.onSimilar} aria-label={`Find voices similar to ${name}`}>
          <Icon name="search" size={16} />
          Similar
        </button>
      </div>
    </article>
  );
}
