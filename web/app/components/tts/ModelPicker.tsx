import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { formatMultiplier, summariseLanguages } from "./models.js";
import type { Model } from "./wire.js";
import { useInViewport } from "../ui/useInViewport.js";

/**
 * The model picker: a button and a listbox of the models that can do text to speech, each with
 * its description, languages and credit multiplier.
 */
export function ModelPicker({ models, value, onChange, warning }: { models: readonly Model[]; value: string; onChange: (modelId: string) => void; warning?: string | null }) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const listbox = useRef<HTMLUListElement | null>(null);
  const popover = useRef<HTMLElement | null>(null);
  const shift = useInViewport(popover, open);
  const baseId = useId();
  const current = models.find((m) => m.model_id === value);

  useEffect(() => {
    if (!open) return;
    setActive(Math.max(0, models.findIndex((m) => m.model_id === value)));
    listbox.current?.focus();
    const onPointer = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointer);
    return () => document.removeEventListener("pointerdown", onPointer);
  }, [open, models, value]);

  function choose(id: string) {
    onChange(id);
    setOpen(false);
    trigger.current?.focus();
  }

  function onKeyDown(e: KeyboardEvent) {
    if (e.key === "ArrowDown") setActive((i) => Math.min(models.length - 1, i + 1));
    else if (e.key === "ArrowUp") setActive((i) => Math.max(0, i - 1));
    else if (e.key === "Home") setActive(0);
    else if (e.key === "End") setActive(models.length - 1);
    else if (e.key === "Enter" || e.key === " ") {
      const m = models[active];
      if (m) choose(m.model_id);
    } else if (e.key === "Escape") {
      e.stopPropagation();
      setOpen(false);
      trigger.current?.focus();
    } else return;
    e.preventDefault();
  }

  return (
    <div className="model-picker" ref={root}>
      <span className="control-label" aria-hidden="true">
        Model
      </span>
      {/* Named by its visible text with "Model" before it, so the name contains what is shown. */}
      <button ref={trigger} type="button" className="model-trigger" aria-haspopup="listbox" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        <span className="model-trigger-name">
          <span className="visually-hidden">Model: </span>
          {current?.name ?? "Select a model"}
        </span>
        {current && <span className="badge">{formatMultiplier(current.model_rates.character_cost_multiplier)}</span>}
        <span aria-hidden="true" className="caret">▾</span>
      </button>
      {open && (
        <ul
          ref={(el) => {
            listbox.current = el;
            popover.current = el;
          }}
          style={shift}
          className="model-list"
          role="listbox"
          tabIndex={-1}
          aria-label="Models"
          aria-activedescendant={`${baseId}-opt-${active}`}
          onKeyDown={onKeyDown}
          onBlur={(e) => !root.current?.contains(e.relatedTarget as Node | null) && e.relatedTarget && setOpen(false)}
        >
          {models.map((m, i) => (
            <li
              key={m.model_id}
              id={`${baseId}-opt-${i}`}
              role="option"
              aria-selected={m.model_id === value}
              data-active={i === active || undefined}
              className="model-option"
              onClick={() => choose(m.model_id)}
              onMouseMove={() => i !== active && setActive(i)}
            >
              <span className="model-option-head">
                <strong>{m.name}</strong>
                <span className="badge" title="Credits per character">
                  {formatMultiplier(m.model_rates.character_cost_multiplier)} credits
                </span>
              </span>
              <span className="model-option-description">{m.description}</span>
              <span className="model-option-languages">{summariseLanguages(m.languages)}</span>
            </li>
          ))}
        </ul>
      )}
      {warning && (
        <p className="inline-warning" role="status">
          {warning}
        </p>
      )}
    </div>
  );
}
