import type { FlagName } from "../../../functions/platform/domain/flags.js";
import { docsPath, legalPath } from "./links.js";

/**
 * The navigation model of the shell (app-shell.md §2): every entry with the rule that shows or
 * hides it. Components only render what these functions return.
 */
export interface NavContext {
  flags: Partial<Record<FlagName, boolean>>;
  tier: string;
  isProducer: boolean;
  isAdmin: boolean;
}

export interface Visibility {
  flag?: FlagName;
  hiddenWhenIsolated?: boolean;
  onlyWhenIsolated?: boolean;
  producerOnly?: boolean;
  adminOnly?: boolean;
  hideForTiers?: readonly string[];
}

export const isIsolated = (ctx: Pick<NavContext, "flags">) => ctx.flags["isolated-environment"] === true;

export function isVisible(v: Visibility | undefined, ctx: NavContext): boolean {
  if (!v) return true;
  if (v.flag && ctx.flags[v.flag] !== true) return false;
  if (v.hiddenWhenIsolated && isIsolated(ctx)) return false;
  if (v.onlyWhenIsolated && !isIsolated(ctx)) return false;
  if (v.producerOnly && !ctx.isProducer) return false;
  if (v.adminOnly && !ctx.isAdmin) return false;
  if (v.hideForTiers?.includes(ctx.tier)) return false;
  return true;
}

export type IconName =
  | "home" | "voices" | "tts" | "changer" | "effects" | "studio" | "dubbing" | "agents" | "stt" | "productions"
  | "producer" | "teams" | "history" | "settings" | "native" | "voiceover" | "isolator" | "classifier" | "soundboard"
  | "book" | "code" | "news" | "back" | "pin" | "menu" | "close" | "chevron" | "more" | "upgrade" | "phone" | "outbound" | "plug"
  | "wrench" | "alert" | "info" | "check" | "play" | "pause" | "stop" | "download" | "trash" | "key" | "dictionary" | "dialogue"
  | "upload" | "plus" | "search" | "inbox" | "waveform" | "credits" | "help" | "legal" | "external" | "knowledge" | "dashboard";

export type SubmenuId = "conversational-ai" | "productions";
export type DialogId = "affiliate" | "pronunciation-dictionaries";

export interface NavLink {
  id: string;
  label: string;
  /** Where it goes; for dialog links, the dialog's query parameter is added to the current page instead. */
  to: string;
  /** Route patterns that make it the active entry (defaults to `to` exactly). */
  patterns?: readonly string[];
  icon?: IconName;
  badge?: "Alpha" | "New";
  submenu?: SubmenuId;
  dialog?: DialogId;
  newTab?: boolean;
  when?: Visibility;
}

export interface NavSection {
  id: string;
  label?: string;
  links: NavLink[];
}

export interface Submenu {
  id: SubmenuId;
  header: string;
  links: NavLink[];
}

/** Clicking an entry that opens a submenu slides first and navigates after this delay. */
export const SUBMENU_NAVIGATION_DELAY_MS = 300;
export const SIDEBAR_WIDTH_PINNED = "16rem";
export const SIDEBAR_WIDTH_COLLAPSED = "4rem";

const CAI = "/app/conversational-ai";

const SECTIONS: NavSection[] = [
  {
    id: "main",
    links: [
      { id: "home", label: "Home", to: "/app", icon: "home" },
      {
        id: "voices", label: "Voices", to: "/app/voice-library", icon: "voices", when: { hiddenWhenIsolated: true },
        patterns: ["/app/voice-library/*", "/app/voice-lab/*"],
      },
      { id: "voices-lab", label: "Voices", to: "/app/voice-lab", icon: "voices", when: { onlyWhenIsolated: true }, patterns: ["/app/voice-lab/*"] },
    ],
  },
  {
    id: "playground",
    label: "Playground",
    links: [
      { id: "tts", label: "Text to Speech", to: "/app/speech-synthesis/text-to-speech", icon: "tts" },
      { id: "sts", label: "Voice Changer", to: "/app/speech-synthesis/speech-to-speech", icon: "changer" },
      { id: "sound-effects", label: "Sound Effects", to: "/app/sound-effects", icon: "effects", patterns: ["/app/sound-effects/*"] },
    ],
  },
  {
    id: "products",
    label: "Products",
    links: [
      { id: "studio", label: "Studio", to: "/app/studio", icon: "studio", patterns: ["/app/studio/*", "/app/projects/*"] },
      { id: "dubbing", label: "Dubbing", to: "/app/dubbing", icon: "dubbing", patterns: ["/app/dubbing/*"], when: { hiddenWhenIsolated: true } },
      { id: "conversational-ai", label: "Conversational AI", to: CAI, icon: "agents", submenu: "conversational-ai", patterns: [`${CAI}/*`] },
      { id: "speech-to-text", label: "Speech to Text", to: "/app/speech-to-text", icon: "stt", patterns: ["/app/speech-to-text/*"], when: { flag: "speech-to-text-ui" } },
      {
        id: "productions", label: "Productions", to: "/app/productions", icon: "productions", badge: "Alpha", submenu: "productions",
        patterns: ["/app/productions", "/app/productions/:collectionId/:productionId"], when: { flag: "productions", hiddenWhenIsolated: true },
      },
    ],
  },
  {
    id: "producer",
    label: "Producer Mode",
    links: [
      { id: "producer-home", label: "Home", to: "/app/productions/active", icon: "producer", patterns: ["/app/productions/active", "/app/productions/unclaimed"], when: { producerOnly: true } },
      { id: "producer-teams", label: "My Teams", to: "/app/productions/dashboard", icon: "teams", when: { producerOnly: true, flag: "producer-teams" } },
      { id: "producer-history", label: "History", to: "/app/productions/history", icon: "history", when: { producerOnly: true } },
      { id: "producer-settings", label: "Settings", to: "/app/productions/settings", icon: "settings", when: { producerOnly: true } },
    ],
  },
  {
    id: "tools",
    label: "Tools",
    links: [
      { id: "audio-native", label: "Audio Native", to: "/app/audio-native", icon: "native", patterns: ["/app/audio-native/*"] },
      { id: "voiceover-studio", label: "Voiceover Studio", to: "/app/voiceover-studio", icon: "voiceover", patterns: ["/app/voiceover-studio/*"] },
      { id: "voice-isolator", label: "Voice Isolator", to: "/app/voice-isolator", icon: "isolator" },
      { id: "ai-speech-classifier", label: "AI Speech Classifier", to: "/app/ai-speech-classifier", icon: "classifier" },
      { id: "soundboard", label: "Soundboard", to: "/sound-effects/soundboard", icon: "soundboard" },
    ],
  },
];

const SUBMENUS: Submenu[] = [
  {
    id: "conversational-ai",
    header: "Conversational AI",
    links: [
      { id: "cai-dashboard", label: "Dashboard", to: CAI, icon: "dashboard" },
      { id: "cai-agents", label: "Agents", to: `${CAI}/agents`, icon: "agents", patterns: [`${CAI}/agents/*`, `${CAI}/talk-to/*`] },
      { id: "cai-history", label: "Call History", to: `${CAI}/history`, icon: "history", patterns: [`${CAI}/history/*`] },
      { id: "cai-knowledge-base", label: "Knowledge Base", to: `${CAI}/knowledge-base`, icon: "knowledge", patterns: [`${CAI}/knowledge-base/*`] },
      { id: "cai-tools", label: "Tools", to: `${CAI}/tools`, icon: "wrench", badge: "New", patterns: [`${CAI}/tools/*`] },
      { id: "cai-phone-numbers", label: "Phone Numbers", to: `${CAI}/phone-numbers`, icon: "phone" },
      { id: "cai-batch-calling", label: "Outbound", to: `${CAI}/batch-calling`, icon: "outbound", patterns: [`${CAI}/batch-calling/*`], when: { flag: "batch-calling" } },
      { id: "cai-integrations", label: "Integrations", to: `${CAI}/integrations`, icon: "plug", when: { flag: "integrations" } },
      { id: "cai-settings", label: "Settings", to: `${CAI}/settings`, icon: "settings" },
    ],
  },
  {
    id: "productions",
    header: "Productions",
    links: [{ id: "productions-overview", label: "Overview", to: "/app/productions", icon: "productions", patterns: ["/app/productions", "/app/productions/:collectionId/:productionId"] }],
  },
];

const TOP_LINKS: NavLink[] = [
  { id: "guides", label: "Guides", to: docsPath("guides"), icon: "book" },
  { id: "api-reference", label: "API Reference", to: docsPath("api-reference"), icon: "code" },
  { id: "changelog", label: "Changelog", to: docsPath("changelog"), icon: "news" },
];

const SECONDARY_LINKS: NavLink[] = [
  { id: "help-center", label: "Help Center", to: docsPath("help-center") },
  { id: "community", label: "Community", to: docsPath("community") },
  { id: "enterprise", label: "Enterprise", to: docsPath("enterprise") },
  { id: "voice-actors", label: "Voice Actors", to: docsPath("voice-actors") },
  { id: "grants", label: "Grants for Startups", to: docsPath("grants") },
  { id: "voice-data-partnerships", label: "Voice Data Partnerships", to: docsPath("voice-data-partnerships") },
  { id: "partnerships", label: "Partnerships", to: docsPath("partnerships") },
  { id: "affiliate", label: "Affiliate Program", to: "", dialog: "affiliate" },
  { id: "careers", label: "Join our Team", to: docsPath("careers") },
];

const FOOTER_LINKS: NavLink[] = [
  { id: "terms", label: "Terms", to: legalPath("terms"), newTab: true },
  { id: "privacy", label: "Privacy", to: legalPath("privacy"), newTab: true },
];

/** Extra groups of the mobile drawer. */
const MOBILE_SECTIONS: NavSection[] = [
  {
    id: "audio-tools",
    label: "Audio Tools",
    links: [
      { id: "m-voice-isolator", label: "Voice Isolator", to: "/app/voice-isolator", icon: "isolator" },
      { id: "m-voice-changer", label: "Voice Changer", to: "/app/speech-synthesis/speech-to-speech", icon: "changer" },
      { id: "m-sound-effects", label: "Sound Effects", to: "/app/sound-effects", icon: "effects" },
    ],
  },
  {
    id: "contact",
    label: "Contact",
    links: [
      { id: "m-help-center", label: "Help Center", to: docsPath("help-center") },
      { id: "m-contact-sales", label: "Contact Sales", to: docsPath("contact-sales") },
      { id: "m-community", label: "Community", to: docsPath("community") },
    ],
  },
  { id: "documentation", label: "Documentation", links: TOP_LINKS.map((l) => ({ ...l, id: `m-${l.id}` })) },
];

function visibleSections(sections: NavSection[], ctx: NavContext): NavSection[] {
  return sections.map((s) => ({ ...s, links: s.links.filter((l) => isVisible(l.when, ctx)) })).filter((s) => s.links.length > 0);
}

export interface SidebarModel {
  sections: NavSection[];
  submenus: Submenu[];
  topLinks: NavLink[];
  secondaryLinks: NavLink[];
  footerLinks: NavLink[];
  mobileSections: NavSection[];
  /** The main sections as the drawer shows them: without the links its Audio Tools group lists. */
  drawerSections: NavSection[];
  /** The Upgrade button (to the subscription page) is for the free tier only. */
  showUpgrade: boolean;
}

export const SUBSCRIPTION_PATH = "/app/settings/subscription";

export function buildSidebar(ctx: NavContext): SidebarModel {
  const sections = visibleSections(SECTIONS, ctx);
  const mobileSections = visibleSections(MOBILE_SECTIONS, ctx);
  const inDrawerGroups = new Set(mobileSections.flatMap((s) => s.links.map((l) => l.to)));
  const shownSubmenus = new Set(sections.flatMap((s) => s.links.map((l) => l.submenu)).filter(Boolean));
  return {
    sections,
    submenus: SUBMENUS.filter((m) => shownSubmenus.has(m.id)).map((m) => ({ ...m, links: m.links.filter((l) => isVisible(l.when, ctx)) })),
    topLinks: TOP_LINKS,
    secondaryLinks: SECONDARY_LINKS,
    footerLinks: FOOTER_LINKS,
    mobileSections,
    drawerSections: sections.map((sec) => ({ ...sec, links: sec.links.filter((l) => !inDrawerGroups.has(l.to)) })).filter((sec) => sec.links.length > 0),
    showUpgrade: ctx.tier === "free",
  };
}

export function linkPatterns(link: NavLink): readonly string[] {
  return [link.to, ...(link.patterns ?? [])];
}

/**
 * Which menu the current route decides: a submenu when the page is one of its pages, the main
 * menu on every other page, and nothing ("undecided") on the developer pages, where the
 * remembered submenu applies (app-shell.md §2).
 */
export type RouteMenu = { kind: "submenu"; id: SubmenuId } | { kind: "main" } | { kind: "undecided" };

export function menuForRoute(model: SidebarModel, pathname: string, matches: (patterns: readonly string[], p: string) => boolean): RouteMenu {
  const sub = submenuForPath(model, pathname, matches);
  if (sub) return { kind: "submenu", id: sub };
  for (const m of model.submenus) if (m.links.some((l) => matches(linkPatterns(l), pathname))) return { kind: "submenu", id: m.id };
  const mainLinks = [...model.sections, ...model.mobileSections].flatMap((s) => s.links);
  if (mainLinks.some((l) => !l.dialog && !l.newTab && matches(linkPatterns(l), pathname))) return { kind: "main" };
  if (matches(["/app/settings", "/app/settings/*"], pathname)) return { kind: "main" };
  if (matches(UTILITY_PAGES, pathname)) return { kind: "undecided" };
  // Every other page (onboarding, 'Page not found') belongs to no submenu: an open submenu there
  // looked as if the page were one of its own (issue 28 §10).
  return { kind: "main" };
}

/** Pages that leave the sidebar as the user had it (the remembered submenu): developer tools. */
const UTILITY_PAGES = ["/app/dev", "/app/dev/*"] as const;

/** The submenu whose pages contain `pathname`, if any (so a deep link opens its submenu). */
export function submenuForPath(model: SidebarModel, pathname: string, matches: (patterns: readonly string[], p: string) => boolean): SubmenuId | undefined {
  for (const section of model.sections) {
    for (const link of section.links) if (link.submenu && matches(linkPatterns(link), pathname)) return link.submenu;
  }
  return undefined;
}

/* ---------- Profile menu ---------- */

interface MenuBase {
  id: string;
  /** Tiers for which the item hides itself. */
  hideForTiers?: readonly string[];
}
export type MenuItem =
  | (MenuBase & { type: "link"; label: string; to: string; newTab?: boolean; dialog?: DialogId })
  | (MenuBase & { type: "button"; label: string; action: "toggle-theme" | "sign-out" })
  | (MenuBase & { type: "group"; label: string; items: MenuItem[] })
  | (MenuBase & { type: "tooltip"; label: string; tooltip: string })
  | (MenuBase & { type: "separator" });

const PAID_TIERS = ["starter", "creator", "pro", "scale", "business"] as const;

export function buildProfileMenu(ctx: NavContext & { workspaceName: string }): MenuItem[] {
  const items: MenuItem[] = [
    {
      id: "account",
      type: "group",
      label: "Account",
      items: [
        { id: "profile", type: "link", label: "Profile", to: "/app/settings/profile" },
        { id: "api-keys", type: "link", label: "API Keys", to: "/app/settings/api-keys" },
        ...(ctx.isAdmin ? [{ id: "subscription", type: "link", label: "Subscription", to: SUBSCRIPTION_PATH } as MenuItem] : []),
        { id: "usage", type: "link", label: "Usage analytics", to: "/app/settings/usage" },
      ],
    },
    { id: "workspace", type: "tooltip", label: `Workspace: ${ctx.workspaceName}`, tooltip: "The workspace you are working in. Credits and voices belong to it." },
    { id: "upgrade", type: "link", label: "Upgrade", to: SUBSCRIPTION_PATH, hideForTiers: PAID_TIERS },
    { id: "affiliate", type: "link", label: "Affiliate program", to: "", dialog: "affiliate" },
    ...(ctx.flags["dark-mode"] ? [{ id: "theme", type: "button", label: "Theme", action: "toggle-theme" } as MenuItem] : []),
    { id: "sep", type: "separator" },
    { id: "sign-out", type: "button", label: "Sign out", action: "sign-out" },
  ];
  return visibleMenuItems(items, ctx.tier);
}

/** Drops items hidden for the tier (in groups too) and groups left empty. */
export function visibleMenuItems(items: MenuItem[], tier: string): MenuItem[] {
  const out: MenuItem[] = [];
  for (const item of items) {
    if (item.hideForTiers?.includes(tier)) continue;
    if (item.type === "group") {
      const inner = visibleMenuItems(item.items, tier);
      if (inner.length) out.push({ ...item, items: inner });
    } else out.push(item);
  }
  return out;
}

/* ---------- Settings navigation ---------- */

export type SettingsEntry =
  | { kind: "link"; id: string; label: string; to: string; newTab?: boolean; when?: Visibility }
  | { kind: "dialog"; id: string; label: string; dialog: DialogId; when?: Visibility }
  | { kind: "theme"; id: string; label: string; when?: Visibility }
  | { kind: "residency"; id: string; label: string }
  | { kind: "sign-out"; id: string; label: string };

export interface SettingsGroup {
  id: string;
  label: string;
  entries: SettingsEntry[];
}

export function buildSettingsNav(ctx: NavContext & { hasAffiliateLink?: boolean }): SettingsGroup[] {
  const groups: SettingsGroup[] = [
    {
      id: "account",
      label: "Account",
      entries: [
        { kind: "link", id: "profile", label: "Profile", to: "/app/settings/profile" },
        { kind: "link", id: "api-keys", label: "API Keys", to: "/app/settings/api-keys" },
        // Admins (who can open workspace settings) manage the workspace's webhooks, others their own.
        { kind: "link", id: "webhooks", label: ctx.isAdmin ? "Workspace webhooks" : "Webhooks", to: "/app/settings/webhooks" },
        { kind: "link", id: "workspace", label: "Workspace settings", to: "/app/settings/workspace", when: { adminOnly: true } },
        { kind: "link", id: "engines", label: "Speech engines", to: "/app/settings/engines", when: { adminOnly: true } },
        { kind: "link", id: "subscription", label: "Subscription", to: SUBSCRIPTION_PATH, when: { adminOnly: true } },
        { kind: "dialog", id: "pronunciation-dictionaries", label: "Pronunciation dictionaries", dialog: "pronunciation-dictionaries" },
        { kind: "theme", id: "theme", label: "Theme", when: { flag: "dark-mode" } },
        { kind: "link", id: "payouts", label: "Payouts", to: "/app/settings/payouts", when: { hiddenWhenIsolated: true } },
        { kind: "dialog", id: "affiliate", label: ctx.hasAffiliateLink ? "Affiliate program" : "Become an affiliate", dialog: "affiliate" },
        { kind: "link", id: "usage", label: "Usage analytics", to: "/app/settings/usage" },
      ],
    },
    {
      id: "resources",
      label: "Resources",
      entries: [
        { kind: "link", id: "docs", label: "Documentation", to: docsPath("guides") },
        { kind: "link", id: "api-reference", label: "API Reference", to: docsPath("api-reference") },
        { kind: "link", id: "terms", label: "Terms of Service", to: legalPath("terms"), newTab: true },
        { kind: "link", id: "privacy", label: "Privacy Policy", to: legalPath("privacy"), newTab: true },
        { kind: "link", id: "privacy-choices", label: "Your Privacy Choices", to: legalPath("privacy-choices") },
        { kind: "link", id: "data-use", label: "Data use", to: legalPath("data-use") },
        { kind: "residency", id: "residency", label: isIsolated(ctx) ? "Isolated environment" : "This server" },
        { kind: "sign-out", id: "sign-out", label: "Sign out" },
      ],
    },
  ];
  return groups.map((g) => ({ ...g, entries: g.entries.filter((e) => !("when" in e) || isVisible(e.when, ctx)) }));
}

/** The current page with `?{dialog}=true` added: query-driven dialogs open over any page. */
export function dialogHref(location: { pathname: string; search: string }, dialog: DialogId): string {
  const params = new URLSearchParams(location.search);
  params.set(dialog, "true");
  return `${location.pathname}?${params}`;
}
