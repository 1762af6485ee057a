import { useSearchParams } from "@remix-run/react";
import { useId, type ReactNode } from "react";

export type SpeechTab = "main" | "history";

/**
 * The tab of a speech page from its query: ?tab=history, else the main view. Switching replaces
 * the history entry instead of pushing one, and keeps the rest of the query (speech-generation.md
 * §2: "Page tab parameter tab can be history (replaces history instead of pushing)", "tabs keep
 * the query").
 */
export function useSpeechTab(): [SpeechTab, (next: SpeechTab) => void] {
  const [params, setParams] = useSearchParams();
  const tab: SpeechTab = params.get("tab") === "history" ? "history" : "main";
  const setTab = (next: SpeechTab) => {
    const p = new URLSearchParams(params);
    if (next === "history") p.set("tab", "history");
    else p.delete("tab");
    setParams(p, { replace: true, preventScrollReset: true });
  };
  return [tab, setTab];
}

/**
 * The two tabs of Text to Speech and the Voice Changer: the page's main view (kept mounted behind
 * the history tab, so its text, queue, settings and audio survive) and its history, rendered only
 * while shown.
 */
export function HistoryTabs({
  tab,
  onTab,
  label,
  mainLabel,
  mainClassName,
  history,
  children,
}: {
  tab: SpeechTab;
  onTab: (next: SpeechTab) => void;
  label: string;
  mainLabel: string;
  mainClassName?: string;
  history: ReactNode;
  children: ReactNode;
}) {
  const id = useId();
  const tabId = (t: SpeechTab) => `${id}-${t}`;
  return (
    <>
      <div className="subtabs" role="tablist" aria-label={label}>
        {(["main", "history"] as const).map((t) => (
          <button key={t} type="button" role="tab" id={tabId(t)} aria-selected={tab === t} aria-controls={`${tabId(t)}-panel`} className="subtab" onClick={() => onTab(t)}>
            {t === "main" ? mainLabel : "History"}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${tabId("history")}-panel`} aria-labelledby={tabId("history")} hidden={tab !== "history"}>
        {tab === "history" && history}
      </div>
      <div role="tabpanel" id={`${tabId("main")}-panel`} aria-labelledby={tabId("main")} hidden={tab !== "main"} className={mainClassName}>
        {children}
      </div>
    </>
  );
}
