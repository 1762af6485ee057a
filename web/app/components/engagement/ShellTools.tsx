import { AssistantCard } from "../assistant/AssistantCard.js";
import { Link } from "@remix-run/react";
import { useEffect, useId, useRef, useState } from "react";
import type { ShellData } from "../../lib/shell.js";
import { useCsrfToken } from "../Csrf.js";
import { Icon } from "../Icon.js";
import {
  AUTO_OPEN_DELAY_MS,
  AUTO_OPEN_OFF_KEY,
  autoOpenedFor,
  FEEDBACK_MESSAGES,
  FEEDBACK_RESET_MS,
  firstShowings,
  markRead,
  NOTIFICATIONS_CACHE_MS,
  notificationsFailed,
  readIds,
  rememberAutoOpen,
  shouldAutoOpen,
  type Notification,
} from "./engagement.js";

/** A popover anchored to its button: closes on Escape (focus back to the button) and on a click outside. */
function usePopover(onClose?: () => void) {
  const [open, setOpen] = useState(false);
  const anchor = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent) => {
      if (!anchor.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        setOpen(false);
        button.current?.focus();
      }
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
      closeRef.current?.();
    };
  }, [open]);
  return { open, setOpen, anchor, button };
}

/** Fetched at most every 10 minutes and not again on focus (app-shell.md §9). */
let cache: { at: number; docs: Notification[] } | undefined;

function Notifications({ shell }: { shell: ShellData }) {
  const { open, setOpen, anchor, button } = usePopover();
  const [docs, setDocs] = useState<Notification[] | null>(cache?.docs ?? null);
  const [error, setError] = useState<string | null>(null);
  const [read, setRead] = useState<Set<string>>(new Set());
  const [autoOff, setAutoOff] = useState(false);
  const popId = useId();
  const csrf = useCsrfToken();

  useEffect(() => {
    setRead(readIds());
    setAutoOff(localStorage.getItem(AUTO_OPEN_OFF_KEY) === "true");
    if (cache && Date.now() - cache.at < NOTIFICATIONS_CACHE_MS) return;
    void (async () => {
      try {
        const res = await fetch("/app/notifications", { headers: { accept: "application/json" } });
        if (!res.ok) {
          await res.text();
          return setError(notificationsFailed(res.status));
        }
        const body = (await res.json()) as { docs: Notification[] };
        cache = { at: Date.now(), docs: body.docs };
        setDocs(body.docs);
      } catch {
        setError(notificationsFailed(0));
      }
    })();
  }, []);

  // Opening marks the newest as read, and stores when a flag-controlled notification was first shown.
  useEffect(() => {
    if (!open || !docs?.[0]) return;
    markRead(docs[0].id);
    setRead(readIds());
    for (const id of firstShowings(docs)) {
      const body = new FormData();
      body.set("csrf", csrf);
      body.set("id", id);
      void fetch("/app/notifications", { method: "POST", body, headers: { accept: "application/json" } })
        .then(async (res) => {
          if (!res.ok) return;
          const { first_shown } = (await res.json()) as { first_shown: number };
          setDocs((all) => all?.map((d) => (d.id === id ? { ...d, first_shown } : d)) ?? all);
          if (cache) cache = { ...cache, docs: cache.docs.map((d) => (d.id === id ? { ...d, first_shown } : d)) };
        })
        .catch(() => undefined);
    }
  }, [open, docs, csrf]);

  // The auto-open rule: once, 5 s after load.
  useEffect(() => {
    if (!docs) return;
    const timer = setTimeout(() => {
      const visible = (button.current?.offsetParent ?? null) !== null;
      const ageDays = (Date.now() / 1000 - shell.user.createdAtUnix) / 86_400;
      if (shouldAutoOpen({ newest: docs[0], read: readIds(), triggerVisible: visible, autoOpenOff: localStorage.getItem(AUTO_OPEN_OFF_KEY) === "true", alreadyAutoOpened: autoOpenedFor(), accountAgeDays: ageDays })) {
        rememberAutoOpen(docs[0].id);
        setOpen(true);
      }
    }, AUTO_OPEN_DELAY_MS);
    return () => clearTimeout(timer);
  }, [docs, shell.user.createdAtUnix, setOpen, button]);

  const unread = (docs ?? []).some((d) => !read.has(d.id));
  return (
    <div className="tool-anchor" ref={anchor}>
      <button ref={button} type="button" className="tool-button" aria-expanded={open} aria-controls={popId} onClick={() => setOpen((o) => !o)} aria-label={unread ? "Notifications (unread)" : "Notifications"}>
        <Icon name="inbox" />
        {unread && <span className="unread-dot" aria-hidden="true" />}
      </button>
      {open && (
        <div id={popId} className="tool-popover" role="dialog" aria-label="Notifications">
          <h2 className="small">What's new</h2>
          {error && <p role="alert">{error}</p>}
          {!error && docs?.length === 0 && <p className="muted">No notifications yet.</p>}
          <ul className="notification-list">
            {(docs ?? []).map((n) => (
              <li key={n.id} className={`notification${read.has(n.id) ? "" : " notification-unread"}`}>
                {(n.largeImage ?? n.smallImage) && <img src={(n.largeImage ?? n.smallImage)!.url} alt={(n.largeImage ?? n.smallImage)!.alt} />}
                <div>
                  <h3>{n.title}</h3>
                  <p>{n.description}</p>
                  <p className="muted small">
                    <time dateTime={new Date(n.timestamp * 1000).toISOString()}>{new Date(n.timestamp * 1000).toLocaleDateString("en", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" })}</time>
                    {n.linkTo && (
                      <>
                        {" · "}
                        {n.linkTo.startsWith("/") ? (
                          <Link to={n.linkTo} onClick={() => setOpen(false)}>
                            Open
                          </Link>
                        ) : (
                          <a href={n.linkTo} target="_blank" rel="noopener noreferrer">
                            Read more
                          </a>
                        )}
                      </>
                    )}
                  </p>
                </div>
              </li>
            ))}
          </ul>
          <label className="check small">
            <input
              type="checkbox"
              checked={!autoOff}
              onChange={(e) => {
                const off = !e.currentTarget.checked;
                setAutoOff(off);
                localStorage.setItem(AUTO_OPEN_OFF_KEY, String(off));
              }}
            />
            Open by itself for important news
          </label>
        </div>
      )}
    </div>
  );
}

function Feedback() {
  const csrf = useCsrfToken();
  const [state, setState] = useState<"form" | "sending" | "thanks">("form");
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const resetTimer = useRef<ReturnType<typeof setTimeout>>();
  const stateRef = useRef(state);
  stateRef.current = state;
  // The thank-you returns to the form 60 s after the popover is closed (app-shell.md §4).
  const { open, setOpen, anchor, button } = usePopover(() => {
    if (stateRef.current === "thanks") resetTimer.current = setTimeout(() => setState("form"), FEEDBACK_RESET_MS);
  });
  const popId = useId();
  const fieldId = useId();
  useEffect(() => {
    if (open) clearTimeout(resetTimer.current);
  }, [open]);
  useEffect(() => () => clearTimeout(resetTimer.current), []);

  async function send() {
    if (!text.trim()) return setError(FEEDBACK_MESSAGES.empty);
    setError(null);
    setState("sending");
    const form = new FormData();
    form.set("csrf", csrf);
    form.set("feedback", text);
    try {
      const res = await fetch("/app/feedback", { method: "POST", body: form, headers: { accept: "application/json" } });
      await res.text(); // the answer's classification is not shown; reading it ends the request
      // Too many requests counts as sent (app-shell.md §8).
      if (res.ok || res.status === 429) {
        setText("");
        return setState("thanks");
      }
      setError(res.status === 422 ? FEEDBACK_MESSAGES.empty : FEEDBACK_MESSAGES.failed);
    } catch {
      setError(FEEDBACK_MESSAGES.failed);
    }
    setState("form");
  }

  return (
    <div className="tool-anchor" ref={anchor}>
      <button ref={button} type="button" className="tool-button" aria-expanded={open} aria-controls={popId} onClick={() => setOpen((o) => !o)}>
        Feedback
      </button>
      {open && (
        <div id={popId} className="tool-popover" role="dialog" aria-label="Feedback">
          {state === "thanks" ? (
            <p role="status">{FEEDBACK_MESSAGES.thanks}</p>
          ) : (
            <form
              className="stack-form"
              noValidate
              onSubmit={(e) => {
                e.preventDefault();
                void send();
              }}
            >
              <label htmlFor={fieldId}>What do you think of Timbre?</label>
              <textarea id={fieldId} value={text} maxLength={5000} onChange={(e) => setText(e.currentTarget.value)} aria-invalid={error ? true : undefined} aria-describedby={error ? `${fieldId}-error` : undefined} />
              {error && (
                <p className="field-error" id={`${fieldId}-error`} role="alert">
                  {error}
                </p>
              )}
              <button type="submit" className="button button-primary button-small" disabled={state === "sending"}>
                {state === "sending" ? "Sending…" : "Send feedback"}
              </button>
            </form>
          )}
        </div>
      )}
    </div>
  );
}

/** The shell's tools above every page: feedback and notifications (app-shell.md §2). */
export function ShellTools({ shell }: { shell: ShellData }) {
  return (
    <div className="shell-toolbar">
      <div className="shell-tools">
        {/* The support assistant's entry sits with the other tools, never over the page; its call card floats. */}
        <AssistantCard />
        <Feedback />
        <Notifications shell={shell} />
      </div>
    </div>
  );
}
