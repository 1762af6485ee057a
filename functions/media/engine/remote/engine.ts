/**
 * Remote speech servers behind the engine port (kind "openai": an OpenAI-compatible server,
 * `POST {url}/v1/audio/speech` with model/voice/input/response_format "wav"). The server's WAV is
 * read as it streams, resampled to the product's rate and handed on as PCM chunks, so every output
 * format, history and credits work as for the embedded engines.
 *
 * A voice names its server and the server's voice in `VoiceProfile.engineVoice` ("ENGINE/VOICE").
 * Failures are `RemoteEngineError`s with the HTTP status the caller gets (502/503/504): the key is
 * never part of a message.
 */
import { applyGainDb } from "../../audio/gain.js";
import { Resampler, floatToInt16, int16ToFloat } from "../../audio/index.js";
import type { OutputFormat, OutputFormatId } from "../../audio/formats.js";
import { encodeChunks, sequence } from "../encode-stream.js";
import { EngineVoiceUnavailableError, type EncodedChunk, type EncodedSequenceChunk, type SequenceChunk, type SpeechEngine, type SynthesisChunk, type SynthesisRequest } from "../port.js";
import { CircuitBreaker, type BreakerSnapshot } from "./breaker.js";
import { keyHeaders, voicesPath, type RemoteEngineConfig, type RemoteTarget } from "./config.js";

export class RemoteEngineError extends Error {
  override name = "RemoteEngineError";
  constructor(
    readonly statusCode: 502 | 503 | 504,
    readonly code: string,
    message: string,
    /** Set when the circuit breaker refuses: the caller's Retry-After. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export interface RemoteEngineHealth extends BreakerSnapshot {
  id: string;
  kind: RemoteEngineConfig["kind"];
  /** Present when a probe was asked for: the server's voice list answered (ok) or not. */
  probe?: { ok: boolean; status: number | null; error: string | null };
}

export interface RemoteEngineOptions {
  fetch?: typeof fetch;
  /** The breakers' clock (tests move it). */
  now?: () => number;
}

const EMPTY = { characters: [], character_start_times_seconds: [], character_end_times_seconds: [] };
/** PCM handed on per chunk (samples at the server's rate) and the largest WAV header accepted. */
const CHUNK_BYTES = 8192;
const MAX_HEADER_BYTES = 4096;

export function splitEngineVoice(engineVoice: string | undefined): { engine: string; voice: string } | null {
  const i = engineVoice?.indexOf("/") ?? -1;
  return engineVoice && i > 0 ? { engine: engineVoice.slice(0, i), voice: engineVoice.slice(i + 1) } : null;
}

/** Removes the key (should a server echo it) and bounds a server's message. */
function scrub(text: string, key: string | undefined): string {
  const t = key ? text.split(key).join("***") : text;
  return t.replace(/\s+/g, " ").trim().slice(0, 200);
}

export class RemoteEngine implements SpeechEngine {
  readonly id = "remote";
  private readonly engines: Map<string, RemoteEngineConfig>;
  private readonly breakers = new Map<string, CircuitBreaker>();
  private readonly fetchImpl: typeof fetch;
  private readonly now?: () => number;
  /** xtts: the conditioning each clone's reference gave, most recently used last. */
  private readonly conditioning = new Map<string, XttsConditioning>();

  constructor(
    engines: readonly RemoteEngineConfig[],
    readonly sampleRate: number,
    opts: RemoteEngineOptions = {},
  ) {
    this.engines = new Map(engines.map((e) => [e.id, e]));
    this.fetchImpl = opts.fetch ?? fetch;
    this.now = opts.now;
    for (const e of engines) this.breaker(e.id, e);
  }

  /** The breaker of an engine (the operator's: its id; a workspace's: "WORKSPACE/ENGINE"), made on first use. */
  private breaker(key: string, cfg: RemoteEngineConfig): CircuitBreaker {
    let b = this.breakers.get(key);
    if (!b) {
      b = new CircuitBreaker(cfg.breakerFailures, cfg.breakerCooldownMs, this.now);
      this.breakers.set(key, b);
    }
    return b;
  }

  /** A workspace engine's breaker state (ok when it has not been asked yet). */
  stateOf(target: Pick<RemoteTarget, "config" | "breakerKey">): BreakerSnapshot {
    return this.breaker(target.breakerKey, target.config).snapshot();
  }

  /** Forgets a removed workspace engine's breaker and cached conditioning. */
  forget(breakerKey: string): void {
    this.breakers.delete(breakerKey);
    for (const k of this.conditioning.keys()) if (k.startsWith(`${breakerKey}|`)) this.conditioning.delete(k);
  }

  /**
   * Each engine's state from its breaker (ok / failing / open, the last error's class), and with
   * `probe` whether its voice list answers now. Never a key or a URL.
   */
  async health(probe = false): Promise<RemoteEngineHealth[]> {
    return Promise.all(
      [...this.engines.values()].map(async (cfg) => ({
        id: cfg.id,
        kind: cfg.kind,
        ...this.breakers.get(cfg.id)!.snapshot(),
        ...(probe ? { probe: await this.probe(cfg) } : {}),
      })),
    );
  }

  /** Whether a server answers now (its voice list, or for xtts its languages): never a key or a URL in the answer. */
  async probe(cfg: RemoteEngineConfig): Promise<{ ok: boolean; status: number | null; error: string | null }> {
    try {
      const res = await this.fetchImpl(`${cfg.url}${voicesPath(cfg.kind)}`, { headers: keyHeaders(cfg), signal: AbortSignal.timeout(cfg.firstByteTimeoutMs) });
      await res.body?.cancel().catch(() => undefined);
      // A server without a voice list is still up: a 404 there is an answer.
      const ok = res.ok || res.status === 404;
      return { ok, status: res.status, error: ok ? null : res.status === 401 || res.status === 403 ? "remote_engine_unauthorized" : "remote_engine_failed" };
    } catch (e) {
      const n = (e as Error).name;
      return { ok: false, status: null, error: n === "TimeoutError" ? "remote_engine_timeout" : n === "AddressRefused" ? "remote_engine_address_refused" : "remote_engine_unreachable" };
    }
  }

  /** The engine and voice a request goes to: the workspace's engine the product resolved, else the operator's. */
  private targetOf(req: SynthesisRequest): RemoteTarget {
    if (req.remote) return req.remote;
    const ref = splitEngineVoice(req.voice.engineVoice);
    const cfg = ref && !ref.engine.startsWith("@") ? this.engines.get(ref.engine) : undefined;
    if (!ref || !cfg) throw new EngineVoiceUnavailableError(`The remote engine of this voice (${ref?.engine.replace(/^@/, "") ?? "none"}) is not configured ${ref?.engine.startsWith("@") ? "in this workspace" : "on this server"}.`);
    return { config: cfg, breakerKey: cfg.id, voice: ref.voice };
  }

  async *synthesize(req: SynthesisRequest, signal?: AbortSignal): AsyncIterable<SynthesisChunk> {
    const target = this.targetOf(req);
    yield* this.guarded(target, signal, () =>
      this.exchange(target, signal, req.settings.volume, async (post, timedOut) => {
        const cfg = target.config;
        if (cfg.kind === "xtts") {
          const language = xttsLanguage(req.languageCode ?? req.voice.language);
          if (!language) throw new EngineVoiceUnavailableError(`The remote engine ${cfg.id} (XTTS) does not speak ${req.languageCode ?? req.voice.language}; it speaks ${XTTS_LANGUAGES.join(", ")}.`);
          const cond = await this.xttsConditioning(target, post, timedOut);
          return post(`${cfg.url}/tts_stream`, {
            headers: { "content-type": "application/json", accept: "audio/wav" },
            body: JSON.stringify({ text: req.text, language, speaker_embedding: cond.speaker_embedding, gpt_cond_latent: cond.gpt_cond_latent, add_wav_header: true, stream_chunk_size: "20" }),
          });
        }
        const { url, accept, body } = this.request(cfg, target.voice, req);
        return post(url, { headers: { "content-type": "application/json", accept }, body });
      }),
    );
  }

  /**
   * Speech to speech into a remote voice: the upload as it came, sent to an ElevenLabs-compatible
   * server (`POST {url}/v1/speech-to-speech/{voice}/stream?output_format=pcm_22050`, multipart
   * `audio`, `model_id`, `voice_settings`, `seed`, `remove_background_noise`, `file_format`), its
   * PCM read back like speech. Other kinds have no speech to speech: the caller refuses them first
   * (`canConvert`), and an `EngineVoiceUnavailableError` says so here too.
   */
  async *convert(target: RemoteTarget, input: RemoteConversion, signal?: AbortSignal): AsyncIterable<SynthesisChunk> {
    const cfg = target.config;
    if (!canConvert(cfg.kind)) throw new EngineVoiceUnavailableError(cannotConvertMessage(cfg));
    yield* this.guarded(target, signal, () =>
      this.exchange(target, signal, input.volumeDb, async (post) => {
        const form = new FormData();
        form.append("audio", new Blob([input.bytes as Uint8Array<ArrayBuffer>], { type: input.contentType }), input.fileName || "audio");
        form.append("model_id", input.modelId);
        form.append("voice_settings", JSON.stringify(input.settings));
        if (input.seed !== null) form.append("seed", String(input.seed));
        form.append("remove_background_noise", String(input.removeBackgroundNoise));
        form.append("file_format", input.fileFormat);
        const encoded = new Response(form);
        return post(`${cfg.url}/v1/speech-to-speech/${encodeURIComponent(target.voice)}/stream?output_format=pcm_${ELEVENLABS_PCM_RATE}`, {
          headers: { accept: "audio/pcm, application/octet-stream", "content-type": encoded.headers.get("content-type")! },
          body: new Uint8Array(await encoded.arrayBuffer()),
        });
      }),
    );
  }

  /** A request behind the target's circuit breaker: refused at once while it is open; its verdict counted. */
  private async *guarded(target: RemoteTarget, signal: AbortSignal | undefined, run: () => AsyncIterable<SynthesisChunk>): AsyncIterable<SynthesisChunk> {
    const cfg = target.config;
    const breaker = this.breaker(target.breakerKey, cfg);
    const admitted = breaker.admit();
    if ("retryAfterSeconds" in admitted) {
      throw new RemoteEngineError(503, "remote_engine_unavailable", `The remote engine ${cfg.id} failed ${cfg.breakerFailures} times in a row; it is not asked again for ${admitted.retryAfterSeconds} s.`, admitted.retryAfterSeconds);
    }
    let verdict: "ok" | "failed" | null = null;
    try {
      yield* run();
      verdict = "ok";
    } catch (e) {
      if (!signal?.aborted && e instanceof RemoteEngineError) {
        verdict = "failed";
        breaker.failed(e.code);
      }
      throw e;
    } finally {
      if (verdict === "ok") breaker.succeeded();
      else if (verdict === null) breaker.abandoned();
    }
  }

  /**
   * One exchange with a server under the engine's timeouts (first byte, total): `send` posts the
   * request through the checked `post` (the key added, failures classed), the answer is read as
   * audio (elevenlabs: raw PCM at ELEVENLABS_PCM_RATE; openai and xtts: a WAV).
   */
  private async *exchange(
    target: RemoteTarget,
    signal: AbortSignal | undefined,
    volumeDb: number | undefined,
    send: (post: (url: string, init: RequestInit) => Promise<Response>, timedOut: () => RemoteEngineError | null) => Promise<Response>,
  ): AsyncIterable<SynthesisChunk> {
    const cfg = target.config;
    const name = cfg.id;
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    signal?.addEventListener("abort", onAbort, { once: true });
    let phase: "first byte" | "total" | null = null;
    const firstTimer = setTimeout(() => {
      phase = "first byte";
      stop.abort();
    }, cfg.firstByteTimeoutMs);
    const totalTimer = setTimeout(() => {
      phase = "total";
      stop.abort();
    }, cfg.totalTimeoutMs);
    const timedOut = () => (signal?.aborted || !phase ? null : new RemoteEngineError(504, "remote_engine_timeout", `The remote engine ${name} did not answer in time (${phase === "first byte" ? `no audio within ${cfg.firstByteTimeoutMs} ms` : `not finished within ${cfg.totalTimeoutMs} ms`}).`));
    try {
      const post = async (url: string, init: RequestInit): Promise<Response> => {
        let res: Response;
        try {
          res = await this.fetchImpl(url, { ...init, method: "POST", headers: { ...(init.headers as Record<string, string>), ...keyHeaders(cfg) }, signal: stop.signal, redirect: "error" });
        } catch (e) {
          if (signal?.aborted) throw e;
          // The fetch the platform gives refuses hosts that resolve to addresses it may not reach.
          if ((e as Error).name === "AddressRefused") throw new RemoteEngineError(502, "remote_engine_address_refused", `The remote engine ${name} is at an address this server may not connect to (${(e as { addressClass?: string }).addressClass ?? "refused"}).`);
          throw timedOut() ?? new RemoteEngineError(502, "remote_engine_unreachable", `The remote engine ${name} could not be reached.`);
        }
        if (!res.ok) {
          const body = scrub(await res.text().catch(() => ""), cfg.key);
          const why = body ? `: ${body}` : "";
          if (res.status === 401 || res.status === 403) throw new RemoteEngineError(502, "remote_engine_unauthorized", `The remote engine ${name} refused the server's key (HTTP ${res.status})${why}`);
          if (res.status === 429) throw new RemoteEngineError(503, "remote_engine_busy", `The remote engine ${name} is busy or over its quota (HTTP 429); try again later${why}`);
          throw new RemoteEngineError(502, "remote_engine_failed", `The remote engine ${name} failed (HTTP ${res.status})${why}`);
        }
        return res;
      };
      const res = await send(post, timedOut);
      if (!res.body) throw new RemoteEngineError(502, "remote_engine_failed", `The remote engine ${name} sent no audio.`);
      const type = (res.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
      if (/^(application\/json|text\/)/.test(type)) {
        await res.body.cancel().catch(() => undefined);
        throw new RemoteEngineError(502, "remote_engine_bad_audio", `The remote engine ${name} sent audio this server cannot read (${type}, not audio).`);
      }
      if (type === "audio/mpeg" || type === "audio/mp3") {
        await res.body.cancel().catch(() => undefined);
        throw mp3Answer(cfg);
      }
      // elevenlabs: raw 16-bit mono PCM at the rate asked for; openai and xtts: a WAV.
      const raw = cfg.kind === "elevenlabs" ? ELEVENLABS_PCM_RATE : 0;
      yield* this.decode(res.body, cfg, stop.signal, timedOut, () => clearTimeout(firstTimer), volumeDb, raw);
    } finally {
      clearTimeout(firstTimer);
      clearTimeout(totalTimer);
      signal?.removeEventListener("abort", onAbort);
      stop.abort();
    }
  }

  /** The speech request of each kind. */
  private request(cfg: RemoteEngineConfig, voice: string, req: SynthesisRequest): { url: string; accept: string; body: string } {
    if (cfg.kind === "elevenlabs") {
      const { stability, similarity_boost, style, use_speaker_boost, speed } = req.settings;
      return {
        url: `${cfg.url}/v1/text-to-speech/${encodeURIComponent(voice)}/stream?output_format=pcm_${ELEVENLABS_PCM_RATE}`,
        accept: "audio/pcm, application/octet-stream",
        // volume stays here: it is applied to the audio that comes back, as for every engine.
        body: JSON.stringify({ text: req.text, model_id: cfg.model, voice_settings: { stability, similarity_boost, style, use_speaker_boost, speed }, ...(req.languageCode ? { language_code: req.languageCode } : {}) }),
      };
    }
    return { url: `${cfg.url}/v1/audio/speech`, accept: "audio/wav", body: JSON.stringify({ model: cfg.model, voice, input: req.text, response_format: "wav", speed: req.settings.speed }) };
  }

  /**
   * Reads a streamed 16-bit PCM WAV (RIFF header, chunks until "data", then samples), or with
   * `rawRate` headerless 16-bit mono PCM at that rate.
   */
  private async *decode(body: ReadableStream<Uint8Array>, cfg: RemoteEngineConfig, stopped: AbortSignal, timedOut: () => RemoteEngineError | null, gotBytes: () => void, volumeDb?: number, rawRate = 0): AsyncIterable<SynthesisChunk> {
    const name = cfg.id;
    const garbage = (why: string) => (why.startsWith("an MP3 file") ? mp3Answer(cfg) : new RemoteEngineError(502, "remote_engine_bad_audio", `The remote engine ${name} sent audio this server cannot read (${why}).`));
    const reader = body.getReader();
    let head: Uint8Array = new Uint8Array(0);
    let rate = rawRate;
    let channels = 1;
    let resampler: Resampler | null = rate && rate !== this.sampleRate ? new Resampler(rate, this.sampleRate) : null;
    let checkedRaw = !rawRate;
    let pending: Uint8Array = new Uint8Array(0);
    let any = false;
    const emit = (bytes: Uint8Array, last: boolean): SynthesisChunk | null => {
      const frames = Math.floor(bytes.length / (2 * channels));
      const view = new DataView(bytes.buffer, bytes.byteOffset, frames * 2 * channels);
      const mono = new Int16Array(frames);
      for (let i = 0; i < frames; i++) {
        let s = 0;
        for (let c = 0; c < channels; c++) s += view.getInt16((i * channels + c) * 2, true);
        mono[i] = Math.round(s / channels);
      }
      let pcm: Int16Array = mono;
      if (resampler) {
        const out = resampler.process(int16ToFloat(mono));
        pcm = floatToInt16(last ? concatF(out, resampler.flush()) : out);
      }
      // voice_settings.volume, as the embedded engines apply it (functions/media/audio/gain.ts).
      pcm = applyGainDb(pcm, volumeDb);
      return pcm.length ? { pcm, sampleRate: this.sampleRate, textOffset: 0, alignment: EMPTY } : null;
    };
    try {
      for (;;) {
        let r: ReadableStreamReadResult<Uint8Array>;
        try {
          r = await reader.read();
        } catch (e) {
          throw timedOut() ?? (stopped.aborted ? e : new RemoteEngineError(502, "remote_engine_failed", `The remote engine ${name} broke off the audio stream.`));
        }
        if (r.done) break;
        gotBytes();
        if (!rate) {
          head = concatB(head, r.value);
          const parsed = parseWavHead(head);
          if (parsed === "more") {
            if (head.length > MAX_HEADER_BYTES) throw garbage("no WAV data within the first 4 KB");
            continue;
          }
          if (typeof parsed === "string") throw garbage(looksLikeMp3(head) ? "an MP3 file" : parsed);
          rate = parsed.sampleRate;
          channels = parsed.channels;
          if (rate !== this.sampleRate) resampler = new Resampler(rate, this.sampleRate);
          pending = head.subarray(parsed.dataOffset);
        } else pending = concatB(pending, r.value);
        if (!checkedRaw && pending.length >= 4) {
          checkedRaw = true;
          const what = containerOf(pending);
          if (what) throw garbage(`${what}, not raw 16-bit PCM`);
        }
        const whole = pending.length - (pending.length % (2 * channels));
        if (whole >= CHUNK_BYTES) {
          const c = emit(pending.subarray(0, whole), false);
          pending = pending.slice(whole);
          if (c) {
            any = true;
            yield c;
          }
        }
      }
      if (!rate) throw garbage(head.length ? "not a WAV file" : "an empty answer");
      if (!checkedRaw && containerOf(pending)) throw garbage(`${containerOf(pending)}, not raw 16-bit PCM`);
      const c = emit(pending, true);
      if (c) {
        any = true;
        yield c;
      }
      if (!any) throw garbage("no samples");
    } finally {
      reader.cancel().catch(() => undefined);
    }
  }

  /**
   * xtts: the conditioning the server computes from the clone's reference (POST /clone_speaker,
   * the audio as the form field `wav_file`), cached per clone and version so the reference is
   * sent once, not with every request.
   */
  private async xttsConditioning(target: RemoteTarget, post: (url: string, init: RequestInit) => Promise<Response>, timedOut: () => RemoteEngineError | null): Promise<XttsConditioning> {
    const key = `${target.breakerKey}|${target.voice}`;
    const have = this.conditioning.get(key);
    if (have) {
      this.conditioning.delete(key);
      this.conditioning.set(key, have);
      return have;
    }
    const name = target.config.id;
    if (!target.reference) throw new EngineVoiceUnavailableError(`The remote engine ${name} clones from reference audio, and this voice has none.`);
    const ref = await target.reference();
    const form = new FormData();
    form.append("wav_file", new Blob([ref.bytes as Uint8Array<ArrayBuffer>], { type: ref.mimeType }), ref.fileName);
    // Encoded here, its boundary in the header: the checked fetch sends bytes, not forms.
    const encoded = new Response(form);
    const res = await post(`${target.config.url}/clone_speaker`, { headers: { accept: "application/json", "content-type": encoded.headers.get("content-type")! }, body: new Uint8Array(await encoded.arrayBuffer()) });
    const text = await readBounded(res, MAX_CONDITIONING_BYTES).catch((e: unknown) => {
      throw timedOut() ?? (e instanceof RemoteEngineError ? e : new RemoteEngineError(502, "remote_engine_failed", `The remote engine ${name} broke off its answer to the reference audio.`));
    });
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
    const o = body as Partial<XttsConditioning> | null;
    const numbers = (a: unknown): a is number[] => Array.isArray(a) && a.length > 0 && a.every((x) => typeof x === "number");
    if (!o || !numbers(o.speaker_embedding) || !Array.isArray(o.gpt_cond_latent) || !o.gpt_cond_latent.length || !o.gpt_cond_latent.every(numbers)) {
      throw new RemoteEngineError(502, "remote_engine_failed", `The remote engine ${name} did not answer the reference audio with speaker conditioning (speaker_embedding, gpt_cond_latent).`);
    }
    const cond = { speaker_embedding: o.speaker_embedding, gpt_cond_latent: o.gpt_cond_latent };
    this.conditioning.set(key, cond);
    while (this.conditioning.size > MAX_CACHED_CONDITIONING) this.conditioning.delete(this.conditioning.keys().next().value!);
    return cond;
  }

  synthesizeEncoded(req: SynthesisRequest, format: OutputFormat | OutputFormatId, signal?: AbortSignal): AsyncIterable<EncodedChunk> {
    return encodeChunks(this.synthesize(req, signal), format);
  }

  synthesizeSequence(reqs: readonly SynthesisRequest[], signal?: AbortSignal): AsyncIterable<SequenceChunk> {
    return sequence((r, s) => this.synthesize(r, s), reqs, signal);
  }

  synthesizeSequenceEncoded(reqs: readonly SynthesisRequest[], format: OutputFormat | OutputFormatId, signal?: AbortSignal): AsyncIterable<EncodedSequenceChunk> {
    return encodeChunks(this.synthesizeSequence(reqs, signal), format);
  }

  async warm(): Promise<void> {}
  async close(): Promise<void> {}
  languages(): Array<{ language_id: string; name: string }> {
    return [];
  }
}

/** An upload to convert into a remote voice (speech to speech), as the product checked it. */
export interface RemoteConversion {
  bytes: Uint8Array;
  fileName: string;
  contentType: string;
  /** "pcm_s16le_16" (raw 16 kHz PCM) or "other" (a file the server decodes). */
  fileFormat: string;
  modelId: string;
  settings: { stability: number; similarity_boost: number; style: number; use_speaker_boost: boolean };
  seed: number | null;
  removeBackgroundNoise: boolean;
  volumeDb?: number;
}

/** Whether a kind of server converts speech to speech (ElevenLabs-compatible ones do; OpenAI's speech API and XTTS have none). */
export const canConvert = (kind: RemoteEngineConfig["kind"]) => kind === "elevenlabs";

const KIND_LABELS = { openai: "an OpenAI-compatible server", elevenlabs: "an ElevenLabs-compatible server", xtts: "a reference-audio (XTTS) server" } as const;

export function cannotConvertMessage(cfg: Pick<RemoteEngineConfig, "id" | "kind">): string {
  return `The remote engine ${cfg.id} is ${KIND_LABELS[cfg.kind]}, which has no speech to speech: only ElevenLabs-compatible engines convert speech into their voices. Use this voice for text to speech, or convert into another voice.`;
}

interface XttsConditioning {
  speaker_embedding: number[];
  gpt_cond_latent: number[][];
}

/** Clones whose conditioning is kept (each some hundreds of KB as numbers), and the largest answer read. */
const MAX_CACHED_CONDITIONING = 32;
const MAX_CONDITIONING_BYTES = 4 * 1024 * 1024;

/** The languages the XTTS streaming server accepts. */
export const XTTS_LANGUAGES = ["en", "de", "fr", "es", "it", "pl", "pt", "tr", "ru", "nl", "cs", "ar", "zh", "ja", "hu", "ko"] as const;

function xttsLanguage(code: string | null | undefined): string | null {
  const base = (code ?? "en").toLowerCase().split(/[-_]/)[0];
  return (XTTS_LANGUAGES as readonly string[]).includes(base) ? base : null;
}

async function readBounded(res: Response, max: number): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return "";
  const parts: Uint8Array[] = [];
  let n = 0;
  for (;;) {
    const r = await reader.read();
    if (r.done) break;
    n += r.value.length;
    if (n > max) {
      await reader.cancel().catch(() => undefined);
      throw new RemoteEngineError(502, "remote_engine_failed", `A remote engine answered more than ${max} bytes where a few were expected.`);
    }
    parts.push(r.value);
  }
  return Buffer.concat(parts).toString("utf8");
}

/** What the product asks each kind for, and the error when MP3 comes back instead. */
function mp3Answer(cfg: RemoteEngineConfig): RemoteEngineError {
  const asked = cfg.kind === "elevenlabs" ? `raw PCM (output_format=pcm_${ELEVENLABS_PCM_RATE})` : "WAV";
  return new RemoteEngineError(
    502,
    "remote_engine_bad_audio",
    `The remote engine ${cfg.id} answered MP3 although ${asked} was asked for; this server reads only WAV or raw 16-bit PCM from remote engines. Configure the engine to answer ${cfg.kind === "elevenlabs" ? "PCM" : "WAV"}, or use a server that does.`,
  );
}

/** An ID3 tag or an MPEG audio frame header (sync, layer III, a valid bit rate and sample rate). */
function looksLikeMp3(b: Uint8Array): boolean {
  if (b.length >= 3 && b[0] === 0x49 && b[1] === 0x44 && b[2] === 0x33) return true;
  return b.length >= 4 && b[0] === 0xff && (b[1] & 0xe6) === 0xe2 && (b[2] & 0xf0) !== 0xf0 && (b[2] & 0xf0) !== 0 && (b[2] & 0x0c) !== 0x0c;
}

/** The rate elevenlabs-kind servers are asked for (pcm_22050: one of the API's formats, the product's own rate). */
export const ELEVENLABS_PCM_RATE = 22050;

/** What the first bytes of an answer say it is when it is no raw PCM (a file format, a page, JSON), else null. */
function containerOf(b: Uint8Array): string | null {
  const s = String.fromCharCode(...b.subarray(0, 4));
  if (s === "RIFF") return "a WAV file";
  if (s === "OggS") return "an Ogg file";
  if (s === "fLaC") return "a FLAC file";
  if (s.startsWith("ID3")) return "an MP3 file";
  // Four printable characters opening like JSON or HTML: two loud samples are unlikely to.
  if (/^[{[<][\x20-\x7e]{3}$/.test(s)) return "a text page";
  return null;
}

function concatB(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (!a.length) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function concatF(a: Float32Array, b: Float32Array): Float32Array {
  const out = new Float32Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** "more": not enough bytes yet; a string: why it is no WAV this engine reads. */
export function parseWavHead(b: Uint8Array): { sampleRate: number; channels: number; dataOffset: number } | "more" | string {
  if (b.length < 12) return "more";
  const tag = (o: number) => String.fromCharCode(b[o], b[o + 1], b[o + 2], b[o + 3]);
  if (tag(0) !== "RIFF" || tag(8) !== "WAVE") return "not a WAV file";
  const v = new DataView(b.buffer, b.byteOffset, b.length);
  let o = 12;
  let fmt: { sampleRate: number; channels: number } | null = null;
  for (;;) {
    if (b.length < o + 8) return "more";
    const id = tag(o);
    const size = v.getUint32(o + 4, true);
    if (id === "data") {
      if (!fmt) return "data before its format";
      return { ...fmt, dataOffset: o + 8 };
    }
    if (b.length < o + 8 + size) return o + 8 + size > MAX_HEADER_BYTES ? "a header chunk too large" : "more";
    if (id === "fmt ") {
      const format = v.getUint16(o + 8, true);
      const channels = v.getUint16(o + 10, true);
      const sampleRate = v.getUint32(o + 12, true);
      const bits = v.getUint16(o + 22, true);
      if ((format !== 1 && format !== 0xfffe) || bits !== 16) return `WAV format ${format} with ${bits}-bit samples; 16-bit PCM is read`;
      if (channels < 1 || channels > 8 || sampleRate < 4000 || sampleRate > 192000) return `${channels} channels at ${sampleRate} Hz`;
      fmt = { sampleRate, channels };
    }
    o += 8 + size + (size & 1);
  }
}
