import { memo } from "react";
import { RULE_INPUT_MAX, RULE_OUTPUT_MAX, ruleErrors, type EditorRule, type RuleAlert } from "../../../../functions/platform/contract/dictionaries.js";
import type { PreviewStatus } from "./useRulePreview.js";

const ALERT_LABEL: Record<RuleAlert["level"], string> = { error: "Error", warning: "Warning", change: "Changed", static: "Saved" };

/** One rule in the editor: a 35 px row with its alert, input, type, output, flags, preview and remove. */
export const RuleRow = memo(function RuleRow({
  rule,
  index,
  alert,
  top,
  height,
  preview,
  previewError,
  canRemove,
  onChange,
  onRemove,
  onPreview,
}: {
  rule: EditorRule;
  index: number;
  alert: RuleAlert;
  top: number;
  height: number;
  preview: PreviewStatus;
  previewError: string | null;
  canRemove: boolean;
  onChange: (key: string, patch: Partial<EditorRule>) => void;
  onRemove: (key: string) => void;
  onPreview: (rule: EditorRule) => void;
}) {
  const errors = ruleErrors(rule);
  const id = `rule-${rule.key}`;
  const messages = alert.messages.join(". ");
  const label = rule.string_to_replace || `rule ${index + 1}`;
  return (
    <div role="row" className="rule-row" data-key={rule.key} data-alert={alert.level} style={{ height, transform: `translateY(${top}px)` }} aria-rowindex={index + 1}>
      <span role="cell" className={`rule-alert rule-alert-${alert.level}`} title={messages || ALERT_LABEL[alert.level]}>
        <span className="visually-hidden" id={`${id}-alert`}>
          {ALERT_LABEL[alert.level]}
          {messages ? `: ${messages}` : ""}
        </span>
      </span>
      <span role="cell">
        <span className="rule-cell-label" aria-hidden="true">
          Input
        </span>
        <input
          className="rule-input"
          aria-label={`Input of rule ${index + 1}`}
          value={rule.string_to_replace}
          maxLength={RULE_INPUT_MAX * 2}
          onChange={(e) => onChange(rule.key, { string_to_replace: e.target.value })}
          aria-invalid={errors.input ? true : undefined}
          aria-describedby={`${id}-alert`}
        />
      </span>
      <span role="cell">
        <span className="rule-cell-label" aria-hidden="true">
          Type
        </span>
        <select className="rule-select" aria-label={`Type of rule ${index + 1}`} value={rule.type} onChange={(e) => onChange(rule.key, { type: e.target.value as EditorRule["type"] })}>
          <option value="alias">Alias</option>
          <option value="phoneme">Phoneme</option>
        </select>
      </span>
      <span role="cell">
        {rule.type === "phoneme" ? (
          <>
          <span className="rule-cell-label" aria-hidden="true">
            Alphabet
          </span>
          <select className="rule-select" aria-label={`Alphabet of rule ${index + 1}`} value={rule.alphabet} onChange={(e) => onChange(rule.key, { alphabet: e.target.value as EditorRule["alphabet"] })}>
            <option value="ipa">IPA</option>
            <option value="cmu-arpabet">CMU ARPAbet</option>
          </select>
          </>
        ) : null}
      </span>
      <span role="cell">
        <span className="rule-cell-label" aria-hidden="true">
          Output
        </span>
        <input
          className="rule-input"
          aria-label={`Output of rule ${index + 1}`}
          placeholder={rule.type === "alias" ? "Alias" : rule.alphabet === "ipa" ? "/phonemes/" : "T AH0 M EY1 T OW2"}
          value={rule.output}
          maxLength={RULE_OUTPUT_MAX * 2}
          onChange={(e) => onChange(rule.key, { output: e.target.value })}
          aria-invalid={errors.output ? true : undefined}
          aria-describedby={`${id}-alert`}
        />
      </span>
      <span role="cell" className="rule-flags">
        <label title="Case sensitive">
          <input type="checkbox" checked={rule.case_sensitive} onChange={(e) => onChange(rule.key, { case_sensitive: e.target.checked })} aria-label={`Case sensitive (rule ${index + 1})`} />
          <span className="rule-flag-short" aria-hidden="true">
            Aa
          </span>
          <span className="rule-flag-long">Case sensitive</span>
        </label>
        <label title="Whole words only">
          <input type="checkbox" checked={rule.word_boundaries} onChange={(e) => onChange(rule.key, { word_boundaries: e.target.checked })} aria-label={`Whole words only (rule ${index + 1})`} />
          <span className="rule-flag-short" aria-hidden="true">
            ⟨w⟩
          </span>
          <span className="rule-flag-long">Whole words only</span>
        </label>
      </span>
      <span role="cell">
        <button
          type="button"
          className="icon-button rule-play"
          data-state={preview}
          aria-label={`${preview === "playing" ? "Stop" : "Play"} preview of ${label}`}
          title={previewError ?? undefined}
          disabled={preview === "loading" || !!previewError || !!errors.input || !!errors.output}
          onClick={() => onPreview(rule)}
        >
          {preview === "loading" ? "…" : preview === "playing" ? "■" : "▶"}
        </button>
      </span>
      <span role="cell">
        <button type="button" className="icon-button" aria-label={`Remove rule ${label}`} disabled={!canRemove} onClick={() => onRemove(rule.key)}>
          ×
        </button>
      </span>
    </div>
  );
});
