/**
 * The built-in assistant: works offline, without a model. It recognises a handful of intents
 * (go somewhere, search, credits left, what the plan allows, how to clone, why a generation failed,
 * where a setting is, documentation, a human), answers from Timbre's own knowledge
 * (./knowledge.ts) and the account's real figures, and picks the client tools that take the user
 * there. What it cannot answer it says plainly. Pure: the session feeds it the account and the page.
 */
import { ASSISTANT_ROUTES, findAssistantRoute, type AssistantRoute, type ClientToolName } from "../../platform/contract/assistant.js";
import { permissionDeniedMessage } from "../../platform/domain/permissions.js";
import { CANNOT_ANSWER, KNOWLEDGE } from "./knowledge.js";
import type { AssistantAccount } from "./variables.js";

export interface PlannedCall {
  name: ClientToolName;
  params: Record<string, string | boolean | Record<string, string>>;
}

export interface Reply {
  text: string;
  calls: PlannedCall[];
}

export interface PageContext {
  route: string;
  elements: ReadonlyArray<{ label: string; role: string; paid?: boolean }>;
}

/** Names people use for the routes, beyond their labels. */
const ALIASES: Record<string, readonly string[]> = {
  text_to_speech: ["text to speech", "tts", "speech synthesis"],
  speech_to_speech: ["speech to speech", "voice changer"],
  studio: ["studio", "projects"],
  sound_effects: ["sound effects", "sound effect"],
  sound_effects_explore: ["explore sound effects", "sound effects explore"],
  voiceover_studio: ["voiceover studio", "voiceover"],
  voice_library: ["voice library", "library"],
  my_voices: ["my voices", "voice lab", "voicelab"],
  audio_native: ["audio native"],
  voice_isolator: ["voice isolator", "isolator"],
  speech_classifier: ["speech classifier", "classifier"],
  conversational_ai_agents: ["agents", "conversational ai"],
  conversational_ai_history: ["call history", "agent history", "conversation history"],
  dubbing: ["dubbing"],
  subscription: ["subscription", "billing", "plan"],
  settings: ["settings", "setting", "profile"],
  api_keys: ["api keys", "api key"],
  webhooks: ["webhooks", "webhook"],
  two_factor_authentication: ["two factor", "two-factor", "2fa"],
};

const normalise = (s: string) => s.toLowerCase().replace(/[’']/g, "'").replace(/[^a-z0-9' -]+/g, " ").replace(/\s+/g, " ").trim();

const number = (n: number) => n.toLocaleString("en-US");

function findRoute(phrase: string): AssistantRoute | undefined {
  let best: { route: AssistantRoute; len: number } | undefined;
  for (const route of ASSISTANT_ROUTES) {
    for (const alias of [normalise(route.label), ...(ALIASES[route.name] ?? [])]) {
      if (` ${phrase} `.includes(` ${alias} `) && (!best || alias.length > best.len)) best = { route, len: alias.length };
    }
  }
  return best?.route;
}

/** Null when the user may open it; otherwise the spec's denial message. */
function denied(route: AssistantRoute, account: AssistantAccount): string | null {
  return route.permission && !account.permissions.has(route.permission) ? permissionDeniedMessage(route.permission) : null;
}

/** "search for a deep voice" -> "deep". */
function searchTerm(text: string): string | null {
  const m = /\b(?:search(?: for)?|look for|find(?: me)?)\s+(.+)$/.exec(text);
  if (!m) return null;
  const term = m[1]!
    .replace(/^(?:a|an|the|some)\s+/, "")
    .replace(/\s+(?:voices?|in the library|please)$/g, "")
    .replace(/\s+(?:voices?)$/g, "")
    .trim();
  return term || null;
}

const SEARCH_BOX: Record<string, string> = {
  voice_library: "Search the library",
  my_voices: "Search my voices",
};

function creditsReply(account: AssistantAccount): Reply {
  const v = account.vars;
  const left = Math.max(0, v.totalAvailableMonthlyCredits - v.currentCreditsUsage);
  return {
    text: `You have ${number(left)} credits left: you have used ${number(v.currentCreditsUsage)} of your ${number(v.totalAvailableMonthlyCredits)} monthly credits on the ${v.tier} plan. They reset on ${v.nextCharacterResetDate}.`,
    calls: [],
  };
}

function routeFromPath(path: string): AssistantRoute | undefined {
  return ASSISTANT_ROUTES.find((r) => path === r.path || path.startsWith(`${r.path}/`));
}

export function offlineReply(utterance: string, account: AssistantAccount, page: PageContext | null): Reply {
  const text = normalise(utterance);
  const has = (...words: string[]) => words.every((w) => text.includes(w));

  if (!text) return { text: CANNOT_ANSWER, calls: [] };

  // A human, a bug, a request the assistant cannot handle itself.
  if (/\b(human|support|contact|report (?:a|an) (?:problem|bug|issue)|refund|talk to (?:someone|a person))\b/.test(text)) {
    return {
      text: "I've opened a support request form with your e-mail filled in: describe the problem and send it, and the team will answer by e-mail.",
      calls: [{ name: "show_support_link", params: { email: account.email } }],
    };
  }

  if (/\bcredits?\b|\bquota\b|\bcharacters? left\b/.test(text) && /\b(left|many|much|remaining|have|usage|used)\b/.test(text)) {
    return creditsReply(account);
  }

  // Navigation, possibly followed by a search there.
  const nav = /\b(?:take me to|go to|open|navigate to|bring me to|show me|switch to)\s+(?:the\s+)?(.+)$/.exec(text);
  if (nav) {
    const [target, rest] = nav[1]!.split(/\s+and\s+/, 2) as [string, string | undefined];
    const route = findRoute(target);
    if (route) {
      const no = denied(route, account);
      if (no) return { text: no, calls: [] };
      const calls: PlannedCall[] = [{ name: "go_to_route", params: { route: route.name } }];
      const term = rest ? searchTerm(rest) : null;
      if (term && SEARCH_BOX[route.name]) {
        calls.push({ name: "set_value", params: { element: SEARCH_BOX[route.name]!, value: term } });
        return { text: `Here is the ${route.label}. I'm searching it for “${term}”.`, calls };
      }
      return { text: `Here is ${route.label}.`, calls };
    }
    if (!findKnowledge(text)) return { text: `I can't find a page called “${target}”. ${CANNOT_ANSWER}`, calls: [] };
  }

  // A search on the page the user is on.
  const term = searchTerm(text);
  if (term && /\b(search|look for)\b/.test(text)) {
    const here = page ? routeFromPath(page.route) : undefined;
    const route = here && SEARCH_BOX[here.name] ? here : findAssistantRoute("voice_library")!;
    const calls: PlannedCall[] = here === route ? [] : [{ name: "go_to_route", params: { route: route.name } }];
    calls.push({ name: "set_value", params: { element: SEARCH_BOX[route.name]!, value: term } });
    return { text: `Searching ${route.label} for “${term}”.`, calls };
  }

  if (has("documentation") || /\bdocs\b/.test(text)) {
    const doc = /\bapi\b/.test(text) ? "api-reference" : /\bchangelog|new\b/.test(text) ? "changelog" : "guides";
    return { text: "Here is the documentation.", calls: [{ name: "show_documentation_link", params: { doc } }] };
  }

  if (/\b(what|which)\b.*\b(plan|tier)\b.*\b(am i|i'm|do i|my)\b|\bmy (plan|tier)\b/.test(text)) {
    const v = account.vars;
    const pvc = v.canUseProfessionalVoiceCloning ? "includes" : "does not include";
    const ivc = account.canUseInstantVoiceCloning ? "includes" : "does not include";
    return {
      text: `You are on the ${v.tier} plan: ${number(v.totalAvailableMonthlyCredits)} credits a month, ${account.voiceLimit} voice slots and ${v.maxSeats} seat${v.maxSeats === 1 ? "" : "s"}; it ${ivc} instant voice cloning and ${pvc} professional voice cloning for you.`,
      calls: [{ name: "go_to_route", params: { route: "subscription" } }],
    };
  }

  const entry = findKnowledge(text);
  if (entry) {
    const route = entry.route ? findAssistantRoute(entry.route) : undefined;
    const calls: PlannedCall[] = [];
    if (route && !denied(route, account)) calls.push({ name: "go_to_route", params: { route: route.name } });
    if (entry.doc) calls.push({ name: "show_documentation_link", params: { doc: entry.doc } });
    const suffix = route && denied(route, account) ? ` ${denied(route, account)}` : "";
    return { text: entry.answer + suffix, calls };
  }

  if (/^(hi|hello|hey|good (morning|afternoon|evening))\b/.test(text)) {
    const name = account.vars.firstName ? `, ${account.vars.firstName}` : "";
    return { text: `Hello${name}! I'm El, Timbre's assistant. Ask me about voices, speech, your plan or where to find something.`, calls: [] };
  }

  return { text: CANNOT_ANSWER, calls: [] };
}

function findKnowledge(text: string) {
  // Each word must start a word of the text ("api" is not in "capital").
  return KNOWLEDGE.find((k) => k.when.some((group) => group.every((w) => ` ${text}`.includes(` ${w}`))));
}
