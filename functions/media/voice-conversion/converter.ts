/**
 * The embedded VoiceConverter: every decode, conversion, isolation and encode runs on the
 * worker pool; the request loop only hands over a copy of the bytes and relays chunks.
 */
import { ConversionPool } from "./pool.js";
import type { AudioInput, VoiceConverter } from "./port.js";
import type { InputSpec } from "./protocol.js";

function spec(input: AudioInput): { input: InputSpec; transfer: ArrayBuffer[] } {
  // A copy in a buffer of its own, so it can move to the worker without detaching the caller's
  // (Buffer#slice would be a view on the caller's memory, and moving it would detach theirs).
  const bytes = new Uint8Array(input.bytes);
  return { input: { bytes, fileFormat: input.fileFormat, maxBytes: input.maxBytes, maxSeconds: input.maxSeconds }, transfer: [bytes.buffer as ArrayBuffer] };
}

export function createVoiceConverter(opts: { size?: number } = {}): VoiceConverter {
  const pool = new ConversionPool(opts);
  return {
    convert(req) {
      const { input, transfer } = spec(req);
      return pool.start(
        {
          kind: "convert",
          input,
          target: req.target,
          settings: req.settings,
          seed: req.seed,
          removeBackgroundNoise: req.removeBackgroundNoise,
          format: req.format,
          firstBlockSeconds: req.firstBlockSeconds ?? 0.5,
        },
        transfer,
      );
    },
    isolate(req) {
      const { input, transfer } = spec(req);
      return pool.start({ kind: "isolate", input, format: req.format, firstBlockSeconds: req.firstBlockSeconds ?? 0.5 }, transfer);
    },
    async measure(samples, sampleRate) {
      const copy = samples.slice();
      const h = pool.start({ kind: "measure", samples: copy, sampleRate }, [copy.buffer as ArrayBuffer]);
      const stats = await h.done;
      if (!stats) throw new Error("voice measurement returned nothing");
      return stats;
    },
    close: () => pool.close(),
  };
}
