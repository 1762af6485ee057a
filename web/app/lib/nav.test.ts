import { describe, expect, it } from "vitest";
import { FLAG_DEFAULTS, type FlagName } from "../../../functions/platform/domain/flags.js";
import { matchesAny } from "./match.js";
import { buildProfileMenu, buildSettingsNav, buildSidebar, menuForRoute, submenuForPath, type MenuItem, type NavContext, type SidebarModel } from "./nav.js";
import { findProductPage } from "./pages.js";

const ctx = (over: Partial<Omit<NavContext, "flags">> & { flags?: Partial<Record<FlagName, boolean>> } = {}): NavContext => ({
  tier: "free",
  isProducer: false,
  isAdmin: true,
  ...over,
  flags: { ...FLAG_DEFAULTS, ...over.flags },
});

const labels = (m: SidebarModel) => m.sections.flatMap((s) => s.links.map((l) => l.label));
const ids = (m: SidebarModel) => m.sections.flatMap((s) => s.links.map((l) => l.id));
const submenu = (m: SidebarModel, id: string) => m.submenus.find((s) => s.id === id);
const flatMenu = (items: MenuItem[]): MenuItem[] => items.flatMap((i) => (i.type === "group" ? [i, ...flatMenu(i.items)] : [i]));

describe("sidebar model", () => {
  it("has every default entry of the spec", () => {
    const m = buildSidebar(ctx());
    expect(labels(m)).toEqual([
      "Home", "Voices", "Text to Speech", "Voice Changer", "Sound Effects", "Studio", "Dubbing", "Conversational AI",
      "Audio Native", "Voiceover Studio", "Voice Isolator", "AI Speech Classifier", "Soundboard",
    ]);
    expect(m.sections.map((s) => s.label)).toEqual([undefined, "Playground", "Products", "Tools"]);
    expect(m.topLinks.map((l) => l.label)).toEqual(["Guides", "API Reference", "Changelog"]);
    expect(m.secondaryLinks.map((l) => l.label)).toEqual([
      "Help Center", "Community", "Enterprise", "Voice Actors", "Grants for Startups", "Voice Data Partnerships", "Partnerships", "Affiliate Program", "Join our Team",
    ]);
    expect(m.sections.flatMap((s) => s.links).find((l) => l.id === "soundboard")?.to).toBe("/sound-effects/soundboard");
  });

  it("lists the Conversational AI submenu, with Outbound and Integrations behind their flags", () => {
    const plain = submenu(buildSidebar(ctx()), "conversational-ai")!;
    expect(plain.header).toBe("Conversational AI");
    expect(plain.links.map((l) => l.label)).toEqual(["Dashboard", "Agents", "Call History", "Knowledge Base", "Tools", "Phone Numbers", "Settings"]);
    expect(plain.links.find((l) => l.label === "Tools")?.badge).toBe("New");
    const flagged = submenu(buildSidebar(ctx({ flags: { "batch-calling": true, integrations: true } })), "conversational-ai")!;
    expect(flagged.links.map((l) => l.label)).toEqual(["Dashboard", "Agents", "Call History", "Knowledge Base", "Tools", "Phone Numbers", "Outbound", "Integrations", "Settings"]);
    expect(flagged.links.find((l) => l.label === "Outbound")?.to).toBe("/app/conversational-ai/batch-calling");
  });

  it("shows Speech to Text only with the speech-to-text UI flag", () => {
    expect(ids(buildSidebar(ctx()))).not.toContain("speech-to-text");
    expect(ids(buildSidebar(ctx({ flags: { "speech-to-text-ui": true } })))).toContain("speech-to-text");
  });

  it("shows Productions (alpha, with its submenu) only with its flag and outside isolated environments", () => {
    expect(ids(buildSidebar(ctx()))).not.toContain("productions");
    const m = buildSidebar(ctx({ flags: { productions: true } }));
    const productions = m.sections.flatMap((s) => s.links).find((l) => l.id === "productions");
    expect(productions?.badge).toBe("Alpha");
    expect(submenu(m, "productions")?.header).toBe("Productions");
    expect(ids(buildSidebar(ctx({ flags: { productions: true, "isolated-environment": true } })))).not.toContain("productions");
  });

  it("in an isolated environment hides Dubbing and opens the voice lab from Voices", () => {
    const m = buildSidebar(ctx({ flags: { "isolated-environment": true } }));
    expect(ids(m)).not.toContain("dubbing");
    const voices = m.sections.flatMap((s) => s.links).filter((l) => l.label === "Voices");
    expect(voices.map((l) => l.to)).toEqual(["/app/voice-lab"]);
    expect(buildSidebar(ctx()).sections.flatMap((s) => s.links).find((l) => l.label === "Voices")?.to).toBe("/app/voice-library");
  });

  it("shows the Producer Mode group only to producers, My Teams behind its flag", () => {
    expect(buildSidebar(ctx()).sections.map((s) => s.id)).not.toContain("producer");
    const producer = buildSidebar(ctx({ isProducer: true })).sections.find((s) => s.id === "producer")!;
    expect(producer.label).toBe("Producer Mode");
    expect(producer.links.map((l) => l.label)).toEqual(["Home", "History", "Settings"]);
    const withTeams = buildSidebar(ctx({ isProducer: true, flags: { "producer-teams": true } })).sections.find((s) => s.id === "producer")!;
    expect(withTeams.links.map((l) => l.label)).toEqual(["Home", "My Teams", "History", "Settings"]);
  });

  it("offers Upgrade on the free tier only", () => {
    expect(buildSidebar(ctx({ tier: "free" })).showUpgrade).toBe(true);
    for (const tier of ["starter", "creator", "pro", "scale", "business"]) expect(buildSidebar(ctx({ tier })).showUpgrade).toBe(false);
  });

  it("opens Terms and Privacy in a new tab and gives the drawer its extra groups", () => {
    const m = buildSidebar(ctx());
    expect(m.footerLinks.map((l) => [l.label, l.newTab])).toEqual([["Terms", true], ["Privacy", true]]);
    expect(m.mobileSections.map((s) => s.label)).toEqual(["Audio Tools", "Contact", "Documentation"]);
  });

  it("lists each page once in the drawer (issue 28: Audio Tools repeated three links of the navigation)", () => {
    const m = buildSidebar(ctx());
    const drawer = [...m.drawerSections, ...m.mobileSections].flatMap((s) => s.links.map((l) => l.to));
    expect(drawer.filter((to, i) => drawer.indexOf(to) !== i)).toEqual([]);
    for (const to of ["/app/voice-isolator", "/app/speech-synthesis/speech-to-speech", "/app/sound-effects"]) expect(drawer).toContain(to);
    // The desktop sidebar keeps them where they were.
    expect(m.sections.flatMap((s) => s.links.map((l) => l.to))).toContain("/app/voice-isolator");
  });

  it("finds the submenu of a deep link", () => {
    const m = buildSidebar(ctx());
    expect(submenuForPath(m, "/app/conversational-ai/talk-to/abc", matchesAny)).toBe("conversational-ai");
    expect(submenuForPath(m, "/app/studio", matchesAny)).toBeUndefined();
  });
});

describe("profile menu", () => {
  it("hides Upgrade for paid tiers and shows Theme only with the dark-mode flag", () => {
    const free = flatMenu(buildProfileMenu({ ...ctx(), workspaceName: "W" })).map((i) => i.id);
    expect(free).toContain("upgrade");
    expect(free).toContain("theme");
    const pro = flatMenu(buildProfileMenu({ ...ctx({ tier: "pro", flags: { "dark-mode": false } }), workspaceName: "W" })).map((i) => i.id);
    expect(pro).not.toContain("upgrade");
    expect(pro).not.toContain("theme");
  });

  it("uses every item type and keeps Subscription for admins", () => {
    const items = flatMenu(buildProfileMenu({ ...ctx(), workspaceName: "W" }));
    expect(new Set(items.map((i) => i.type))).toEqual(new Set(["group", "link", "button", "tooltip", "separator"]));
    const member = flatMenu(buildProfileMenu({ ...ctx({ isAdmin: false }), workspaceName: "W" })).map((i) => i.id);
    expect(member).not.toContain("subscription");
  });
});

describe("settings navigation", () => {
  const entries = (c: Parameters<typeof buildSettingsNav>[0]) => buildSettingsNav(c).flatMap((g) => g.entries);

  it("gives admins workspace webhooks, workspace settings and subscription", () => {
    const admin = entries(ctx({ isAdmin: true }));
    expect(admin.find((e) => e.id === "webhooks")?.label).toBe("Workspace webhooks");
    expect(admin.map((e) => e.id)).toEqual(expect.arrayContaining(["workspace", "subscription"]));
    const member = entries(ctx({ isAdmin: false }));
    expect(member.find((e) => e.id === "webhooks")?.label).toBe("Webhooks");
    expect(member.map((e) => e.id)).not.toContain("workspace");
    expect(member.map((e) => e.id)).not.toContain("subscription");
  });

  it("hides Payouts in isolated environments and shows the data residency", () => {
    expect(entries(ctx()).map((e) => e.id)).toContain("payouts");
    const isolated = entries(ctx({ flags: { "isolated-environment": true } }));
    expect(isolated.map((e) => e.id)).not.toContain("payouts");
    expect(isolated.find((e) => e.kind === "residency")?.label).toBe("Isolated environment");
  });

  it("opens pronunciation dictionaries and the affiliate program as dialogs", () => {
    const e = entries(ctx());
    expect(e.find((x) => x.id === "pronunciation-dictionaries")).toMatchObject({ kind: "dialog", dialog: "pronunciation-dictionaries" });
    expect(e.find((x) => x.id === "affiliate")).toMatchObject({ kind: "dialog", label: "Become an affiliate" });
    expect(entries({ ...ctx(), hasAffiliateLink: true }).find((x) => x.id === "affiliate")?.label).toBe("Affiliate program");
    expect(e.map((x) => x.label)).toEqual(expect.arrayContaining(["Profile", "API Keys", "Theme", "Usage analytics", "Your Privacy Choices", "Data use", "Sign out"]));
  });
});

describe("not-yet-built product pages", () => {
  it("exist for every sidebar route under /app except the built ones", () => {
    const c = ctx({ isProducer: true, flags: { "speech-to-text-ui": true, productions: true, "batch-calling": true, integrations: true, "producer-teams": true } });
    const m = buildSidebar(c);
    const built = new Set(["/app", "/app/speech-synthesis/text-to-speech", "/app/speech-synthesis/speech-to-speech", "/app/voice-isolator", "/app/voice-library", "/app/voice-lab", "/app/productions/active", "/app/productions/dashboard", "/app/productions/history", "/app/productions/settings"]);
    const routes = [...m.sections.flatMap((s) => s.links), ...m.submenus.flatMap((s) => s.links)].map((l) => l.to).filter((to) => to.startsWith("/app") && !built.has(to));
    for (const to of routes) expect(findProductPage(to, c), to).toBeDefined();
  });

  it("are hidden where their navigation entry is", () => {
    expect(findProductPage("/app/dubbing", ctx({ flags: { "isolated-environment": true } }))).toBeUndefined();
    expect(findProductPage("/app/conversational-ai/batch-calling", ctx())).toBeUndefined();
    expect(findProductPage("/app/conversational-ai/talk-to/agent1", ctx())?.id).toBe("cai-agents");
    // Producer Mode's pages are built (routes/app.productions.*): no placeholder, for producers or anyone.
    expect(findProductPage("/app/productions/active", ctx({ isProducer: true }))).toBeUndefined();
    expect(findProductPage("/app/nothing-here", ctx())).toBeUndefined();
  });
});

describe("navigation state", () => {
  const m = buildSidebar(ctx());
  it("follows the route: a submenu's pages open it, main-menu and settings pages show the main menu", () => {
    expect(menuForRoute(m, "/app/conversational-ai/history", matchesAny)).toEqual({ kind: "submenu", id: "conversational-ai" });
    expect(menuForRoute(m, "/app/speech-synthesis/text-to-speech", matchesAny)).toEqual({ kind: "main" });
    expect(menuForRoute(m, "/app/settings/api-keys", matchesAny)).toEqual({ kind: "main" });
    expect(menuForRoute(m, "/app", matchesAny)).toEqual({ kind: "main" });
  });

  it("shows the main menu on pages of no submenu (onboarding, not found); only developer pages keep the remembered submenu", () => {
    expect(menuForRoute(m, "/app/dev/crash", matchesAny)).toEqual({ kind: "undecided" });
    expect(menuForRoute(m, "/app/no-such-page", matchesAny)).toEqual({ kind: "main" });
    expect(menuForRoute(m, "/app/onboarding-checklist", matchesAny)).toEqual({ kind: "main" });
  });

  it("never gives two entries shown together the same icon", () => {
    const full = buildSidebar(ctx({ isProducer: true, flags: { "speech-to-text-ui": true, productions: true, "batch-calling": true, integrations: true, "producer-teams": true } }));
    const main = [...full.sections.flatMap((s) => s.links), ...full.topLinks].map((l) => l.icon);
    expect(new Set(main).size, "main menu").toBe(main.length);
    for (const sub of full.submenus) {
      const icons = [...sub.links, ...full.topLinks].map((l) => l.icon);
      expect(new Set(icons).size, sub.id).toBe(icons.length);
    }
  });
});
