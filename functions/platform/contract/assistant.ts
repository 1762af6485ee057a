import { z } from "zod";
import type { PermissionId } from "../domain/permissions.js";

/**
 * The support assistant ("Talk to El", speech-generation.md §2 Support call card, §4 Support call,
 * §7 Support assistant, §8, §9): its realtime socket, the messages on it, its client tools, the
 * routes it may open and the spec's constants. Shared by the server and the page.
 */
export const ASSISTANT = {
  path: "/v1/assistant/stream-input",
  /** The protocol the server selects; credentials ride in a second offered protocol (as the live reading socket). */
  subprotocol: "timbre-assistant",
  apiKeyPrefix: "xi-api-key.",
  bearerPrefix: "bearer.",
  /** One message on the socket (a context update lists the page's labelled controls). */
  maxMessageBytes: 16 * 1024,
  /** What the user may say or type in one turn. */
  maxUtteranceChars: 500,
  /** Turns per minute per session; more are answered with `too_fast` (the session stays open). */
  maxTurnsPerMinute: 20,
  /** Controls a context update may list, and the characters of each label. */
  maxContextElements: 80,
  maxLabelChars: 80,
  /** Sessions a workspace may hold at once. */
  maxSessionsPerWorkspace: 4,
  /** A silent session closes. */
  idleMs: 5 * 60_000,
  /** What one reply may speak (characters). */
  maxReplyChars: 600,
  /** Transcription upload (one utterance of 16-bit PCM or a recorded clip), base64 inside one message. */
  maxAudioBytes: 12 * 1024,
} as const;

/** §9 Support call constants, verbatim. */
export const SUPPORT_CALL = {
  highlightMs: 5000,
  quickHighlightMs: 1600,
  actionMessageMs: 3200,
  linkMessageMs: 10_000,
  typingMsPerChar: 17,
  clickDelayMs: 600,
  hideAfterDisconnectMs: 2000,
  contextUpdateAfterMs: 3000,
  /** The assistant's volume while the user speaks. */
  duckedVolume: 0.1,
} as const;

export const assistantMessages = {
  title: "Calling assistant",
  endCall: "End call",
  connected: "connected",
  disconnected: "disconnected",
  /** §8: what the client tools return. */
  elementNotFound: "element not found on page",
  routeNotFound: "route not found",
  somethingWrong: "Something went wrong",
  tooLong: `A message may be at most ${ASSISTANT.maxUtteranceChars} characters.`,
  tooBig: `A message may be at most ${ASSISTANT.maxMessageBytes / 1024} KB.`,
  tooFast: `At most ${ASSISTANT.maxTurnsPerMinute} messages a minute: please wait a moment.`,
  badMessage: "The message is not valid JSON of a known type.",
  tooManySessions: "Too many assistant calls are open in this workspace. End one and try again.",
  idle: "The call ended after five minutes of silence.",
  binary: "Send text messages (JSON).",
  transcriptionOff: "Speech transcription is not configured on this server: type your question instead.",
  transcriptionFailed: "Your speech could not be transcribed: please type your question instead.",
  paidConfirm: (what: string) => `The assistant wants to press “${what}”, which uses credits. Go ahead?`,
  paidDeclined: "The user declined the paid action.",
} as const;

export const CLIENT_TOOLS = ["highlight", "click", "clear", "get_value", "set_value", "go_to_route", "show_documentation_link", "show_support_link"] as const;
export type ClientToolName = (typeof CLIENT_TOOLS)[number];

export interface AssistantRoute {
  /** What the assistant calls the route. */
  name: string;
  label: string;
  path: string;
  /** The permission a user needs to open it (the page's own gate). */
  permission?: PermissionId;
  /** Query parameters the route accepts (§2 Route parameters), with their allowed values when fixed. */
  params?: Record<string, readonly string[] | "text">;
}

/** §2 "Routes reachable by the support assistant". */
export const ASSISTANT_ROUTES: readonly AssistantRoute[] = [
  { name: "text_to_speech", label: "Text to Speech", path: "/app/speech-synthesis/text-to-speech", permission: "text_to_speech", params: { voice_id: "text" } },
  { name: "speech_to_speech", label: "Voice Changer", path: "/app/speech-synthesis/speech-to-speech", permission: "speech_to_speech" },
  { name: "studio", label: "Studio projects", path: "/app/studio", permission: "projects", params: { create: ["blank", "book", "article", "genfm"] } },
  { name: "sound_effects", label: "Sound Effects", path: "/app/sound-effects", permission: "sound_effects" },
  { name: "sound_effects_explore", label: "Sound Effects: Explore", path: "/app/sound-effects/explore", permission: "sound_effects" },
  { name: "voiceover_studio", label: "Voiceover Studio", path: "/app/voiceover-studio", permission: "voiceover_studio" },
  { name: "voice_library", label: "Voice Library", path: "/app/voice-library" },
  {
    name: "my_voices", label: "My Voices", path: "/app/voice-lab", permission: "voice_lab",
    params: { create: ["true"], action: ["none", "create", "edit", "verify"], creationType: ["voiceDesign"], prompt: "text", previewText: "text", tab: ["history"] },
  },
  { name: "audio_native", label: "Audio Native", path: "/app/audio-native", permission: "audio_native" },
  { name: "voice_isolator", label: "Voice Isolator", path: "/app/voice-isolator", permission: "voice_isolator" },
  { name: "speech_classifier", label: "AI Speech Classifier", path: "/app/ai-speech-classifier", permission: "ai_speech_classifier" },
  { name: "conversational_ai_agents", label: "Conversational AI agents", path: "/app/conversational-ai/agents", permission: "conversational_ai" },
  { name: "conversational_ai_history", label: "Conversational AI call history", path: "/app/conversational-ai/history", permission: "conversational_ai" },
  { name: "dubbing", label: "Dubbing", path: "/app/dubbing", permission: "dubbing" },
  { name: "subscription", label: "Subscription", path: "/app/settings/subscription" },
  { name: "settings", label: "Settings", path: "/app/settings" },
  { name: "api_keys", label: "API keys", path: "/app/settings/api-keys", permission: "create_user_api_key" },
  { name: "webhooks", label: "Webhooks", path: "/app/settings/webhooks" },
  { name: "two_factor_authentication", label: "Two-factor authentication", path: "/app/settings/two-factor-authentication" },
];

export function findAssistantRoute(name: string): AssistantRoute | undefined {
  return ASSISTANT_ROUTES.find((r) => r.name === name);
}

/** The path a go_to_route call opens, or null when the route or a parameter is not allowed ('route not found'). */
export function routeHref(name: string, params: Record<string, string> = {}): string | null {
  const route = findAssistantRoute(name);
  if (!route) return null;
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    const allowed = route.params?.[k];
    if (!allowed) return null;
    if (allowed !== "text" && !allowed.includes(v)) return null;
    if (v.length > 200) return null;
    q.set(k, v);
  }
  const qs = q.toString();
  return qs ? `${route.path}?${qs}` : route.path;
}

/** Documentation pages show_documentation_link may open (Timbre's own /docs pages). */
export const ASSISTANT_DOCS = {
  guides: "/docs/guides",
  "api-reference": "/docs/api-reference",
  changelog: "/docs/changelog",
} as const;

/** The support request form (show_support_link), the user's e-mail prefilled. */
export const SUPPORT_FORM_PATH = "/app/support";

/** A tool call the server asks the page to run. `paid`: it submits a paid action, so the page asks the user first. */
export const ToolCall = z.object({
  id: z.string(),
  name: z.enum(CLIENT_TOOLS),
  params: z.record(z.union([z.string(), z.boolean(), z.record(z.string())])),
});
export type ToolCall = z.infer<typeof ToolCall>;

const PageElement = z.object({
  /** The element's name for the tools: its data-assistant id, aria-label or visible label. */
  label: z.string().max(ASSISTANT.maxLabelChars),
  role: z.string().max(20),
  paid: z.boolean().optional(),
});

/** Client -> server. */
export const AssistantClientMessage = z.discriminatedUnion("type", [
  /** Typed text, or what the browser's speech recognition heard. */
  z.object({ type: z.literal("user_text"), text: z.string().min(1), source: z.enum(["typed", "speech"]).optional() }),
  /** Recorded speech for the configured transcription server: base64 of a WAV or WebM clip. */
  z.object({ type: z.literal("user_audio"), audio: z.string().min(1), mime: z.enum(["audio/wav", "audio/webm", "audio/ogg"]) }),
  /** The page's route and its labelled controls (sent 3 s after connecting, and after each navigation). */
  z.object({ type: z.literal("context"), route: z.string().max(300), elements: z.array(PageElement).max(ASSISTANT.maxContextElements) }),
  z.object({ type: z.literal("tool_result"), id: z.string().max(64), ok: z.boolean(), value: z.string().max(2000).optional(), error: z.string().max(200).optional() }),
  /** The user spoke over the assistant (barge-in): stop its audio. */
  z.object({ type: z.literal("interrupt") }),
]);
export type AssistantClientMessage = z.infer<typeof AssistantClientMessage>;

/** Server -> client. */
export type AssistantServerMessage =
  | { type: "ready"; first_name: string | null }
  | { type: "assistant_text"; turn: number; text: string }
  | { type: "audio"; turn: number; audio: string; mime: "audio/mpeg" }
  | { type: "audio_end"; turn: number }
  | { type: "tool_call"; turn: number; call: ToolCall }
  | { type: "transcript"; text: string }
  | { type: "error"; code: string; message: string };

export const ASSISTANT_CLOSE = { normal: 1000, unsupportedData: 1003, policy: 1008, tryAgainLater: 1013 } as const;
