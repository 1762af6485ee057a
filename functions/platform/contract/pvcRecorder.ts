import { z } from "zod";

/**
 * The recorder's live reading highlight on the wire (professional-voice-clone.md §7 "Live speech
 * recognition"): a websocket on the stream-input path, credentials in the subprotocol, the client
 * sends `language` (and, a Timbre field, the `script` it is reading), then base64 16 kHz PCM
 * `user_audio_chunk`s; the server sends `ping`, `user_transcript` and `error` messages.
 * Limits, close codes and messages in one place, for the embedded server, the Lambda and the page.
 */
export const LIVE_READING = {
  path: "/v1/voices/pvc/speech-to-text/stream-input",
  /** The protocol the server selects; credentials ride in a second offered protocol, never in the URL. */
  subprotocol: "pvc-stt",
  /** `xi-api-key.<key>` or `bearer.<session token>`. */
  apiKeyPrefix: "xi-api-key.",
  bearerPrefix: "bearer.",
  sampleRate: 16_000,
  /** One message: a second of base64 audio is 43 KB; a script passage at most 8 KB of UTF-8. */
  maxMessageBytes: 64 * 1024,
  /** The script followed at once (the page sends the passage being read); its reading is synthesised first. */
  maxScriptChars: 1500,
  /** Audio per session, and how far ahead of real time a client may send (a burst, then 1.5x). */
  maxSessionSeconds: 20 * 60,
  burstSeconds: 5,
  maxRealTimeFactor: 1.5,
  /** Open sessions per workspace (each holds synthesised readings and a worker's attention). */
  maxSessionsPerWorkspace: 2,
  pingMs: 10_000,
  /** A session that sends nothing for this long is closed. */
  idleMs: 60_000,
} as const;

export const LIVE_CLOSE = {
  normal: 1000,
  unsupportedData: 1003,
  policy: 1008,
  tooBig: 1009,
  internal: 1011,
  tryAgainLater: 1013,
} as const;

export const liveMessages = {
  tooManySessions: "Too many live readings are open for this account.",
  tooFast: "Audio is arriving faster than it can be spoken.",
  tooLong: "The live reading reached its 20 minute limit.",
  idle: "No audio arrived for a minute.",
  binary: "Send JSON text messages.",
  internal: "The live reading stopped because of an internal error.",
  badJson: "Each message must be a JSON object.",
  badAudio: "user_audio_chunk must be base64 of 16-bit little-endian 16 kHz mono PCM.",
  noScript: "Send the language and the script before audio.",
  emptyScript: "The script is empty.",
  scriptTooLong: `A script passage may be at most 1,500 characters.`,
  badLanguage: "language must be a language code such as en.",
} as const;

/**
 * Why the server ends a session where it cannot choose the close code (API Gateway on AWS closes
 * with its own): an error message with one of these codes comes first, then the close. Embedded
 * mode closes with LIVE_CLOSE codes instead.
 */
export const LIVE_ENDINGS = {
  tooBig: { code: "message_too_big", message: `A message may be at most ${LIVE_READING.maxMessageBytes / 1024} KB.` },
  binary: { code: "unsupported_data", message: liveMessages.binary },
  tooFast: { code: "too_fast", message: liveMessages.tooFast },
  tooLong: { code: "too_long", message: liveMessages.tooLong },
  internal: { code: "internal_error", message: liveMessages.internal },
} as const;
export const LIVE_ENDING_CODES: ReadonlySet<string> = new Set(Object.values(LIVE_ENDINGS).map((e) => e.code));

/** Client -> server. */
export const LiveClientMessage = z
  .object({
    type: z.string().optional(),
    language: z.string().regex(/^[a-z]{2,3}(-[A-Za-z]{2,4})?$/).optional(),
    script: z.string().optional(),
    user_audio_chunk: z.string().optional(),
    event_id: z.number().optional(),
  })
  .passthrough();
export type LiveClientMessage = z.infer<typeof LiveClientMessage>;

/** Server -> client. */
export type LiveServerMessage =
  | { type: "ping"; ping_event: { event_id: number } }
  | { type: "session_started"; session_started_event: { language: string; words: number } }
  | { type: "user_transcript"; user_transcription_event: { user_transcript: string; words_read: number; words_total: number } }
  | { type: "error"; error: { code: string; message: string } };

export const LiveServerMessageWire = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ping"), ping_event: z.object({ event_id: z.number() }) }),
  z.object({ type: z.literal("session_started"), session_started_event: z.object({ language: z.string(), words: z.number() }) }),
  z.object({ type: z.literal("user_transcript"), user_transcription_event: z.object({ user_transcript: z.string(), words_read: z.number(), words_total: z.number() }) }),
  z.object({ type: z.literal("error"), error: z.object({ code: z.string(), message: z.string() }) }),
]);

/** The credential a client offers as a subprotocol, or none. */
export function credentialFromProtocols(protocols: readonly string[]): { apiKey?: string; bearer?: string } {
  for (const p of protocols) {
    if (p.startsWith(LIVE_READING.apiKeyPrefix)) return { apiKey: p.slice(LIVE_READING.apiKeyPrefix.length) };
    if (p.startsWith(LIVE_READING.bearerPrefix)) return { bearer: p.slice(LIVE_READING.bearerPrefix.length) };
  }
  return {};
}
