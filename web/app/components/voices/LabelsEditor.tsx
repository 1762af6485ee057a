import { AGES, DESCRIPTIVES, GENDERS, USE_CASES } from "../../../../functions/platform/contract/voices.js";
import { ENGINE_LANGUAGES } from "../../../../functions/platform/domain/models.js";
import { Icon } from "../Icon.js";
import { addLabel, canAddLabel, LABEL_TYPE_NAMES, removeLabel, setLabelType, setLabelValue, unusedLabelTypes, type LabelRow, type LabelType } from "./labels.js";
import { readable } from "./library.js";
import { useAccents } from "./LibraryFilters.js";

const title = (s: string) => readable(s).replace(/^./, (c) => c.toUpperCase());

function options(type: LabelType, language: string, accents: Array<{ accent: string; language: string | null }>): Array<{ value: string; label: string }> | null {
  switch (type) {
    case "language":
      return ENGINE_LANGUAGES.map((l) => ({ value: l.language_id, label: l.name }));
    case "accent": {
      const list = [...new Set(accents.filter((a) => a.language === language).map((a) => a.accent))];
      return list.length ? list.map((a) => ({ value: a, label: title(a) })) : null;
    }
    case "gender":
      return GENDERS.map((g) => ({ value: g, label: title(g) }));
    case "age":
      return AGES.map((a) => ({ value: a, label: title(a) }));
    case "descriptive":
      return DESCRIPTIVES.map((d) => ({ value: d, label: title(d) }));
    case "use_case":
      return USE_CASES.map((u) => ({ value: u, label: title(u) }));
  }
}

/** The label set of the edit form (rules in labels.ts). */
export function LabelsEditor({ rows, onChange, error }: { rows: LabelRow[]; onChange: (rows: LabelRow[]) => void; error: string | null }) {
  const accents = useAccents();
  const language = rows.find((r) => r.type === "language")?.value ?? "";
  return (
    <fieldset className="labels-editor" aria-describedby={error ? "labels-error" : undefined}>
      <legend>Labels</legend>
      {rows.map((row, i) => {
        const opts = options(row.type, language, accents);
        const valueLabel = `${LABEL_TYPE_NAMES[row.type]} value`;
        return (
          <div key={row.type} className="label-row">
            {i === 0 ? (
              <span className="label-type-fixed">{LABEL_TYPE_NAMES.language}</span>
            ) : (
              <select aria-label={`Label ${i + 1} type`} value={row.type} onChange={(e) => onChange(setLabelType(rows, i, e.target.value as LabelType))}>
                {[row.type, ...unusedLabelTypes(rows)].map((t) => (
                  <option key={t} value={t}>
                    {LABEL_TYPE_NAMES[t]}
                  </option>
                ))}
              </select>
            )}
            {opts ? (
              <select aria-label={valueLabel} value={row.value} aria-invalid={!row.value.trim() && !!error} onChange={(e) => onChange(setLabelValue(rows, row.type, e.target.value))}>
                <option value="">Choose…</option>
                {opts.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            ) : (
              <input aria-label={valueLabel} value={row.value} maxLength={50} aria-invalid={!row.value.trim() && !!error} onChange={(e) => onChange(setLabelValue(rows, row.type, e.target.value))} />
            )}
            {i > 0 && (
              <button type="button" className="icon-button icon-button-sm" aria-label={`Remove the ${LABEL_TYPE_NAMES[row.type]} label`} onClick={() => onChange(removeLabel(rows, i))}>
                <Icon name="close" />
              </button>
            )}
          </div>
        );
      })}
      <button type="button" className="button button-small" onClick={() => onChange(addLabel(rows))} disabled={!canAddLabel(rows)}>
        <Icon name="plus" size={16} />
        Add label
      </button>
      {error && (
        <p className="field-error" id="labels-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}
