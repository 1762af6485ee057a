import { voiceMessages } from "../../../../functions/platform/contract/voices.js";

/**
 * The label set of a voice (speech-generation.md §5): each label needs a value ('Please set
 * values for each label'); language is the first label and is always there; the accent depends
 * on the language and is cleared when the language changes; each type appears once, so Add label
 * is disabled when every type is used.
 */
export const LABEL_TYPES = ["language", "accent", "gender", "age", "descriptive", "use_case"] as const;
export type LabelType = (typeof LABEL_TYPES)[number];

export const LABEL_TYPE_NAMES: Record<LabelType, string> = {
  language: "Language",
  accent: "Accent",
  gender: "Gender",
  age: "Age",
  descriptive: "Descriptive",
  use_case: "Use case",
};

export interface LabelRow {
  type: LabelType;
  value: string;
}

const isLabelType = (k: string): k is LabelType => (LABEL_TYPES as readonly string[]).includes(k);

/** Rows from a voice's labels: language first (empty if missing), then the others in the types' order. */
export function labelRows(labels: Record<string, string>): LabelRow[] {
  const rows: LabelRow[] = [{ type: "language", value: labels.language ?? "" }];
  for (const type of LABEL_TYPES) if (type !== "language" && labels[type] !== undefined) rows.push({ type, value: labels[type] });
  return rows;
}

export const unusedLabelTypes = (rows: readonly LabelRow[]) => LABEL_TYPES.filter((t) => !rows.some((r) => r.type === t));
export const canAddLabel = (rows: readonly LabelRow[]) => unusedLabelTypes(rows).length > 0;

export function addLabel(rows: readonly LabelRow[]): LabelRow[] {
  const next = unusedLabelTypes(rows)[0];
  return next ? [...rows, { type: next, value: "" }] : [...rows];
}

/** Changes one row's value; a new language clears the accent. */
export function setLabelValue(rows: readonly LabelRow[], type: LabelType, value: string): LabelRow[] {
  return rows.map((r) => (r.type === type ? { ...r, value } : type === "language" && r.type === "accent" && rows.find((x) => x.type === "language")?.value !== value ? { ...r, value: "" } : r));
}

/** Changes a row's type to one not yet used (language stays where it is). */
export function setLabelType(rows: readonly LabelRow[], index: number, type: LabelType): LabelRow[] {
  if (index === 0 || type === "language" || rows.some((r, i) => i !== index && r.type === type)) return [...rows];
  return rows.map((r, i) => (i === index ? { type, value: "" } : r));
}

export function removeLabel(rows: readonly LabelRow[], index: number): LabelRow[] {
  return index === 0 ? [...rows] : rows.filter((_, i) => i !== index);
}

export function labelsError(rows: readonly LabelRow[]): string | null {
  return rows.some((r) => !r.value.trim()) ? voiceMessages.labelValuesRequired : null;
}

export function labelsRecord(rows: readonly LabelRow[]): Record<string, string> {
  return Object.fromEntries(rows.filter((r) => isLabelType(r.type)).map((r) => [r.type, r.value.trim()]));
}
