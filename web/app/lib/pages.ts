import type { PermissionId } from "../../../functions/platform/domain/permissions.js";
import { matchesAny } from "./match.js";
import { isVisible, type NavContext, type Visibility } from "./nav.js";

/**
 * Product pages that exist in the navigation but whose feature is not built yet. Each shows its
 * page header (and its permission gate) with an honest "not available yet" state. A feature's own
 * issue replaces its entry here with a real route file.
 */
export interface PageTab {
  label: string;
  to: string;
  patterns: readonly string[];
  /** Keep the current query string when switching tabs. */
  keepQuery?: boolean;
  when?: Visibility;
}

export interface ProductPage {
  id: string;
  title: string;
  description: string;
  patterns: readonly string[];
  permission?: PermissionId;
  when?: Visibility;
  tabs?: readonly PageTab[];
  /** What to use meanwhile, said on the not-available page. */
  alternative?: string;
}

const CAI = "/app/conversational-ai";

const SOUND_EFFECTS_TABS: PageTab[] = [
  { label: "Generate", to: "/app/sound-effects", patterns: ["/app/sound-effects", "/app/sound-effects/generate"] },
  { label: "Explore", to: "/app/sound-effects/explore", patterns: ["/app/sound-effects/explore"] },
];

const cai = (id: string, title: string, description: string, path: string, extra: Partial<ProductPage> = {}): ProductPage => ({
  id: `cai-${id}`,
  title,
  description,
  patterns: [path, `${path}/*`],
  permission: "conversational_ai",
  ...extra,
});

export const PRODUCT_PAGES: readonly ProductPage[] = [
  {
    id: "sound-effects", title: "Sound Effects", description: "Describe a sound and generate it.",
    patterns: ["/app/sound-effects", "/app/sound-effects/generate", "/app/sound-effects/explore"], permission: "sound_effects", tabs: SOUND_EFFECTS_TABS,
  },
  {
    id: "studio", title: "Studio", description: "Long-form audio projects: audiobooks, articles and podcasts.", patterns: ["/app/studio", "/app/studio/*", "/app/projects", "/app/projects/*"], permission: "projects",
    alternative: "For long texts meanwhile, Text to Speech takes up to 10,000 characters a request (40,000 with Flash v2.5 and Turbo v2.5): generate a long text in parts, and find every part in its history.",
  },
  { id: "dubbing", title: "Dubbing", description: "Translate audio and video into other languages, keeping the speakers' voices.", patterns: ["/app/dubbing", "/app/dubbing/*"], permission: "dubbing", when: { hiddenWhenIsolated: true } },
  { ...cai("dashboard", "Conversational AI", "Build and deploy voice agents.", CAI), patterns: [CAI] },
  cai("agents", "Agents", "Create agents and talk to them.", `${CAI}/agents`, { patterns: [`${CAI}/agents`, `${CAI}/agents/*`, `${CAI}/talk-to/:agentId`] }),
  cai("history", "Call History", "Conversations your agents have held.", `${CAI}/history`),
  cai("knowledge-base", "Knowledge Base", "Documents and links your agents can draw on.", `${CAI}/knowledge-base`),
  cai("tools", "Tools", "Functions your agents can call during a conversation.", `${CAI}/tools`),
  cai("phone-numbers", "Phone Numbers", "Numbers your agents answer and call from.", `${CAI}/phone-numbers`),
  cai("batch-calling", "Outbound", "Call a list of recipients with an agent.", `${CAI}/batch-calling`, { when: { flag: "batch-calling" } }),
  cai("integrations", "Integrations", "Connect agents to other services.", `${CAI}/integrations`, { when: { flag: "integrations" } }),
  cai("settings", "Conversational AI Settings", "Defaults for all your agents.", `${CAI}/settings`),
  { id: "speech-to-text", title: "Speech to Text", description: "Transcribe audio and video.", patterns: ["/app/speech-to-text", "/app/speech-to-text/*"], when: { flag: "speech-to-text-ui" } },
  {
    id: "productions", title: "Productions", description: "Human-reviewed transcripts, subtitles and dubs.",
    patterns: ["/app/productions", "/app/productions/:collectionId/:productionId"], when: { flag: "productions", hiddenWhenIsolated: true },
  },
  { id: "audio-native", title: "Audio Native", description: "Embed narrated versions of your articles on your site.", patterns: ["/app/audio-native", "/app/audio-native/*"], permission: "audio_native" },
  { id: "voiceover-studio", title: "Voiceover Studio", description: "Add voiceovers and sound effects to video.", patterns: ["/app/voiceover-studio", "/app/voiceover-studio/*"], permission: "voiceover_studio" },
  { id: "ai-speech-classifier", title: "AI Speech Classifier", description: "Check whether a clip was generated with AI.", patterns: ["/app/ai-speech-classifier"], permission: "ai_speech_classifier" },
];

/** The not-yet-built product page at `pathname` if it exists and is visible to this user. */
export function findProductPage(pathname: string, ctx: NavContext): ProductPage | undefined {
  const page = PRODUCT_PAGES.find((p) => matchesAny(p.patterns, pathname));
  return page && isVisible(page.when, ctx) ? page : undefined;
}
