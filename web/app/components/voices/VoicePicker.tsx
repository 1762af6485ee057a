import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { groupVoices, voiceBadges, voiceDisplayName, voicePickerEmptyState, type RecentVoices } from "../tts/voices.js";
import type { Voice } from "../tts/wire.js";
import { markVoicesUsed, readRecentVoices } from "./recentVoices.js";
import { useVoiceSearch } from "./useVoiceSearch.js";
import { voiceUsability } from "./usability.js";
import { useInViewport } from "../ui/useInViewport.js";
import { Icon } from "../Icon.js";

export interface VoicePickerProps {
  value: Pick<Voice, "voice_id" | "name"> | null;
  onChange: (voice: Voice) => void;
  /** The trigger's accessible name, e.g. "Voice" or "Speaker voice for line 2". */
  label?: string;
  /** "field": a full-width button with the voice's name; "compact": a small chip (dialogue speakers). */
  variant?: "field" | "compact";
  disabled?: boolean;
}

/** Scrolling this close to the end of the list loads the next page. */
const LOAD_MORE_THRESHOLD_PX = 64;

/**
 * The voice picker (app-shell.md §2): a 30rem popover with a search box (debounced 300 ms) and
 * the voices grouped Recent, Dub Specific, Professional, Cloned, Generated, Default (and Legacy
 * when searching), each with up to 8 badges. A combobox: arrows move, Enter picks, Escape closes.
 * Voices that cannot be used (blocked, awaiting verification, removed from the library) are
 * listed disabled, with the reason.
 */
export function VoicePicker({ value, onChange, label = "Voice", variant = "field", disabled }: VoicePickerProps) {
  const [open, setOpen] = useState(false);
  const [input, setInput] = useState("");
  const [recent, setRecent] = useState<RecentVoices>({});
  const [active, setActive] = useState(0);
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const searchBox = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const popover = useRef<HTMLDivElement>(null);
  const shift = useInViewport(popover, open);
  const baseId = useId();
  const listId = `${baseId}-list`;

  const search = useVoiceSearch(open, input, recent);
  const searching = search.query.length > 0;
  const groups = useMemo(() => groupVoices(search.voices, recent, { searching, recentVoices: search.recentVoices }), [search.voices, search.recentVoices, recent, searching]);
  const options = useMemo(() => groups.flatMap((g) => g.voices.map((v) => ({ group: g.id, voice: v }))), [groups]);
  const optionId = (i: number) => `${baseId}-opt-${i}`;
  const empty = search.loading || search.error ? null : voicePickerEmptyState(groups, searching);

  useEffect(() => setActive(0), [search.query]);

  useEffect(() => {
    if (!open) return;
    setRecent(readRecentVoices());
    searchBox.current?.focus();
    const onPointer = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointer);
    return () => document.removeEventListener("pointerdown", onPointer);
  }, [open]);

  useEffect(() => {
    if (open) document.getElementById(`${baseId}-opt-${active}`)?.scrollIntoView({ block: "nearest" });
  }, [active, open, baseId]);

  function close(focusTrigger = true) {
    setOpen(false);
    setInput("");
    if (focusTrigger) trigger.current?.focus();
  }

  function pick(voice: Voice) {
    if (!voiceUsability(voice).usable) return;
    setRecent(markVoicesUsed([voice.voice_id]));
    onChange(voice);
    close();
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === "ArrowDown") {
      e.preventDefault();
      setActive((i) => Math.min(options.length - 1, i + 1));
      if (active >= options.length - 3) search.loadMore();
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      setActive((i) => Math.max(0, i - 1));
    } else if (e.key === "Enter") {
      e.preventDefault();
      const o = options[active];
      if (o) pick(o.voice);
    } else if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      close();
    }
  }

  function onScroll() {
    const el = list.current;
    if (el && el.scrollTop + el.clientHeight >= el.scrollHeight - LOAD_MORE_THRESHOLD_PX) search.loadMore();
  }

  const name = value ? voiceDisplayName(value.name) : "Select a voice";
  let index = -1;

  return (
    <div className="voice-picker" ref={root} data-variant={variant} onBlur={(e) => open && !root.current?.contains(e.relatedTarget as Node | null) && e.relatedTarget && close(false)}>
      <button
        ref={trigger}
        type="button"
        className={variant === "compact" ? "voice-chip" : "voice-trigger"}
        aria-haspopup="dialog"
        aria-expanded={open}
        disabled={disabled}
        onClick={() => (open ? close() : setOpen(true))}
      >
        <span className="voice-avatar" aria-hidden="true">
          {name.slice(0, 1).toUpperCase()}
        </span>
        {/* The accessible name is the visible name with the field's label before it ("Voice: Avery"). */}
        <span className="voice-trigger-name">
          <span className="visually-hidden">{label}: </span>
          {name}
        </span>
        <span className="voice-trigger-caret" aria-hidden="true">
          ▾
        </span>
      </button>
      {open && <div className="sheet-backdrop" aria-hidden="true" onClick={() => close()} />}
      {open && (
        <div ref={popover} className="voice-popover" role="dialog" aria-label="Select a voice" style={shift}>
          <div className="voice-popover-header">
            <span className="voice-popover-title">Select a voice</span>
            <button type="button" className="icon-button icon-button-sm" aria-label="Close voice picker" onClick={() => close()}>
              <Icon name="close" />
            </button>
          </div>
          <input
            ref={searchBox}
            className="voice-search"
            type="search"
            role="combobox"
            aria-label="Search voices"
            placeholder="Search voices…"
            aria-expanded="true"
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={options[active] ? optionId(active) : undefined}
            value={input}
            onChange={(e) => setInput(e.target.value)}
            onKeyDown={onKeyDown}
          />
          <div className="voice-list" id={listId} role="listbox" aria-label="Voices" ref={list} onScroll={onScroll} aria-busy={search.loading}>
            {groups.map((g) => (
              <div key={g.id} role="group" aria-labelledby={`${baseId}-${g.id}`} className="voice-group">
                <div className="voice-group-label" id={`${baseId}-${g.id}`} role="presentation">
                  {g.label}
                </div>
                {g.voices.map((v) => {
                  index += 1;
                  const i = index;
                  const badges = voiceBadges(v.labels);
                  const usability = voiceUsability(v);
                  return (
                    <div
                      key={`${g.id}-${v.voice_id}`}
                      id={optionId(i)}
                      role="option"
                      aria-selected={value?.voice_id === v.voice_id}
                      aria-disabled={!usability.usable || undefined}
                      aria-describedby={usability.usable ? undefined : `${optionId(i)}-why`}
                      data-active={i === active || undefined}
                      className="voice-option"
                      onPointerDown={(e) => e.preventDefault()}
                      onClick={() => pick(v)}
                      onMouseMove={() => i !== active && setActive(i)}
                    >
                      <span className="voice-avatar" aria-hidden="true">
                        {voiceDisplayName(v.name).slice(0, 1).toUpperCase()}
                      </span>
                      <span className="voice-option-text">
                        <span className="voice-option-name">{voiceDisplayName(v.name)}</span>
                        {badges.length > 0 && (
                          <span className="voice-badges">
                            {badges.map((b) => (
                              <span key={b} className="badge">
                                {b}
                              </span>
                            ))}
                          </span>
                        )}
                        {!usability.usable && (
                          <span className="voice-option-why" id={`${optionId(i)}-why`}>
                            {usability.reason}
                          </span>
                        )}
                      </span>
                    </div>
                  );
                })}
              </div>
            ))}
            {empty && <p className="voice-empty">{empty}</p>}
            {search.error && (
              <p className="voice-empty" role="alert">
                {search.error}
              </p>
            )}
            {search.loading && <p className="voice-loading muted">Loading voices…</p>}
          </div>
        </div>
      )}
    </div>
  );
}
