import { Link } from "@remix-run/react";
import { useEffect, useRef, useState, type ChangeEvent } from "react";
import { similarVoiceMessages } from "../../../../functions/platform/contract/voices.js";
import { isVisible } from "../../lib/nav.js";
import { useUrlState } from "../../lib/useUrlState.js";
import { navContext, useShell } from "../../lib/shell.js";
import { voiceDisplayName } from "../tts/voices.js";
import { AudioPlayer } from "../audio/AudioPlayer.js";
import { Icon } from "../Icon.js";
import { Page } from "../Page.js";
import { EmptyState } from "../ui/EmptyState.js";
import { SkeletonRows } from "../ui/Skeleton.js";
import { useToast } from "../ui/Toast.js";
import { AddNewVoiceButton, AddNewVoiceDialog } from "./AddNewVoiceDialog.js";
import { AddToMyVoicesDialog, ttsHref } from "./AddToMyVoicesDialog.js";
import { DEFAULT_FILTERS, narrowsResults, parseLibraryFilters, writeLibraryFilters, type LibraryFilters as Filters } from "./library.js";
import { LibraryFilters } from "./LibraryFilters.js";
import { LibraryVoiceCard } from "./LibraryVoiceCard.js";
import { LIBRARY_DESCRIPTION, VOICES_TABS, VOICES_TITLE } from "./tabs.js";
import { useLibrarySearch } from "./useLibrarySearch.js";
import { usePreviewPlayer } from "./usePreviewPlayer.js";
import { useSimilarSearch } from "./useSimilarSearch.js";
import type { LibraryVoice, VoiceSlots } from "./wire.js";

/** The infinite scroll asks for the next page this far before the end of the grid. */
const LOAD_AHEAD_PX = 800;

export interface VoiceLibraryProps {
  /** ?voiceId of a listed voice: shown first. */
  opened: LibraryVoice | null;
  /** ?voiceId that is not in the library (Text to Speech sends unknown voices here), with the user's own voices to offer. */
  missing: { voiceId: string; voices: Array<{ voice_id: string; name: string }> } | null;
  slots: VoiceSlots | null;
}

/** A voice asked for that is neither the user's nor in the library: say so, and offer theirs. */
function MissingVoice({ voiceId, voices }: { voiceId: string; voices: Array<{ voice_id: string; name: string }> }) {
  return (
    <section className="card callout" aria-labelledby="missing-voice-title" data-testid="missing-voice">
      <h2 id="missing-voice-title">That voice is not one of yours</h2>
      <p>
        The voice <code>{voiceId}</code> is not among your voices, nor in the Voice Library. Choose one of your voices, or find one in the library below:
      </p>
      <ul className="voice-chips">
        {voices.map((v) => (
          <li key={v.voice_id}>
            <Link className="chip" to={ttsHref(v.voice_id)}>
              {voiceDisplayName(v.name)}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The Voice Library (issue 9 §4): a grid of the community's voices with every filter, featured
 * and sort in the query string, 500 voices a page with infinite scroll, previews in one shared
 * player, "Add to my voices" through the voice-add dialog, and similar-voice search by a voice or
 * an uploaded clip (which a filter resets, with the spec's message).
 */
export function VoiceLibrary({ opened, missing, slots }: VoiceLibraryProps) {
  const shell = useShell();
  const toast = useToast();
  // The filters shown are the ones last chosen; the URL follows (useUrlState).
  const [filters, setFilters] = useUrlState(parseLibraryFilters, writeLibraryFilters);
  const current = useRef(filters);
  current.current = filters;
  const similar = useSimilarSearch();
  const library = useLibrarySearch(filters, similar.query === null);
  const preview = usePreviewPlayer();
  const [adding, setAdding] = useState<LibraryVoice | null>(null);
  const [openedVoice, setOpenedVoice] = useState(opened);
  const sentinel = useRef<HTMLDivElement>(null);
  const resultsHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => setOpenedVoice(opened), [opened]);

  // Infinite scroll: the next page loads as the end of the grid comes near.
  const { loadMore, hasMore, loading } = library;
  useEffect(() => {
    const el = sentinel.current;
    if (!el || typeof IntersectionObserver === "undefined" || similar.query) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && loadMore(), { rootMargin: `${LOAD_AHEAD_PX}px` });
    observer.observe(el);
    return () => observer.disconnect();
  }, [loadMore, hasMore, loading, similar.query]);

  function writeFilters(next: Filters) {
    current.current = next;
    setFilters(next);
  }

  function changeFilters(change: Filters | ((current: Filters) => Filters)) {
    writeFilters(typeof change === "function" ? change(current.current) : change);
    if (similar.query) {
      similar.clear();
      toast.show({ message: similarVoiceMessages.filtersReset, kind: "info" });
    }
  }

  function startSimilar(q: Parameters<typeof similar.search>[0]) {
    // A similar-voice search stands alone: the filters go (quietly; the user asked for this).
    if (narrowsResults(current.current)) writeFilters({ ...DEFAULT_FILTERS, sort: current.current.sort });
    similar.search(q);
    requestAnimationFrame(() => resultsHeading.current?.focus());
  }

  function onClip(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = "";
    if (file) startSimilar({ kind: "clip", file });
  }

  function markAdded(voiceId: string) {
    library.update(voiceId, { is_added_by_user: true });
    similar.update(voiceId, { is_added_by_user: true });
    setOpenedVoice((v) => (v && v.voice_id === voiceId ? { ...v, is_added_by_user: true } : v));
  }

  const actionsFor = (v: LibraryVoice) => ({
    playing: preview.current?.id === v.voice_id && preview.playing,
    loadingPreview: preview.loadingId === v.voice_id,
    onPreview: () => v.preview_url && preview.toggle({ id: v.voice_id, name: voiceDisplayName(v.name), url: v.preview_url }),
    onAdd: () => setAdding(v),
    onSimilar: () => startSimilar({ kind: "voice", voiceId: v.voice_id, name: voiceDisplayName(v.name) }),
  });

  const showing = similar.query ? similar.voices : library.voices;
  const busy = similar.query ? similar.loading : library.loading;
  const error = similar.query ? similar.error : library.error;
  const similarTitle = similar.query ? (similar.query.kind === "voice" ? `Voices similar to ${similar.query.name}` : `Voices similar to ${similar.query.file.name}`) : null;
  const tabs = shell ? VOICES_TABS.filter((t) => isVisible(t.when, navContext(shell))) : VOICES_TABS;

  return (
    <Page title={VOICES_TITLE} description={LIBRARY_DESCRIPTION} tabs={tabs} actions={<AddNewVoiceButton />} requiredPermission="add_voice_from_voice_library">
      <div className="voice-library">
        {missing && <MissingVoice voiceId={missing.voiceId} voices={missing.voices} />}
        {openedVoice && (
          <section className="library-opened" aria-labelledby="opened-voice-title" data-testid="opened-voice">
            <h2 id="opened-voice-title" className="section-title">
              The voice you opened
            </h2>
            <LibraryVoiceCard voice={openedVoice} actions={actionsFor(openedVoice)} highlighted />
          </section>
        )}

        <LibraryFilters filters={filters} onChange={changeFilters} />

        <section className="library-similar" aria-label="Find similar voices">
          <p className="muted">Find voices that sound like a clip of your own, or press Similar on any voice.</p>
          <label className="button button-small">
            <Icon name="upload" size={16} />
            Find voices similar to a clip
            <input type="file" accept="audio/*,video/webm" className="visually-hidden" onChange={onClip} aria-label="Find voices similar to a clip" />
          </label>
        </section>

        <section className="library-results" aria-labelledby="library-results-title" aria-busy={busy}>
          <div className="library-results-head">
            <h2 id="library-results-title" className="section-title" tabIndex={-1} ref={resultsHeading}>
              {similarTitle ?? "Voices"}
            </h2>
            {similar.query && (
              <button type="button" className="button button-small" onClick={similar.clear}>
                <Icon name="close" size={16} />
                Clear similar search
              </button>
            )}
          </div>
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          {showing.length > 0 && (
            <ul className="library-grid" aria-label={similarTitle ?? "Library voices"} data-testid="library-grid-voices">
              {showing.map((v) => (
                <li key={v.voice_id}>
                  <LibraryVoiceCard voice={v} actions={actionsFor(v)} />
                </li>
              ))}
            </ul>
          )}
          {busy && showing.length === 0 && <SkeletonRows rows={4} label="Loading voices" />}
          {!busy && !error && showing.length === 0 && (
            <EmptyState
              icon="search"
              title={similar.query ? "No similar voices found" : "No voices found"}
              action={
                similar.query ? (
                  <button type="button" className="button" onClick={similar.clear}>
                    Back to all voices
                  </button>
                ) : narrowsResults(filters) ? (
                  <button type="button" className="button" onClick={() => changeFilters({ ...DEFAULT_FILTERS, sort: filters.sort })}>
                    Reset filters
                  </button>
                ) : undefined
              }
            >
              {similar.query ? <p>No voice in the library is close enough yet.</p> : <p>Try other filters or another search.</p>}
            </EmptyState>
          )}
          {!similar.query && (
            <div ref={sentinel} className="library-more">
              {library.loading && showing.length > 0 && <span className="muted">Loading more voices…</span>}
              {!library.loading && library.hasMore && showing.length > 0 && (
                <button type="button" className="button" onClick={library.loadMore}>
                  Load more voices
                </button>
              )}
            </div>
          )}
        </section>

        {preview.error && (
          <p className="form-error" role="alert">
            {preview.error}
          </p>
        )}
        {preview.current && preview.src && (
          <div className="preview-bar" data-testid="preview-bar">
            <span className="preview-bar-name">{preview.current.name}</span>
            <AudioPlayer key={preview.src} label={`preview of ${preview.current.name}`} src={preview.src} audioRef={preview.audioRef} autoPlay variant="compact" testId="preview-audio" />
          </div>
        )}
      </div>
      {adding && <AddToMyVoicesDialog voice={adding} onClose={() => setAdding(null)} onAdded={markAdded} />}
      <AddNewVoiceDialog slots={slots} />
    </Page>
  );
}
