/** Captions for a narrated video made of lines read one after another with a gap between them. */
export interface Cue {
  start: number;
  end: number;
  text: string;
}

/** Each line's cue: it starts where the previous line's audio and the gap ended. */
export function tipsCues(lines: readonly string[], seconds: readonly number[], gapSeconds: number): Cue[] {
  if (lines.length !== seconds.length) throw new Error("one duration per line");
  let at = 0;
  return lines.map((text, i) => {
    const cue = { start: at, end: at + seconds[i], text };
    at = cue.end + gapSeconds;
    return cue;
  });
}

const stamp = (s: number) => {
  const ms = Math.round(s * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const sec = Math.floor(ms / 1000) % 60;
  return `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}:${String(sec).padStart(2, "0")}.${String(ms % 1000).padStart(3, "0")}`;
};

/** A WebVTT file of the cues. */
export function toWebVtt(cues: readonly Cue[]): string {
  return `WEBVTT\n\n${cues.map((c, i) => `${i + 1}\n${stamp(c.start)} --> ${stamp(c.end)}\n${c.text}\n`).join("\n")}`;
}
