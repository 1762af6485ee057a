import { useEffect, useId, useState } from "react";
import { AGES, DESCRIPTIVES, GENDERS, USE_CASES, voiceMessages } from "../../../../functions/platform/contract/voices.js";
import { languagesAndAccents } from "./api.js";

/**
 * Labels of a voice, with the label rules of speech-generation.md §5: language is the first label
 * and is fixed; the accent depends on the language and is reset when it changes; each label type
 * is used once; Add label is disabled when every type is used; each label needs a value
 * ('Please set values for each label').
 */
export type LabelType = "language" | "accent" | "gender" | "age" | "descriptive" | "use_case";
export interface Label {
  type: LabelType;
  value: string;
}

const TYPE_NAMES: Record<LabelType, string> = { language: "Language", accent: "Accent", gender: "Gender", age: "Age", descriptive: "Descriptive", use_case: "Use case" };
const ADDABLE: LabelType[] = ["accent", "gender", "age", "descriptive", "use_case"];
const words = (s: string) => s.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());

export function labelsToRecord(labels: Label[]): Record<string, string> {
  return Object.fromEntries(labels.map((l) => [l.type, l.value]));
}

export function labelsFromRecord(record: Record<string, string> | null | undefined, fallbackLanguage = "en"): Label[] {
  const r = record ?? {};
  const out: Label[] = [{ type: "language", value: r.language ?? fallbackLanguage }];
  for (const t of ADDABLE) if (r[t]) out.push({ type: t, value: r[t] });
  return out;
}

/** 'Please set values for each label' when one is empty. */
export function labelsProblem(labels: Label[]): string | null {
  return labels.some((l) => !l.value.trim()) ? voiceMessages.labelValuesRequired : null;
}

/** Changing the language resets the accent (it depends on the language). */
export function setLanguage(labels: Label[], language: string): Label[] {
  return labels.map((l) => (l.type === "language" ? { ...l, value: language } : l.type === "accent" ? { ...l, value: "" } : l));
}

export function LabelsEditor({ labels, onChange, error, languageElsewhere = false }: {
  labels: Label[];
  onChange: (l: Label[]) => void;
  error?: string | null;
  /** The form chooses the language in a field of its own (professional clone's Voice Data): no language row here. */
  languageElsewhere?: boolean;
}) {
  const id = useId();
  const [langs, setLangs] = useState<Array<{ id: string; name: string; accents: Array<{ id: string; name: string }> }>>([]);
  useEffect(() => {
    let live = true;
    languagesAndAccents().then((l) => live && setLangs(l), () => undefined);
    return () => {
      live = false;
    };
  }, []);
  const used = new Set(labels.map((l) => l.type));
  const free = ADDABLE.filter((t) => !used.has(t));
  const language = labels.find((l) => l.type === "language")?.value ?? "en";
  const options = (type: LabelType): Array<{ id: string; name: string }> => {
    switch (type) {
      case "language":
        return langs.length ? langs.map((l) => ({ id: l.id, name: l.name })) : [{ id: language, name: language }];
      case "accent":
        return langs.find((l) => l.id === language)?.accents ?? [];
      case "gender":
        return GENDERS.map((g) => ({ id: g, name: words(g) }));
      case "age":
        return AGES.map((a) => ({ id: a, name: words(a) }));
      case "descriptive":
        return DESCRIPTIVES.map((d) => ({ id: d, name: words(d) }));
      case "use_case":
        return USE_CASES.map((u) => ({ id: u, name: words(u) }));
    }
  };
  const set = (i: number, value: string) => {
    const l = labels[i];
    if (l.type === "language") onChange(setLanguage(labels, value));
    else onChange(labels.map((x, k) => (k === i ? { ...x, value } : x)));
  };
  return (
    <fieldset className="labels-editor" aria-describedby={error ? `${id}-error` : undefined}>
      <legend>Labels</legend>
      <ul className="label-rows">
        {labels.map((l, i) => (languageElsewhere && l.type === "language" ? null : (
          <li key={l.type} className="label-row">
            <label htmlFor={`${id}-${l.type}`}>{TYPE_NAMES[l.type]}</label>
            <select id={`${id}-${l.type}`} value={l.value} onChange={(e) => set(i, e.target.value)} aria-invalid={!l.value || undefined}>
              {l.type !== "language" && <option value="">Choose…</option>}
              {options(l.type).map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </select>
            {l.type !== "language" && (
              <button type="button" className="icon-button icon-button-sm" aria-label={`Remove the ${TYPE_NAMES[l.type].toLowerCase()} label`} onClick={() => onChange(labels.filter((_, k) => k !== i))}>
                ×
              </button>
            )}
          </li>
        )))}
      </ul>
      <button type="button" className="button button-small" disabled={!free.length} onClick={() => onChange([...labels, { type: free[0], value: "" }])}>
        Add label
      </button>
      {error && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
