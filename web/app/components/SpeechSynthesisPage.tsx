import type { ReactNode } from "react";
import type { PermissionId } from "../../../functions/platform/domain/permissions.js";
import { NotAvailable } from "./NotAvailable.js";
import { Page, type HeaderTab } from "./Page.js";

// The tabs switch the route and keep the query string (speech-generation.md §2).
const TABS: HeaderTab[] = [
  { label: "Text to Speech", to: "/app/speech-synthesis/text-to-speech", patterns: [], keepQuery: true },
  { label: "Voice Changer", to: "/app/speech-synthesis/speech-to-speech", patterns: [], keepQuery: true },
];

const PAGES: Record<"tts" | "sts", { title: string; description: string; permission: PermissionId }> = {
  tts: { title: "Text to Speech", description: "Turn text into lifelike speech with a voice and model of your choice.", permission: "text_to_speech" },
  sts: { title: "Voice Changer", description: "Convert a recording into another voice, keeping its delivery.", permission: "speech_to_speech" },
};

/** The page frame of both tabs; a tab without its own body (yet) shows the not-available state. */
export function SpeechSynthesisPage({ tab, children }: { tab: "tts" | "sts"; children?: ReactNode }) {
  const page = PAGES[tab];
  return (
    <Page title={page.title} description={page.description} tabs={TABS} requiredPermission={page.permission}>
      {children ?? <NotAvailable feature={page.title} />}
    </Page>
  );
}
