import { useId } from "react";
import { countCharacters } from "../../lib/characters.js";
import { formatNumber } from "../../lib/format.js";
import { limitText, textMessages } from "./text.js";

/**
 * The text editor with its character counter. Input past the limit is cut, with the spec's
 * message; text already over it (after a switch to a model with a lower limit) is kept, flagged,
 * and blocks Generate until it is shortened.
 */
export function TextEditor({ text, limit, notice, onChange, disabled }: {
  text: string;
  limit: number;
  notice: string | null;
  onChange: (text: string, notice: string | null) => void;
  disabled?: boolean;
}) {
  const id = useId();
  const count = countCharacters(text);
  const over = count > limit;
  const message = over ? textMessages.tooManyCharacters(limit) : notice;
  return (
    <div className="tts-editor">
      <label htmlFor={id} className="visually-hidden">
        Text
      </label>
      <textarea
        id={id}
        className="tts-textarea"
        placeholder="Start typing here or paste any text you want to turn into lifelike speech…"
        value={text}
        disabled={disabled}
        aria-invalid={over || undefined}
        aria-describedby={`${id}-count${message ? ` ${id}-notice` : ""}`}
        onChange={(e) => {
          const next = e.target.value;
          const nextCount = countCharacters(next);
          // Growing past the limit is cut; editing text that is already over it is allowed.
          if (nextCount > limit && nextCount > count) {
            const cut = limitText(next, Math.max(limit, count));
            onChange(cut.text, textMessages.tooManyCharacters(limit));
          } else onChange(next, null);
        }}
      />
      <div className="editor-footer">
        {message ? (
          <p className="inline-warning" id={`${id}-notice`} role="status">
            {message}
          </p>
        ) : (
          <span />
        )}
        <span className="char-count" id={`${id}-count`} data-over={over || undefined}>
          {formatNumber(count)} / {formatNumber(limit)}<span className="visually-hidden"> characters</span>
        </span>
      </div>
    </div>
  );
}
