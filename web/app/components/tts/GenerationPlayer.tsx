import type { RefObject } from "react";
import { formatNumber } from "../../lib/format.js";
import type { Generation } from "./useSpeechGeneration.js";

/**
 * The generated audio: one <audio> element that plays while the response streams, then a
 * Download of the finished file and the regeneration counter. The element stays mounted (the
 * stream needs it before the first byte arrives); the section is hidden until there is audio.
 */
export function GenerationPlayer({ audio, current, streaming }: { audio: RefObject<HTMLAudioElement>; current: Generation | null; streaming: boolean }) {
  return (
    <section className="tts-player card" aria-label="Generated audio" hidden={!current && !streaming}>
      <audio ref={audio} controls preload="auto" data-testid="tts-audio" aria-label="Generated speech" />
      {current && (
        <div className="tts-player-meta">
          {current.url ? (
            <a className="button button-small" href={current.url} download={current.fileName}>
              Download
            </a>
          ) : (
            <span className="muted" role="status">
              Streaming…
            </span>
          )}
          <span className="muted" data-testid="regeneration-counter">
            {current.regenerationCount > 0 ? `Regeneration ${current.regenerationCount}` : "New generation"} · {current.freeRegenerationsRemaining} free regeneration
            {current.freeRegenerationsRemaining === 1 ? "" : "s"} remaining · {current.cost === 0 && current.regenerationCount > 0 ? "no credits charged" : `${formatNumber(current.cost)} credits`}
          </span>
        </div>
      )}
      {current?.warnings.map((w) => (
        <p key={w} className="inline-warning">
          {w}
        </p>
      ))}
    </section>
  );
}
