import type { PageTab } from "../../lib/pages.js";

/** The Voices section's tabs: the library (hidden in isolated environments) and My Voices. */
export const VOICES_TABS: PageTab[] = [
  { label: "Explore", to: "/app/voice-library", patterns: ["/app/voice-library/*"], when: { hiddenWhenIsolated: true } },
  { label: "My Voices", to: "/app/voice-lab", patterns: ["/app/voice-lab/*"] },
];

export const VOICES_TITLE = "Voices";
export const LIBRARY_DESCRIPTION = "Discover voices shared by the community and add them to your collection.";
export const MY_VOICES_DESCRIPTION = "Your voices: cloned, designed and added from the library.";
