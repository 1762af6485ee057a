/**
 * One live reading session of the recorder (professional-voice-clone.md §7 "Live speech
 * recognition"), independent of the websocket that carries it: messages in, messages and a close
 * out. The client names the language and the script passage it reads; the engine reads the
 * passage (its worker pool), the session's features are built and each audio chunk is followed
 * on the CPU workers (`live-open`, `live-align`), never on the request loop. Audio arriving while
 * a chunk is being followed waits and goes with the next step, so the order is kept and one
 * session uses one worker at a time.
 *
 * Bounds: message size (the transport), audio ahead of real time, audio per session, sessions per
 * workspace (LiveReadingRegistry), and an idle timeout (the transport's timers call `idle`).
 */
import { concatFloat32 } from "../../media/audio/bytes.js";
import type { AppContext } from "../../platform/context.js";
import { feedLiveReading, openLiveReading } from "../alignment/service.js";
import type { LiveSession } from "../../media/alignment/online.js";
import { LIVE_CLOSE, LIVE_READING, LiveClientMessage, credentialFromProtocols, liveMessages, type LiveServerMessage } from "../../platform/contract/pvcRecorder.js";
import { authenticateRequest } from "../../platform/http/auth.js";
import { ApiError } from "../../platform/http/errors.js";
import { eventToRequest, newRequestId } from "../../platform/http/lambda.js";

export interface LiveTransport {
  send(m: LiveServerMessage): void;
  close(code: number, reason: string): void;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** 16-bit little-endian PCM (base64) -> samples in [-1, 1), or null when it is not that. */
export function decodeChunk(b64: string): Float32Array | null {
  if (b64.length % 4 !== 0 || !BASE64.test(b64)) return null;
  const bytes = Buffer.from(b64, "base64");
  if (bytes.length % 2 !== 0) return null;
  return pcm16Samples(bytes);
}

/** Chunks one after the other. */
export function joinSamples(parts: Float32Array[]): Float32Array {
  return concatFloat32(parts);
}

/** 16-bit little-endian PCM bytes -> samples in [-1, 1). */
export function pcm16Samples(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(bytes.byteLength >> 1);
  for (let i = 0; i < out.length; i++) out[i] = view.getInt16(2 * i, true) / 32768;
  return out;
}

/** Why an opening handshake is refused: a plain HTTP answer in the API's error shape. */
export interface LiveRefusal {
  status: number;
  reason: string;
  code: string;
  message: string;
}

/**
 * Who opens a live reading: the subprotocols the client offered must include `pvc-stt`, and one of
 * them must carry valid credentials (`xi-api-key.<key>` or `bearer.<token>`); the same check in
 * embedded mode (the upgrade) and on AWS (the $connect route).
 */
export async function admitLiveReading(ctx: AppContext, offered: readonly string[], sourceIp: string): Promise<{ workspaceId: string } | LiveRefusal> {
  if (!offered.includes(LIVE_READING.subprotocol)) {
    return { status: 400, reason: "Bad Request", code: "invalid_subprotocol", message: `Offer the ${LIVE_READING.subprotocol} subprotocol.` };
  }
  const credential = credentialFromProtocols(offered);
  const headers: Record<string, string> = {};
  if (credential.apiKey) headers["xi-api-key"] = credential.apiKey;
  if (credential.bearer) headers.authorization = `Bearer ${credential.bearer}`;
  const path = LIVE_READING.path;
  try {
    const probe = eventToRequest({
      version: "2.0",
      rawPath: path,
      rawQueryString: "",
      headers,
      requestContext: { requestId: newRequestId(), timeEpoch: Date.now(), http: { method: "GET", path, sourceIp } },
      isBase64Encoded: false,
    });
    const caller = await authenticateRequest(ctx, probe);
    await caller.user();
    return { workspaceId: caller.workspaceId };
  } catch (e) {
    if (e instanceof ApiError) return { status: 401, reason: "Unauthorized", code: "invalid_api_key", message: e.message };
    ctx.log.error("live reading upgrade failed", { error: e });
    return { status: 500, reason: "Internal Server Error", code: "internal_error", message: "We are sorry, something went wrong." };
  }
}

export interface LiveError {
  code: string;
  message: string;
}

/** A client's text message, or the error message it earns (the session stays open). */
export function parseLiveMessage(text: string): { message: LiveClientMessage } | LiveError {
  try {
    const parsed = LiveClientMessage.safeParse(JSON.parse(text));
    if (parsed.success) return { message: parsed.data };
    const bad = parsed.error.issues.some((i) => i.path[0] === "language");
    return bad ? { code: "invalid_language", message: liveMessages.badLanguage } : { code: "invalid_message", message: liveMessages.badJson };
  } catch {
    return { code: "invalid_message", message: liveMessages.badJson };
  }
}

/** A script passage as the session follows it (spaces collapsed), with the language it is read in. */
export function checkScript(language: string | undefined, rawScript: string): { script: string; language: string } | LiveError {
  const script = rawScript.replace(/\s+/g, " ").trim();
  if (!script) return { code: "empty_script", message: liveMessages.emptyScript };
  if ([...script].length > LIVE_READING.maxScriptChars) return { code: "script_too_long", message: liveMessages.scriptTooLong };
  if (!language) return { code: "invalid_language", message: liveMessages.badLanguage };
  return { script, language };
}

/** Seconds of audio past what a client may have sent by now (a burst, then 1.5x real time); > 0 is too fast. */
export function audioAhead(receivedSamples: number, firstAudioAt: number, now: number): number {
  return receivedSamples / LIVE_READING.sampleRate - LIVE_READING.burstSeconds - ((now - firstAudioAt) / 1000) * LIVE_READING.maxRealTimeFactor;
}

export class LiveReadingConnection {
  private language: string | undefined;
  private session: LiveSession | undefined;
  private generation = 0;
  private pending: Float32Array[] = [];
  private busy = false;
  private received = 0;
  private firstAudioAt: number | undefined;
  private words = 0;
  private closed = false;
  private readonly abort = new AbortController();

  constructor(
    private readonly ctx: AppContext,
    private readonly transport: LiveTransport,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** A text message from the client. */
  async message(text: string): Promise<void> {
    if (this.closed) return;
    const parsed = parseLiveMessage(text);
    if ("code" in parsed) return this.error(parsed.code, parsed.message);
    const m = parsed.message;
    if (m.type === "pong") return;
    if (m.language !== undefined || m.script !== undefined) this.configure(m.language, m.script);
    if (m.user_audio_chunk !== undefined) this.audio(m.user_audio_chunk);
  }

  /** The keep-alive the spec names (the client may answer `{"type":"pong","event_id":n}`). */
  ping(eventId: number): void {
    if (!this.closed) this.transport.send({ type: "ping", ping_event: { event_id: eventId } });
  }

  /** The transport went away: stop synthesising and following. */
  closedByPeer(): void {
    this.closed = true;
    this.abort.abort();
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.abort.abort();
    this.transport.close(code, reason);
  }

  private error(code: string, message: string): void {
    if (!this.closed) this.transport.send({ type: "error", error: { code, message } });
  }

  private configure(lang: string | undefined, rawScript: string | undefined): void {
    if (lang) this.language = lang;
    if (rawScript === undefined) return;
    const checked = checkScript(this.language, rawScript);
    if ("code" in checked) return this.error(checked.code, checked.message);
    const { script, language } = checked;
    const generation = ++this.generation;
    this.session = undefined;
    this.words = 0;
    void (async () => {
      const session = await openLiveReading(this.ctx, script, language, this.abort.signal);
      if (this.closed || generation !== this.generation) return;
      this.session = session;
      this.transport.send({ type: "session_started", session_started_event: { language, words: session.wordFrom.length } });
      await this.pump();
    })().catch((e: unknown) => {
      if (this.closed) return;
      this.ctx.log.error("live reading failed", { error: e });
      this.close(LIVE_CLOSE.internal, liveMessages.internal);
    });
  }

  private audio(b64: string): void {
    if (this.generation === 0) return this.error("no_script", liveMessages.noScript);
    const samples = decodeChunk(b64);
    if (!samples) return this.error("invalid_audio", liveMessages.badAudio);
    const now = this.now();
    this.firstAudioAt ??= now;
    this.received += samples.length;
    const seconds = this.received / LIVE_READING.sampleRate;
    if (seconds > LIVE_READING.maxSessionSeconds) return this.close(LIVE_CLOSE.policy, liveMessages.tooLong);
    if (audioAhead(this.received, this.firstAudioAt, now) > 0) return this.close(LIVE_CLOSE.policy, liveMessages.tooFast);
    this.pending.push(samples);
    void this.pump().catch((e: unknown) => {
      if (this.closed) return;
      this.ctx.log.error("live reading failed", { error: e });
      this.close(LIVE_CLOSE.internal, liveMessages.internal);
    });
  }

  private async pump(): Promise<void> {
    while (!this.busy && !this.closed && this.session && this.pending.length) {
      this.busy = true;
      try {
        const samples = joinSamples(this.pending.splice(0));
        const generation = this.generation;
        const r = await feedLiveReading(this.session, samples);
        if (this.closed || generation !== this.generation) continue;
        this.session = r.session;
        if (r.words > this.words) {
          this.words = r.words;
          this.transport.send({
            type: "user_transcript",
            user_transcription_event: { user_transcript: r.transcript, words_read: r.words, words_total: r.session.wordFrom.length },
          });
        }
      } finally {
        this.busy = false;
      }
    }
  }
}

/** Open sessions per workspace, to cap them. */
export class LiveReadingRegistry {
  private readonly open = new Map<string, number>();
  /** Takes a place for the workspace, or says there is none. */
  enter(workspaceId: string): boolean {
    const n = this.open.get(workspaceId) ?? 0;
    if (n >= LIVE_READING.maxSessionsPerWorkspace) return false;
    this.open.set(workspaceId, n + 1);
    return true;
  }
  leave(workspaceId: string): void {
    const n = (this.open.get(workspaceId) ?? 1) - 1;
    if (n > 0) this.open.set(workspaceId, n);
    else this.open.delete(workspaceId);
  }
}
