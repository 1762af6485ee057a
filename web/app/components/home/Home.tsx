import { Link, useLocation } from "@remix-run/react";
import { ChecklistWidget } from "../onboarding/ChecklistWidget.js";
import { formatNumber } from "../../lib/format.js";
import type { IconName } from "../../lib/nav.js";
import { dialogHref, SUBSCRIPTION_PATH } from "../../lib/nav.js";
import { useShell } from "../../lib/shell.js";
import { formatDateTime } from "../tts/text.js";
import { voiceDisplayName } from "../tts/voices.js";
import { AudioPlayer } from "../audio/AudioPlayer.js";
import { CreditUsage } from "../CreditUsage.js";
import { Icon } from "../Icon.js";
import { historyAudio, historyItemTitle } from "../tts/HistoryList.js";
import { EmptyState } from "../ui/EmptyState.js";
import type { HomeData } from "./usage.js";

const TTS_PATH = "/app/speech-synthesis/text-to-speech";

interface QuickAction {
  id: string;
  title: string;
  description: string;
  icon: IconName;
  to: string;
}

/** What works today, one click away. */
function quickActions(location: { pathname: string; search: string }): QuickAction[] {
  return [
    { id: "tts", title: "Text to Speech", description: "Turn text into speech with a voice of your choice.", icon: "tts", to: TTS_PATH },
    { id: "dialogue", title: "Dialogue", description: "Write a conversation between several voices.", icon: "dialogue", to: `${TTS_PATH}?mode=dialogue` },
    { id: "voices", title: "Voices", description: "Browse the voices you can use.", icon: "voices", to: "/app/voice-library" },
    { id: "dictionaries", title: "Pronunciation dictionaries", description: "Teach voices how to say names and terms.", icon: "dictionary", to: dialogHref(location, "pronunciation-dictionaries") },
    { id: "api-keys", title: "API keys", description: "Call the API from your own programs.", icon: "key", to: "/app/settings/api-keys" },
  ];
}

/**
 * Home (issue 8 §3): a greeting, credit usage, quick actions to what works, the latest
 * generations with play buttons and the voices used most. A new user starts from here and
 * reaches a playing clip in three clicks (Text to Speech, a sample text, Generate).
 */
export function Home({ data }: { data: HomeData }) {
  const shell = useShell();
  const location = useLocation();
  if (!shell) return null;
  const name = shell.user.displayName;
  const { tier, used, limit, resetsAtUnix } = shell.subscription;
  return (
    <div className="page home">
      <header className="page-header home-header">
        <div className="page-heading">
          <h1>{name ? `Welcome, ${name}` : "Welcome"}</h1>
          <p className="page-description">
            {data.latest.length ? "Pick up where you left off, or start something new." : "Create your first clip: open Text to Speech, pick a sample text and press Generate."}
          </p>
        </div>
        <Link className="button button-primary" to={TTS_PATH}>
          <Icon name="tts" size={18} />
          Create speech
        </Link>
      </header>

      <ChecklistWidget checklist={data.checklist ?? null} />

      <section aria-labelledby="quick-actions-title" className="home-section">
        <h2 id="quick-actions-title" className="section-title">
          Quick actions
        </h2>
        <ul className="quick-actions">
          {quickActions(location).map((a) => (
            <li key={a.id}>
              <Link className="quick-action" to={a.to} data-testid={`quick-action-${a.id}`}>
                <span className="quick-action-icon" aria-hidden="true">
                  <Icon name={a.icon} />
                </span>
                <span className="quick-action-text">
                  <span className="quick-action-title">{a.title}</span>
                  <span className="quick-action-description">{a.description}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <div className="home-grid">
        <section className="card home-latest" aria-labelledby="latest-title">
          <div className="card-header">
            <h2 id="latest-title">Latest generations</h2>
            {data.latest.length > 0 && (
              <Link to={`${TTS_PATH}?tab=history`} className="card-link">
                All history
              </Link>
            )}
          </div>
          {data.latest.length === 0 ? (
            <EmptyState icon="waveform" title="Nothing generated yet" headingLevel={3} id="latest-empty" action={<Link className="button button-primary" to={TTS_PATH}>Generate your first clip</Link>}>
              <p>Your generations appear here, ready to play.</p>
            </EmptyState>
          ) : (
            <ul className="home-generations">
              {data.latest.map((item) => (
                <li key={item.history_item_id} className="home-generation" data-testid="home-generation">
                  <p className="home-generation-text" title={historyItemTitle(item)}>
                    {historyItemTitle(item)}
                  </p>
                  <p className="muted home-generation-meta">
                    {voiceDisplayName(item.voice_name ?? item.dialogue?.[0]?.voice_name ?? "Unknown voice")}
                    {item.dialogue?.length ? " and others" : ""} · {formatDateTime(item.date_unix)}
                  </p>
                  <AudioPlayer label={`generation “${historyItemTitle(item).slice(0, 40)}”`} load={() => historyAudio(item)} variant="compact" />
                </li>
              ))}
            </ul>
          )}
        </section>

        <div className="home-side">
          <section className="card" aria-labelledby="home-credits-title">
            <div className="card-header">
              <h2 id="home-credits-title">Credits</h2>
              <Link to={SUBSCRIPTION_PATH} className="card-link">
                {tier === "free" ? "Plans" : "Plan and usage"}
              </Link>
            </div>
            <CreditUsage used={used} limit={limit} resetsAtUnix={resetsAtUnix} />
            <p className="muted home-credits-left">{formatNumber(Math.max(0, limit - used))} credits left this period.</p>
          </section>

          <section className="card" aria-labelledby="home-voices-title">
            <div className="card-header">
              <h2 id="home-voices-title">{data.voicesAreSuggestions ? "Voices to try" : "Your most used voices"}</h2>
            </div>
            {data.voices.length === 0 ? (
              <p className="muted">No voices are available yet.</p>
            ) : (
              <ul className="home-voices">
                {data.voices.map((v) => (
                  <li key={v.voice_id} className="home-voice">
                    <span className="voice-avatar" aria-hidden="true">
                      {voiceDisplayName(v.name).slice(0, 1).toUpperCase()}
                    </span>
                    <span className="home-voice-text">
                      <span className="home-voice-name">{voiceDisplayName(v.name)}</span>
                      <span className="muted home-voice-meta">{v.uses ? `${v.uses} ${v.uses === 1 ? "generation" : "generations"}` : v.description ?? "Default voice"}</span>
                    </span>
                    <Link className="button button-small" to={`${TTS_PATH}?voice_id=${encodeURIComponent(v.voice_id)}`} aria-label={`Use ${voiceDisplayName(v.name)}`}>
                      Use
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
      </div>
    </div>
  );
}
