/**
 * The live reading websocket where each message is its own invocation (API Gateway's WebSocket
 * API on AWS): the same protocol, checks and aligner as the in-memory LiveReadingConnection
 * (./live-reading.ts), with the session in DynamoDB (functions/platform/stores/liveReadings.ts)
 * and the passage's reference features in S3 under live/{workspace}/{connection}/.
 *
 * Order: messages of one connection may run in parallel invocations. An audio chunk gets the next
 * number from the session's counter (one conditional update that also counts its samples for the
 * bounds) and is written as an item of its own; then the invocation tries to take the session's
 * lease. The lease holder follows the chunks after the last one followed, in number order, writes
 * the progress and that number in one write conditional on holding the lease and on the passage,
 * and gives the lease up only when no chunk was numbered since (conditional again), so a chunk
 * queued meanwhile is never stranded. One invocation at a time follows a session and posts its
 * transcripts, so they come in order. A holder that dies leaves a lease that runs out after
 * LEASE_MS; the next chunk takes it over. A number whose chunk never arrives (its invocation died
 * between numbering and writing it) is skipped after MISSING_CHUNK_MS.
 *
 * Replies go through a port (LiveConnections): API Gateway's @connections API on AWS, a fake in tests.
 */
import type { AppContext } from "../../platform/context.js";
import { randomUUID } from "node:crypto";
import { feedLiveReading, openLiveReading } from "../alignment/service.js";
import { packLiveProgress, packLiveReference, unpackLiveSession } from "../../media/alignment/online-codec.js";
import { LIVE_ENDINGS, LIVE_READING, liveMessages, type LiveServerMessage } from "../../platform/contract/pvcRecorder.js";
import { LIVE_OBJECT_PREFIX, type LiveChunk, type LiveSessionRecord } from "../../platform/stores/liveReadings.js";
import { admitLiveReading, audioAhead, checkScript, decodeChunk, joinSamples, parseLiveMessage, pcm16Samples, type LiveRefusal } from "./live-reading.js";

/** What the server can do to a connection from outside it. */
export interface LiveConnections {
  /** Sends one message; false when the connection is gone. */
  post(connectionId: string, message: LiveServerMessage): Promise<boolean>;
  /** Closes the connection (API Gateway sends no close code of ours: the error message before it says why). */
  close(connectionId: string): Promise<void>;
}

/** API Gateway closes every websocket after two hours; a session's records live no longer. */
export const CONNECTION_MAX_MS = 2 * 60 * 60 * 1000;
/** How long a lease holder may go without writing before another invocation takes over. */
export const LEASE_MS = 45_000;
/**
 * How long one invocation follows a session before handing it on (the function's timeout is 60 s):
 * it gives the lease up and the next chunk's invocation takes over with whatever is queued.
 */
export const FOLLOW_BUDGET_MS = 20_000;
/** Chunks followed in one step, at most (about 10 s of the recorder's quarter-second chunks). */
const STEP_CHUNKS = 40;
/** How long a holder waits for a numbered chunk that has not been written yet before skipping it. */
export const MISSING_CHUNK_MS = 2_000;

export const referencePrefix = (workspaceId: string, connectionId: string) => `${LIVE_OBJECT_PREFIX}${workspaceId}/${connectionId}/`;

/** Reference features by S3 key: a warm container following a passage reads them once. */
const references = new Map<string, Uint8Array>();
const REFERENCES_KEPT = 4;

async function reference(ctx: AppContext, key: string): Promise<Uint8Array> {
  const hit = references.get(key);
  if (hit) return hit;
  const got = await ctx.blobs.getBytes(key);
  if (!got) throw new Error(`live reading reference ${key} is missing`);
  remember(key, got.bytes);
  return got.bytes;
}

function remember(key: string, bytes: Uint8Array): void {
  references.set(key, bytes);
  while (references.size > REFERENCES_KEPT) references.delete(references.keys().next().value!);
}

export class LiveSessions {
  constructor(
    private readonly ctx: AppContext,
    private readonly connections: LiveConnections,
  ) {}

  private get store() {
    return this.ctx.stores.liveReadings;
  }

  /** $connect: credentials from the offered subprotocols, then a place among the workspace's sessions. */
  async connect(connectionId: string, offered: readonly string[], sourceIp: string, now: number): Promise<{ workspaceId: string } | LiveRefusal> {
    const admitted = await admitLiveReading(this.ctx, offered, sourceIp);
    if ("status" in admitted) return admitted;
    const expires = now + CONNECTION_MAX_MS;
    if (!(await this.store.enter(admitted.workspaceId, connectionId, LIVE_READING.maxSessionsPerWorkspace, now, expires))) {
      return { status: 429, reason: "Too Many Requests", code: "too_many_sessions", message: liveMessages.tooManySessions };
    }
    await this.store.create(connectionId, admitted.workspaceId, now, expires);
    return admitted;
  }

  /** $disconnect: the place, the session and its reference features go. */
  async disconnect(connectionId: string): Promise<void> {
    const head = await this.store.head(connectionId);
    if (!head) return;
    await this.store.leave(head.workspace_id, connectionId);
    await this.store.remove(connectionId);
    await this.ctx.blobs.deleteMany(await this.ctx.blobs.list(referencePrefix(head.workspace_id, connectionId)));
  }

  /**
   * $default: one message. `receivedAt` is when API Gateway received it (ms). Resolves when
   * everything this message started is done.
   */
  async message(connectionId: string, body: string, binary: boolean, receivedAt: number): Promise<void> {
    if (binary) return this.end(connectionId, LIVE_ENDINGS.binary);
    if (Buffer.byteLength(body, "utf8") > LIVE_READING.maxMessageBytes) return this.end(connectionId, LIVE_ENDINGS.tooBig);
    const head = await this.store.head(connectionId);
    if (!head) return this.connections.close(connectionId);
    try {
      await this.maybePing(connectionId, head.last_ping_at, receivedAt);
      const parsed = parseLiveMessage(body);
      if ("code" in parsed) return void (await this.error(connectionId, parsed.code, parsed.message));
      const m = parsed.message;
      if (m.type === "pong") return;
      if (m.script !== undefined) await this.passage(connectionId, head.workspace_id, m.language ?? head.language, m.script, m.language);
      else if (m.language) await this.store.setLanguage(connectionId, m.language);
      if (m.user_audio_chunk !== undefined) await this.audio(connectionId, head.gen > 0 || m.script !== undefined, m.user_audio_chunk, receivedAt);
    } catch (e) {
      this.ctx.log.error("live reading failed", { error: e });
      await this.end(connectionId, LIVE_ENDINGS.internal);
    }
  }

  private async maybePing(connectionId: string, lastPingAt: number, now: number): Promise<void> {
    if (now - lastPingAt < LIVE_READING.pingMs) return;
    const id = await this.store.ping(connectionId, lastPingAt, now);
    if (id !== undefined) await this.connections.post(connectionId, { type: "ping", ping_event: { event_id: id } });
  }

  private async error(connectionId: string, code: string, message: string): Promise<boolean> {
    return this.connections.post(connectionId, { type: "error", error: { code, message } });
  }

  private async end(connectionId: string, why: { code: string; message: string }): Promise<void> {
    await this.error(connectionId, why.code, why.message);
    await this.connections.close(connectionId);
  }

  /** A new script passage: the engine reads it, its features go to S3, then queued audio is followed. */
  private async passage(connectionId: string, workspaceId: string, language: string | undefined, rawScript: string, newLanguage: string | undefined): Promise<void> {
    const checked = checkScript(language, rawScript);
    if ("code" in checked) {
      if (newLanguage) await this.store.setLanguage(connectionId, newLanguage);
      return void (await this.error(connectionId, checked.code, checked.message));
    }
    const me = randomUUID();
    const gen = await this.store.newPassage(connectionId, checked.language, me, this.ctx.now() + LEASE_MS);
    if (gen === undefined) return;
    const session = await openLiveReading(this.ctx, checked.script, checked.language);
    const key = `${referencePrefix(workspaceId, connectionId)}${gen}.bin`;
    const bytes = packLiveReference(session);
    await this.ctx.blobs.put(key, bytes, "application/octet-stream");
    remember(key, bytes);
    const words = session.wordFrom.length;
    if (!(await this.store.started(connectionId, gen, me, key, packLiveProgress(session), words, this.ctx.now() + LEASE_MS))) return;
    await this.connections.post(connectionId, { type: "session_started", session_started_event: { language: checked.language, words } });
    await this.follow(connectionId, me);
  }

  private async audio(connectionId: string, hasScript: boolean, b64: string, receivedAt: number): Promise<void> {
    const noScript = () => this.error(connectionId, "no_script", liveMessages.noScript);
    if (!hasScript) return void (await noScript());
    const samples = decodeChunk(b64);
    if (!samples) return void (await this.error(connectionId, "invalid_audio", liveMessages.badAudio));
    const counted = await this.store.count(connectionId, samples.length, receivedAt);
    // The session's condition is the authority: a script sent in the same message may have been refused.
    if (!counted) return void (await noScript());
    if (counted.received / LIVE_READING.sampleRate > LIVE_READING.maxSessionSeconds) return this.end(connectionId, LIVE_ENDINGS.tooLong);
    if (audioAhead(counted.received, counted.first_audio_at ?? receivedAt, receivedAt) > 0) return this.end(connectionId, LIVE_ENDINGS.tooFast);
    await this.store.putChunk(connectionId, { seq: counted.seq, pcm: Buffer.from(b64, "base64") }, this.ctx.now() + CONNECTION_MAX_MS);
    const me = randomUUID();
    if (await this.store.lease(connectionId, me, this.ctx.now(), this.ctx.now() + LEASE_MS)) await this.follow(connectionId, me);
  }

  /** As the lease holder: follow queued chunks until none is left, then give the lease up. */
  private async follow(connectionId: string, me: string): Promise<void> {
    const until = this.ctx.now() + FOLLOW_BUDGET_MS;
    let missingSince: number | undefined;
    for (;;) {
      const s = await this.store.get(connectionId);
      if (!s || s.lease !== me) return;
      if (this.ctx.now() > until || !s.ready || !s.progress || !s.reference_key) {
        // Out of time, or a passage that never got ready (its invocation failed; the next script starts afresh).
        await this.store.release(connectionId, me);
        return;
      }
      if (s.seq <= s.applied) {
        if (await this.store.release(connectionId, me, s.seq)) return;
        continue;
      }
      const run: LiveChunk[] = [];
      for (const c of await this.store.chunks(connectionId, s.applied + 1, s.seq, STEP_CHUNKS)) {
        if (c.seq !== s.applied + 1 + run.length) break;
        run.push(c);
      }
      if (run.length) {
        missingSince = undefined;
        if (!(await this.step(connectionId, me, s, run))) return;
        continue;
      }
      // The next chunk is numbered but not written yet: wait for it a little, then skip it.
      missingSince ??= this.ctx.now();
      if (this.ctx.now() - missingSince < MISSING_CHUNK_MS) {
        await new Promise((r) => setTimeout(r, 25));
        continue;
      }
      missingSince = undefined;
      if (!(await this.store.advance(connectionId, s.gen, me, s.progress, s.words, s.applied + 1, this.ctx.now() + LEASE_MS))) return;
    }
  }

  private async step(connectionId: string, me: string, s: LiveSessionRecord, run: LiveChunk[]): Promise<boolean> {
    const session = unpackLiveSession(await reference(this.ctx, s.reference_key!), s.progress!);
    const r = await feedLiveReading(session, joinSamples(run.map((c) => pcm16Samples(c.pcm))));
    const last = run[run.length - 1].seq;
    if (!(await this.store.advance(connectionId, s.gen, me, packLiveProgress(r.session), r.words, last, this.ctx.now() + LEASE_MS))) return false;
    await this.store.deleteChunks(connectionId, run.map((c) => c.seq));
    if (r.words > s.words) {
      await this.connections.post(connectionId, {
        type: "user_transcript",
        user_transcription_event: { user_transcript: r.transcript, words_read: r.words, words_total: r.session.wordFrom.length },
      });
    }
    return true;
  }
}
