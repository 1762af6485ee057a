/**
 * One support call (speech-generation.md §4 Support call, §7 Support assistant), independent of
 * the websocket that carries it: the user's typed text, recognised speech or recorded audio in;
 * the assistant's text, its speech (Timbre's own engine, one MP3 per sentence as it is made) and
 * client tool calls out. A new turn or an `interrupt` (the user speaking over it: barge-in) stops
 * the audio still being made. The account's variables are read on the server for every turn.
 *
 * Bounds: message size (the transport), characters per turn, turns per minute, audio per upload,
 * sessions per workspace (AssistantRegistry), an idle timeout (the transport's timers), and for
 * the model path its tokens, tool rounds and timeout (./llm.ts).
 */
import { randomUUID } from "node:crypto";
import { wholeAudio } from "../../media/audio/encoder.js";
import type { AppContext } from "../../platform/context.js";
import {
  ASSISTANT,
  AssistantClientMessage,
  assistantMessages,
  routeHref,
  type AssistantServerMessage,
  type ToolCall,
} from "../../platform/contract/assistant.js";
import { credentialFromProtocols } from "../../platform/contract/pvcRecorder.js";
import type { Caller } from "../../platform/domain/caller.js";
import { premadeVoiceRecords } from "../../platform/domain/premadeVoices.js";
import { DEFAULT_VOICE_SETTINGS } from "../../platform/domain/voiceSettings.js";
import { authenticateRequest } from "../../platform/http/auth.js";
import { ApiError } from "../../platform/http/errors.js";
import { eventToRequest, newRequestId } from "../../platform/http/lambda.js";
import { offlineReply, type PageContext, type PlannedCall } from "./brain.js";
import { llmTurn, type LlmMessage, type ToolOutcome } from "./llm.js";
import { transcribe } from "./transcription.js";
import { loadAccount } from "./variables.js";

export interface AssistantTransport {
  send(m: AssistantServerMessage): void;
  close(code: number, reason: string): void;
}

/** Where a call's state and tool results live when each message is its own invocation (AWS: ./aws-calls.ts). */
export interface AssistantRemote {
  /** Records the call as pending, sends it (`send`) and waits for the page's result, received by another invocation. */
  tool(call: ToolCall, signal: AbortSignal, send: () => void): Promise<ToolOutcome>;
  /** Watches for a barge-in received by another invocation while `turn` runs; returns the function that stops watching. */
  watch(turn: number, abort: AbortController): () => void;
}

export interface AssistantState {
  page: PageContext | null;
  history: LlmMessage[];
  turn: number;
  turnTimes: number[];
}

export interface AssistantRefusal {
  status: number;
  reason: string;
  code: string;
  message: string;
}

/** The assistant's voice: a premade voice made for conversation and assistants. */
const VOICE = premadeVoiceRecords().find((v) => v.name === "Oliver")!;
const SPEECH_FORMAT = "mp3_22050_32";
/** How long the session waits for the page to run a tool. */
export const TOOL_TIMEOUT_MS = 20_000;

/**
 * Who opens a call: the offered subprotocols must include `timbre-assistant` and one of them carry
 * valid credentials (`xi-api-key.<key>` or `bearer.<session token>`), as the live reading socket.
 */
export async function admitAssistant(ctx: AppContext, offered: readonly string[], sourceIp: string): Promise<{ caller: Caller } | AssistantRefusal> {
  if (!offered.includes(ASSISTANT.subprotocol)) {
    return { status: 400, reason: "Bad Request", code: "invalid_subprotocol", message: `Offer the ${ASSISTANT.subprotocol} subprotocol.` };
  }
  const credential = credentialFromProtocols(offered);
  const headers: Record<string, string> = {};
  if (credential.apiKey) headers["xi-api-key"] = credential.apiKey;
  if (credential.bearer) headers.authorization = `Bearer ${credential.bearer}`;
  try {
    const probe = eventToRequest({
      version: "2.0",
      rawPath: ASSISTANT.path,
      rawQueryString: "",
      headers,
      requestContext: { requestId: newRequestId(), timeEpoch: Date.now(), http: { method: "GET", path: ASSISTANT.path, sourceIp } },
      isBase64Encoded: false,
    });
    const caller = await authenticateRequest(ctx, probe);
    await caller.member();
    return { caller };
  } catch (e) {
    if (e instanceof ApiError) return { status: e.statusCode === 403 ? 403 : 401, reason: e.statusCode === 403 ? "Forbidden" : "Unauthorized", code: e.status, message: e.message };
    ctx.log.error("assistant upgrade failed", { error: e });
    return { status: 500, reason: "Internal Server Error", code: "internal_error", message: "We are sorry, something went wrong." };
  }
}

/** Calls open per workspace. */
export class AssistantRegistry {
  private open = new Map<string, number>();
  enter(workspaceId: string): boolean {
    const n = this.open.get(workspaceId) ?? 0;
    if (n >= ASSISTANT.maxSessionsPerWorkspace) return false;
    this.open.set(workspaceId, n + 1);
    return true;
  }
  leave(workspaceId: string): void {
    const n = (this.open.get(workspaceId) ?? 1) - 1;
    if (n <= 0) this.open.delete(workspaceId);
    else this.open.set(workspaceId, n);
  }
}

/** Splits a reply into sentences, each spoken as soon as it is made. */
export function sentencesOf(text: string): string[] {
  return (text.match(/[^.!?]+[.!?]*\s*/g) ?? [text]).map((s) => s.trim()).filter(Boolean);
}

export class AssistantConnection {
  private page: PageContext | null = null;
  private turn = 0;
  private turnAbort: AbortController | null = null;
  private turnTimes: number[] = [];
  private pendingTools = new Map<string, (o: ToolOutcome) => void>();
  private history: LlmMessage[] = [];
  private closed = false;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: AppContext,
    private readonly caller: Caller,
    private readonly transport: AssistantTransport,
    private readonly remote?: AssistantRemote,
  ) {}

  state(): AssistantState {
    return { page: this.page, history: this.history, turn: this.turn, turnTimes: this.turnTimes };
  }

  restore(s: AssistantState): void {
    this.page = s.page;
    this.history = s.history;
    this.turn = s.turn;
    this.turnTimes = s.turnTimes;
  }

  async start(): Promise<void> {
    const user = await this.caller.user();
    this.transport.send({ type: "ready", first_name: user.first_name });
  }

  private error(code: string, message: string): void {
    this.transport.send({ type: "error", code, message });
  }

  /** One text frame from the client. */
  message(text: string): Promise<void> {
    let parsed: AssistantClientMessage;
    try {
      const r = AssistantClientMessage.safeParse(JSON.parse(text));
      if (!r.success) {
        this.error("invalid_message", assistantMessages.badMessage);
        return Promise.resolve();
      }
      parsed = r.data;
    } catch {
      this.error("invalid_message", assistantMessages.badMessage);
      return Promise.resolve();
    }
    switch (parsed.type) {
      case "context":
        this.page = { route: parsed.route, elements: parsed.elements };
        return Promise.resolve();
      case "tool_result": {
        const resolve = this.pendingTools.get(parsed.id);
        this.pendingTools.delete(parsed.id);
        resolve?.({ ok: parsed.ok, value: parsed.value, error: parsed.error });
        return Promise.resolve();
      }
      case "interrupt":
        this.stopSpeaking();
        return Promise.resolve();
      case "user_text":
        return this.userTurn(() => Promise.resolve(parsed.text));
      case "user_audio":
        return this.userTurn(async () => {
          const cfg = this.ctx.config.assistant.transcription;
          if (!cfg) throw new ApiError(400, "transcription_not_configured", assistantMessages.transcriptionOff);
          const bytes = Buffer.from(parsed.audio, "base64");
          if (bytes.length > ASSISTANT.maxAudioBytes) throw new ApiError(400, "audio_too_big", `A recording may be at most ${ASSISTANT.maxAudioBytes / 1024} KB.`);
          const heard = await transcribe(cfg, bytes, parsed.mime);
          this.transport.send({ type: "transcript", text: heard });
          return heard;
        });
    }
  }

  private stopSpeaking(): void {
    this.turnAbort?.abort();
    this.turnAbort = null;
  }

  private userTurn(utterance: () => Promise<string>): Promise<void> {
    const now = Date.now();
    this.turnTimes = this.turnTimes.filter((t) => now - t < 60_000);
    if (this.turnTimes.length >= ASSISTANT.maxTurnsPerMinute) {
      this.error("too_fast", assistantMessages.tooFast);
      return Promise.resolve();
    }
    this.turnTimes.push(now);
    // Barge-in: the new turn stops the previous one's audio and its waiting tools.
    this.stopSpeaking();
    const abort = new AbortController();
    this.turnAbort = abort;
    const turn = ++this.turn;
    const unwatch = this.remote?.watch(turn, abort);
    // Turns run one after the other, so history and tools keep their order.
    this.queue = this.queue
      .then(() => this.runTurn(turn, utterance, abort.signal))
      .catch(() => undefined)
      .finally(() => unwatch?.());
    return this.queue;
  }

  private async runTurn(turn: number, utterance: () => Promise<string>, signal: AbortSignal): Promise<void> {
    try {
      const text = (await utterance()).trim();
      if (!text) return;
      if ([...text].length > ASSISTANT.maxUtteranceChars) return this.error("message_too_long", assistantMessages.tooLong);
      const account = await loadAccount(this.ctx, this.caller);
      let speaking: Promise<void> = Promise.resolve();
      const say = (t: string) => {
        if (signal.aborted || this.closed) return;
        this.transport.send({ type: "assistant_text", turn, text: t });
        speaking = speaking.then(() => this.speak(turn, t, signal));
      };
      const runTool = (call: PlannedCall) => this.runTool(turn, call, signal);
      const llm = this.ctx.config.assistant.llm;
      if (llm) {
        await llmTurn(llm, this.history, text, account, this.page, { say, runTool, signal });
      } else {
        const reply = offlineReply(text, account, this.page);
        say(reply.text);
        for (const call of reply.calls) {
          const outcome = await runTool(call);
          if (!outcome.ok) break;
        }
      }
      await speaking;
      if (!signal.aborted && !this.closed) this.transport.send({ type: "audio_end", turn });
    } catch (e) {
      if (signal.aborted || this.closed) return;
      if (e instanceof ApiError) return this.error(e.status, e.message);
      this.ctx.log.warn("assistant turn failed", { error: e });
      this.error("assistant_failed", assistantMessages.somethingWrong);
    }
  }

  /** Sends a tool call to the page and waits for its result. A click on a paid control is marked so the page asks the user first. */
  private runTool(turn: number, planned: PlannedCall, signal: AbortSignal): Promise<ToolOutcome> {
    if (signal.aborted || this.closed) return Promise.resolve({ ok: false, error: "interrupted" });
    if (planned.name === "go_to_route") {
      const params = typeof planned.params.params === "object" ? planned.params.params : {};
      if (typeof planned.params.route !== "string" || routeHref(planned.params.route, params) === null) return Promise.resolve({ ok: false, error: assistantMessages.routeNotFound });
    }
    const params = { ...planned.params };
    if (planned.name === "click" && typeof params.element === "string") {
      const target = this.page?.elements.find((e) => e.label === params.element);
      if (target?.paid) params.paid = true;
    }
    const call: ToolCall = { id: randomUUID(), name: planned.name, params };
    if (this.remote) return this.remote.tool(call, signal, () => this.transport.send({ type: "tool_call", turn, call }));
    return new Promise<ToolOutcome>((resolve) => {
      const done = (o: ToolOutcome) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        this.pendingTools.delete(call.id);
        resolve(o);
      };
      const timer = setTimeout(() => done({ ok: false, error: assistantMessages.somethingWrong }), TOOL_TIMEOUT_MS);
      const onAbort = () => done({ ok: false, error: "interrupted" });
      signal.addEventListener("abort", onAbort);
      this.pendingTools.set(call.id, done);
      this.transport.send({ type: "tool_call", turn, call });
    });
  }

  /** Timbre's own speech for a reply, one sentence at a time, stopped by barge-in. */
  private async speak(turn: number, text: string, signal: AbortSignal): Promise<void> {
    const engine = await this.ctx.engine();
    for (const sentence of sentencesOf(text.slice(0, ASSISTANT.maxReplyChars))) {
      if (signal.aborted || this.closed) return;
      const parts: Array<{ audio: Uint8Array; samples?: number }> = [];
      try {
        for await (const c of engine.synthesizeEncoded(
          { text: sentence, voice: VOICE.profile, settings: DEFAULT_VOICE_SETTINGS, seed: VOICE.profile.seed, model: { id: "eleven_multilingual_v2", quality: "standard", supportsPhonemes: false }, whole: true },
          SPEECH_FORMAT,
          signal,
        )) {
          parts.push(c);
        }
      } catch (e) {
        if (signal.aborted) return;
        throw e;
      }
      if (signal.aborted || this.closed) return;
      this.transport.send({ type: "audio", turn, audio: Buffer.from(wholeAudio(SPEECH_FORMAT, parts)).toString("base64"), mime: "audio/mpeg" });
    }
  }

  close(code: number, reason: string): void {
    this.closedByPeer();
    this.transport.close(code, reason);
  }

  closedByPeer(): void {
    this.closed = true;
    this.stopSpeaking();
    for (const resolve of this.pendingTools.values()) resolve({ ok: false, error: "closed" });
    this.pendingTools.clear();
  }
}
