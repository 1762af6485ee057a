import type { RefObject } from "react";
import { formatNumber } from "../../lib/format.js";
import { AudioPlayer } from "../audio/AudioPlayer.js";
import { Icon } from "../Icon.js";
import type { Generation } from "./useSpeechGeneration.js";

/**
 * The generated audio: the shared player, playing while the response streams (its <audio>
 * element stays mounted: the stream needs it before the first byte arrives), then the finished
 * file's waveform, a Download and the regeneration counter.
 */
export function GenerationPlayer({ audio, current, streaming, receivedSeconds }: { audio: RefObject<HTMLAudioElement>; current: Generation | null; streaming: boolean; receivedSeconds: number }) {
  return (
    <section className="tts-player card" aria-label="Generated audio" hidden={!current && !streaming}>
      <AudioPlayer label="Generated speech" audioRef={audio} waveform={current?.blob ?? null} receivedSeconds={streaming ? receivedSeconds : null} testId="tts-audio">
        {current?.url && (
          <a className="button button-small" href={current.url} download={current.fileName}>
            <Icon name="download" size={16} />
            Download
          </a>
        )}
      </AudioPlayer>
      {current && (
        <p className="tts-player-meta muted" data-testid="regeneration-counter">
          {current.regenerationCount > 0 ? `Regeneration ${current.regenerationCount}` : "New generation"} · {current.freeRegenerationsRemaining} free regeneration
          {current.freeRegenerationsRemaining === 1 ? "" : "s"} remaining · {current.cost === 0 && current.regenerationCount > 0 ? "no credits charged" : `${formatNumber(current.cost)} credits`}
        </p>
      )}
      {current?.warnings.map((w) => (
        <p key={w} className="inline-warning">
          {w}
        </p>
      ))}
    </section>
  );
}
