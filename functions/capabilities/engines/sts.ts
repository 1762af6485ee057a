/**
 * Speech to speech into a workspace engine's voice (issue 25 §3): the upload is measured on the
 * analysis workers (its duration is what is charged, as for the embedded converter), then sent as
 * it came to the workspace's engine, and the PCM that comes back is encoded like speech. Only
 * ElevenLabs-compatible engines convert; the others are refused before anything is charged.
 * The job has the embedded converter's shape (media/voice-conversion JobHandle), so charging,
 * refunds, history and streaming are speech to speech's own (speech/audioJobs.ts).
 */
import type { AppContext } from "../../platform/context.js";
import type { VoiceRecord } from "../../platform/stores/voices.js";
import { ApiError } from "../../platform/http/errors.js";
import { AudioLimitError } from "../../media/audio/decode/errors.js";
import type { OutputFormat } from "../../media/audio/formats.js";
import { encodeChunks } from "../../media/engine/encode-stream.js";
import { canConvert, cannotConvertMessage, type RemoteConversion, type RemoteTarget } from "../../media/engine/remote/index.js";
import type { DecodedInfo, EncodedPart, JobHandle } from "../../media/voice-conversion/port.js";
import { remoteEngine } from "./health.js";
import { isWorkspaceEngineVoice, remoteFailure, resolveRemoteParts } from "./speak.js";

/** Raw input (file_format pcm_s16le_16): 16-bit mono at 16 kHz. */
const RAW_BYTES_PER_SECOND = 16_000 * 2;

/**
 * The workspace engine a conversion into this voice goes to, or null when the voice is no
 * workspace engine's (the embedded converter's then). A kind that cannot convert is a 400 naming
 * the engine and what it cannot do.
 */
export async function conversionTarget(ctx: AppContext, workspaceId: string, voice: VoiceRecord): Promise<RemoteTarget | null> {
  if (!isWorkspaceEngineVoice(voice)) return null;
  const [part] = await resolveRemoteParts(ctx, workspaceId, [voice]);
  const target = part.remote!;
  if (!canConvert(target.config.kind)) throw new ApiError(400, "voice_cannot_convert", cannotConvertMessage(target.config));
  return target;
}

export interface RemoteConversionJob {
  input: Omit<RemoteConversion, "volumeDb">;
  format: OutputFormat;
  maxBytes: number;
  maxSeconds: number;
}

/** The conversion as a job: the duration first (for the charge), then the engine's audio, encoded. */
export function remoteConversion(ctx: AppContext, target: RemoteTarget, job: RemoteConversionJob): JobHandle {
  const stop = new AbortController();
  const { input } = job;
  const decoded: Promise<DecodedInfo> = (async () => {
    if (input.bytes.length > job.maxBytes) throw new AudioLimitError("bytes", job.maxBytes, input.bytes.length);
    if (input.fileFormat === "pcm_s16le_16") {
      const durationSecs = input.bytes.length / RAW_BYTES_PER_SECOND;
      if (durationSecs > job.maxSeconds) throw new AudioLimitError("duration", job.maxSeconds, durationSecs);
      return { durationSecs, sampleRate: 16_000, channels: 1, container: "pcm", codec: "pcm" } as DecodedInfo;
    }
    const m = await ctx.analyzer().measure(input.bytes, { maxBytes: job.maxBytes, maxSeconds: job.maxSeconds, points: 1, signal: stop.signal });
    return { durationSecs: m.durationSecs, sampleRate: m.sampleRate, channels: m.channels, container: m.container, codec: m.codec };
  })();
  decoded.catch(() => undefined);
  let finish!: () => void;
  let fail!: (e: unknown) => void;
  const done = new Promise<undefined>((res, rej) => {
    finish = () => res(undefined);
    fail = rej;
  });
  done.catch(() => undefined);
  async function* chunks(): AsyncGenerator<EncodedPart> {
    try {
      const { durationSecs } = await decoded;
      const engine = await remoteEngine(ctx);
      if (!engine) throw new ApiError(503, "remote_engine_unavailable", `The remote engine ${target.config.id} is not running on this server.`);
      let samples = 0;
      for await (const c of encodeChunks(engine.convert(target, input, stop.signal), job.format)) {
        samples += c.samples ?? 0;
        // The converted speech follows the input's timing: its share of the input so far.
        yield { audio: c.audio, seconds: Math.min(durationSecs, samples / job.format.sampleRate), samples: c.samples };
      }
      finish();
    } catch (e) {
      const err = remoteFailure(e);
      fail(err);
      throw err;
    }
  }
  return { decoded, chunks: chunks(), done, cancel: () => stop.abort() };
}
