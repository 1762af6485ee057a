/**
 * Plays an audio response while it downloads (Media Source Extensions; Chromium takes MP3 as
 * "audio/mpeg"), and returns the whole audio as a Blob once it has arrived. Without MSE support
 * it waits for the whole response and then plays the Blob.
 */
export function canStreamAudio(mime: string): boolean {
  return typeof window !== "undefined" && typeof window.MediaSource !== "undefined" && window.MediaSource.isTypeSupported(mime);
}

function appendChunk(buffer: SourceBuffer, chunk: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      buffer.removeEventListener("updateend", done);
      buffer.removeEventListener("error", failed);
      resolve();
    };
    const failed = () => {
      buffer.removeEventListener("updateend", done);
      buffer.removeEventListener("error", failed);
      reject(new Error("The browser could not decode the audio stream."));
    };
    buffer.addEventListener("updateend", done);
    buffer.addEventListener("error", failed);
    buffer.appendBuffer(chunk as Uint8Array<ArrayBuffer>);
  });
}

async function readAll(reader: ReadableStreamDefaultReader<Uint8Array>, chunks: Uint8Array[], onChunk?: (c: Uint8Array) => Promise<void>): Promise<void> {
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    if (!value?.byteLength) continue;
    chunks.push(value);
    if (onChunk) await onChunk(value);
  }
}

/** Bytes per second of audio at the bitrate the page asks for (mp3_44100_128), for estimates without MSE. */
const ESTIMATE_BYTES_PER_SECOND = 128_000 / 8;

/** How much audio has arrived: what the element has buffered, or an estimate from the bytes. */
function receivedSeconds(audio: HTMLAudioElement, bytes: number, buffered: boolean): number {
  if (buffered && audio.buffered.length) return audio.buffered.end(audio.buffered.length - 1);
  return bytes / ESTIMATE_BYTES_PER_SECOND;
}

/**
 * Streams `body` into `audio` and resolves with the finished Blob. The element plays from the
 * first chunk; `onProgress` hears the seconds of audio received so far. The caller owns the
 * Blob (and any object URL made from it). An abort ends the stream early: check the signal.
 */
export async function streamIntoAudio(body: ReadableStream<Uint8Array>, audio: HTMLAudioElement, mime: string, signal: AbortSignal, onProgress?: (seconds: number) => void): Promise<Blob> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  const abort = () => void reader.cancel().catch(() => undefined);
  signal.addEventListener("abort", abort);
  try {
    let bytes = 0;
    if (!canStreamAudio(mime)) {
      await readAll(reader, chunks, async (chunk) => {
        bytes += chunk.byteLength;
        onProgress?.(receivedSeconds(audio, bytes, false));
      });
      return new Blob(chunks as Uint8Array<ArrayBuffer>[], { type: mime });
    }
    const source = new MediaSource();
    const sourceUrl = URL.createObjectURL(source);
    audio.src = sourceUrl;
    await new Promise<void>((resolve) => source.addEventListener("sourceopen", () => resolve(), { once: true }));
    // Attached: the URL is no longer needed.
    URL.revokeObjectURL(sourceUrl);
    const buffer = source.addSourceBuffer(mime);
    let started = false;
    await readAll(reader, chunks, async (chunk) => {
      bytes += chunk.byteLength;
      if (source.readyState !== "open" || signal.aborted) return;
      await appendChunk(buffer, chunk);
      onProgress?.(receivedSeconds(audio, bytes, true));
      if (!started) {
        started = true;
        // Autoplay may be refused without a recent user gesture; the controls stay usable.
        audio.play().catch(() => undefined);
      }
    });
    if (source.readyState === "open" && !buffer.updating) source.endOfStream();
    return new Blob(chunks as Uint8Array<ArrayBuffer>[], { type: mime });
  } finally {
    signal.removeEventListener("abort", abort);
  }
}

/**
 * Moves the element from the stream to the finished Blob's URL once it is not playing (now if
 * paused, else when it ends), so replay and seeking use the complete file.
 */
export function settleOnBlob(audio: HTMLAudioElement, url: string): () => void {
  const swap = () => {
    if (audio.src === url) return;
    audio.src = url;
    audio.load();
  };
  if (audio.paused) {
    swap();
    return () => undefined;
  }
  audio.addEventListener("ended", swap, { once: true });
  return () => audio.removeEventListener("ended", swap);
}
