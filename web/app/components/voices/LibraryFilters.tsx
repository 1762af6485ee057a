import { useEffect, useId, useRef, useState } from "react";
import { AGES, DESCRIPTIVES, GENDERS, LIBRARY_SORT_VALUES, NOTICE_PERIOD_DAYS, USE_CASES } from "../../../../functions/platform/contract/voices.js";
import { ENGINE_LANGUAGES } from "../../../../functions/platform/domain/models.js";
import { v1Json } from "../tts/client.js";
import { Icon } from "../Icon.js";
import { SelectField } from "./SelectField.js";
import { activeFilterCount, CATEGORY_FILTERS, DEFAULT_FILTERS, formatNoticePeriod, readable, SORT_LABELS, type LibraryFilters as Filters } from "./library.js";
import { AccentsWire } from "./wire.js";

/** The library's search box waits this long after typing (as the voice picker does). */
export const LIBRARY_SEARCH_DEBOUNCE_MS = 300;

const CATEGORY_LABELS: Record<(typeof CATEGORY_FILTERS)[number], string> = {
  professional: "Professional",
  generated: "Generated",
  cloned: "Cloned",
  famous: "Famous",
};

const title = (s: string) => readable(s).replace(/^./, (c) => c.toUpperCase());

export function useAccents(): Array<{ accent: string; language: string | null }> {
  const [accents, setAccents] = useState<Array<{ accent: string; language: string | null }>>([]);
  useEffect(() => {
    let live = true;
    v1Json("/v1/voices/accents", AccentsWire)
      .then((r) => live && setAccents(r.accents.map((a) => ({ accent: a.accent, language: a.language }))))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return accents;
}

/**
 * Every filter of the voice library (voice-creation.md §2.5, §3): search, sort, featured, and
 * behind "Filters" language, accent, gender, age, category, quality, use cases, descriptive
 * tags, notice period, custom rates and live moderation.
 */
export function LibraryFilters({ filters, onChange }: { filters: Filters; onChange: (change: (current: Filters) => Filters) => void }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState(filters.search);
  const accents = useAccents();
  const count = activeFilterCount(filters);

  // The box follows the URL (back button, reset) unless the user is typing something else.
  useEffect(() => setSearch(filters.search), [filters.search]);
  const latest = useRef({ filters, onChange });
  latest.current = { filters, onChange };
  useEffect(() => {
    if (search.trim() === latest.current.filters.search.trim()) return;
    const t = setTimeout(() => latest.current.onChange((f) => ({ ...f, search })), LIBRARY_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [search]);

  // Changes apply to the newest filters, so quick successive clicks never undo each other.
  const set = <K extends keyof Filters>(key: K, value: Filters[K]) => onChange((f) => ({ ...f, [key]: value }));
  const toggleIn = <T extends string>(list: T[], v: T) => (list.includes(v) ? list.filter((x) => x !== v) : [...list, v]);
  const shownAccents = [...new Set(accents.filter((a) => !filters.language || a.language === filters.language).map((a) => a.accent))].sort();

  return (
    <section className="library-filters" aria-label="Search and filters">
      <div className="library-filter-bar">
        <label className="library-search">
          <span className="visually-hidden">Search the library</span>
          <Icon name="search" size={16} />
          <input type="search" placeholder="Search voices…" value={search} maxLength={200} onChange={(e) => setSearch(e.target.value)} aria-label="Search the library" />
        </label>
        <SelectField label="Sort" value={filters.sort} onChange={(e) => set("sort", e.target.value as Filters["sort"])}>
            {LIBRARY_SORT_VALUES.map((s) => (
              <option key={s} value={s}>
                {SORT_LABELS[s]}
              </option>
            ))}
          </SelectField>
        <label className="toggle-row library-featured">
          <input type="checkbox" checked={filters.featured} onChange={(e) => set("featured", e.target.checked)} />
          Featured
        </label>
        <button type="button" className="button button-small" aria-expanded={open} aria-controls={`${id}-panel`} onClick={() => setOpen((o) => !o)}>
          Filters{count > 0 ? ` (${count})` : ""}
        </button>
        {count > 0 && (
          <button type="button" className="button button-small" onClick={() => onChange((f) => ({ ...DEFAULT_FILTERS, search: f.search, sort: f.sort }))}>
            Reset filters
          </button>
        )}
      </div>
      <div className="library-filter-panel" id={`${id}-panel`} hidden={!open}>
        <SelectField label="Language" value={filters.language ?? ""} onChange={(e) => {
            const language = e.target.value || null;
            onChange((f) => ({ ...f, language, accent: null }));
          }}>
            <option value="">Any language</option>
            {ENGINE_LANGUAGES.map((l) => (
              <option key={l.language_id} value={l.language_id}>
                {l.name}
              </option>
            ))}
          </SelectField>
        <SelectField label="Accent" value={filters.accent ?? ""} onChange={(e) => set("accent", e.target.value || null)}>
            <option value="">Any accent</option>
            {(filters.accent && !shownAccents.includes(filters.accent) ? [filters.accent, ...shownAccents] : shownAccents).map((a) => (
              <option key={a} value={a}>
                {title(a)}
              </option>
            ))}
          </SelectField>
        <SelectField label="Gender" value={filters.gender} onChange={(e) => set("gender", e.target.value as Filters["gender"])}>
            <option value="any">Any</option>
            {GENDERS.map((g) => (
              <option key={g} value={g}>
                {title(g)}
              </option>
            ))}
          </SelectField>
        <SelectField label="Age" value={filters.age ?? ""} onChange={(e) => set("age", (e.target.value || null) as Filters["age"])}>
            <option value="">Any age</option>
            {AGES.map((a) => (
              <option key={a} value={a}>
                {title(a)}
              </option>
            ))}
          </SelectField>
        <SelectField label="Category" value={filters.quality === "high_quality" ? "" : (filters.category ?? "")} disabled={filters.quality === "high_quality"} onChange={(e) => set("category", (e.target.value || null) as Filters["category"])}>
            <option value="">Any category</option>
            {CATEGORY_FILTERS.map((c) => (
              <option key={c} value={c}>
                {CATEGORY_LABELS[c]}
              </option>
            ))}
          </SelectField>
        <SelectField label="Quality" value={filters.quality} onChange={(e) => {
            const quality = e.target.value as Filters["quality"];
            onChange((f) => ({ ...f, quality, category: quality === "high_quality" ? null : f.category }));
          }}>
            <option value="any">Any quality</option>
            <option value="high_quality">High quality</option>
          </SelectField>
        <SelectField label="Notice period" value={filters.noticePeriod ?? ""} onChange={(e) => set("noticePeriod", (Number(e.target.value) || null) as Filters["noticePeriod"])}>
            <option value="">Any notice period</option>
            {NOTICE_PERIOD_DAYS.map((d) => (
              <option key={d} value={d}>
                At least {formatNoticePeriod(d)}
              </option>
            ))}
          </SelectField>
        <fieldset className="library-checks">
          <legend>Use cases</legend>
          {USE_CASES.map((u) => (
            <label key={u} className="toggle-row">
              <input type="checkbox" checked={filters.useCases.includes(u)} onChange={() => onChange((f) => ({ ...f, useCases: toggleIn(f.useCases, u) }))} />
              {title(u)}
            </label>
          ))}
        </fieldset>
        <fieldset className="library-checks library-descriptives">
          <legend>Descriptives</legend>
          {DESCRIPTIVES.map((d) => (
            <label key={d} className="toggle-row">
              <input type="checkbox" checked={filters.descriptives.includes(d)} onChange={() => onChange((f) => ({ ...f, descriptives: toggleIn(f.descriptives, d) }))} />
              {title(d)}
            </label>
          ))}
        </fieldset>
        <fieldset className="library-checks">
          <legend>Terms</legend>
          <label className="toggle-row">
            <input type="checkbox" checked={filters.customRates} onChange={(e) => set("customRates", e.target.checked)} />
            Include voices with a custom rate
          </label>
          <label className="toggle-row">
            <input type="checkbox" checked={filters.liveModeration} onChange={(e) => set("liveModeration", e.target.checked)} />
            Include live-moderated voices
          </label>
        </fieldset>
      </div>
    </section>
  );
}
