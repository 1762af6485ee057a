import { useEffect, useState } from "react";
import { AudioPlayer } from "../audio/AudioPlayer.js";
import { Icon } from "../Icon.js";
import { useSampleMedia } from "./sampleMedia.js";
import type { PvcSample } from "./wizard.js";

/**
 * Voice Data's sample player bar (professional-voice-clone.md §2): the previous and next sample,
 * and the shared player's play, seek and time, over the sample's signed URL and the server's
 * waveform (a long sample is never downloaded whole to draw it). Moving to another sample plays it.
 */
export function SamplePlayerBar({ voiceId, samples }: { voiceId: string; samples: readonly PvcSample[] }) {
  const [index, setIndex] = useState(0);
  const [autoPlay, setAutoPlay] = useState(false);
  // Samples come and go (uploads, deletes): stay on a sample that exists.
  const at = Math.min(index, Math.max(0, samples.length - 1));
  useEffect(() => {
    if (at !== index) setIndex(at);
  }, [at, index]);
  const sample = samples[at] ?? null;
  const media = useSampleMedia(voiceId, sample?.sample_id ?? null);
  if (!sample) return null;

  const go = (to: number) => {
    setAutoPlay(true);
    setIndex(Math.max(0, Math.min(samples.length - 1, to)));
  };
  return (
    <div className="pvc-player-bar" role="region" aria-label="Sample player">
      <button type="button" className="icon-button" aria-label="Previous sample" disabled={at === 0} onClick={() => go(at - 1)}>
        <Icon name="back" size={16} />
      </button>
      <div className="pvc-player-main">
        <p className="pvc-player-name">
          <span className="pvc-sample-name">{sample.file_name}</span>
          <span className="muted">
            {at + 1} of {samples.length}
          </span>
        </p>
        {media.failed ? (
          <p className="form-error" role="alert">
            This sample could not be loaded.
          </p>
        ) : (
          <AudioPlayer key={sample.sample_id} label={sample.file_name} src={media.url} peaks={media.peaks} variant="compact" autoPlay={autoPlay} testId="pvc-player-audio" />
        )}
      </div>
      <button type="button" className="icon-button" aria-label="Next sample" disabled={at >= samples.length - 1} onClick={() => go(at + 1)}>
        <Icon name="chevron" size={16} />
      </button>
    </div>
  );
}
