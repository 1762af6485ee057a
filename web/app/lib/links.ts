/**
 * Information pages the navigation links to. A self-hosted server has no marketing site, help
 * centre or legal text of its own until its operator adds them, so each page says so honestly.
 */
export interface InfoPage {
  title: string;
  text: string;
}

const notSetUp = (what: string) => `The operator of this Timbre server has not set up ${what} yet.`;

export const DOCS_PAGES: Record<string, InfoPage> = {
  guides: { title: "Guides", text: "Guides are not available yet. The README of the Timbre repository explains how to run, configure and deploy the server." },
  "api-reference": {
    title: "API Reference",
    text:
      "The API under /v1 follows the ElevenLabs API contract, so the official ElevenLabs SDKs work against this server: set their base URL to this server's address and use an API key from Settings → API Keys. A browsable reference is not available yet.",
  },
  changelog: { title: "Changelog", text: "A changelog is not available yet." },
  "help-center": { title: "Help Center", text: notSetUp("a help centre") },
  community: { title: "Community", text: notSetUp("a community page") },
  enterprise: { title: "Enterprise", text: notSetUp("an enterprise contact") },
  "voice-actors": { title: "Voice Actors", text: notSetUp("a voice actor programme") },
  grants: { title: "Grants for Startups", text: notSetUp("a grants programme") },
  "voice-data-partnerships": { title: "Voice Data Partnerships", text: notSetUp("a voice data partnership programme") },
  partnerships: { title: "Partnerships", text: notSetUp("a partnerships page") },
  careers: { title: "Join our Team", text: notSetUp("a careers page") },
  "contact-sales": { title: "Contact Sales", text: notSetUp("a sales contact") },
};

export const LEGAL_PAGES: Record<string, InfoPage> = {
  terms: { title: "Terms of Service", text: notSetUp("terms of service") },
  privacy: { title: "Privacy Policy", text: notSetUp("a privacy policy") },
  "privacy-choices": { title: "Your Privacy Choices", text: `${notSetUp("a privacy choices page")} This application sets only the cookies it needs to keep you signed in and to protect forms.` },
  "data-use": { title: "Data use", text: "Your audio, text and voices are stored on this server and in the storage its operator configured. They are not sent to third parties by Timbre." },
};

export const docsPath = (slug: keyof typeof DOCS_PAGES & string) => `/docs/${slug}`;
export const legalPath = (slug: keyof typeof LEGAL_PAGES & string) => `/legal/${slug}`;
