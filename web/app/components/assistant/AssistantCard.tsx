import { useLocation, useNavigate, useRouteLoaderData } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { ASSISTANT, SUPPORT_CALL, assistantMessages, type AssistantServerMessage } from "../../../../functions/platform/contract/assistant.js";
import { apiToken } from "../tts/client.js";
import { UtteranceRecording, micFailure } from "./microphone.js";
import { reportError } from "../../lib/report.js";
import { pageElements, runTool, type ToolHost } from "./tools.js";

type Status = "connecting" | "connected" | "disconnected";

interface SpeechRecognitionLike {
  lang: string;
  interimResults: boolean;
  onresult: ((e: { results: ArrayLike<ArrayLike<{ transcript: string }>> }) => void) | null;
  onspeechstart: (() => void) | null;
  onend: (() => void) | null;
  onerror: ((e: { error: string; message?: string }) => void) | null;
  start(): void;
  stop(): void;
}

/**
 * "Talk to El" (speech-generation.md §2 Support call card, §4 Support call): the entry button and,
 * during a call, a floating card with 'Calling assistant', the connection status and End call. The
 * user types (always) or speaks: recorded from the microphone and transcribed on the server when
 * it has a transcription server (the root loader's `speechInput`, ./microphone.ts), else the
 * browser's speech recognition where it offers one; with neither there is no Speak button. The
 * assistant's text shows in the card, its speech plays (lowered to 0.1 while the user speaks, and
 * stopped when the user speaks over it: barge-in), and its tool calls run in the page (./tools.ts).
 * `data-assistant-audio` on <html> says whether El's speech is playing, ended, or was interrupted.
 */
export function AssistantCard() {
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState<Status>("disconnected");
  const [lines, setLines] = useState<Array<{ who: "you" | "el"; text: string }>>([]);
  const [draft, setDraft] = useState("");
  const [notice, setNotice] = useState<{ text: string; link?: { href: string; label: string } } | null>(null);
  const [asking, setAsking] = useState<{ text: string; resolve: (ok: boolean) => void } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [listening, setListening] = useState(false);
  const [recording, setRecording] = useState(false);
  const mic = useRef<UtteranceRecording | null>(null);
  const socket = useRef<WebSocket | null>(null);
  const audio = useRef<{ queue: string[]; playing: HTMLAudioElement | null; volume: number }>({ queue: [], playing: null, volume: 1 });
  const navigate = useNavigate();
  const location = useLocation();
  // On AWS the call runs on its own API Gateway websocket (the root loader hands its URL over).
  const socketUrl = useRef<string | null>(null);
  const root = useRouteLoaderData<{ assistantUrl: string | null; speechInput?: boolean }>("root");
  socketUrl.current = root?.assistantUrl ?? null;
  const speechInput = root?.speechInput === true;
  const path = useRef(location.pathname);
  path.current = location.pathname;
  const recognition = useRef<SpeechRecognitionLike | null>(null);
  const noticeTimer = useRef<ReturnType<typeof setTimeout>>();

  const send = (m: unknown) => {
    if (socket.current?.readyState === WebSocket.OPEN) socket.current.send(JSON.stringify(m));
  };
  const sendContext = () => send({ type: "context", route: path.current, elements: pageElements() });

  const audioState = (s: "playing" | "ended" | "interrupted") => {
    document.documentElement.dataset.assistantAudio = s;
  };
  const stopAudio = () => {
    const a = audio.current;
    a.queue = [];
    if (a.playing) {
      a.playing.pause();
      audioState("interrupted");
    }
    a.playing = null;
  };
  const playNext = () => {
    const a = audio.current;
    if (a.playing || a.queue.length === 0) return;
    const el = new Audio(`data:audio/mpeg;base64,${a.queue.shift()}`);
    el.volume = a.volume;
    el.setAttribute("data-assistant-audio", "");
    a.playing = el;
    const next = () => {
      if (a.playing !== el) return;
      a.playing = null;
      if (a.queue.length === 0) audioState("ended");
      playNext();
    };
    el.onplaying = () => {
      if (a.playing === el) audioState("playing");
    };
    el.onended = next;
    el.onerror = next;
    void el.play().catch(next);
  };
  /** §9: the assistant's volume while the user speaks. */
  const duck = (on: boolean) => {
    audio.current.volume = on ? SUPPORT_CALL.duckedVolume : 1;
    if (audio.current.playing) audio.current.playing.volume = audio.current.volume;
    document.documentElement.dataset.assistantVolume = String(audio.current.volume);
  };

  const host: ToolHost = {
    navigate: (href) => navigate(href),
    pathname: () => path.current,
    notice: (text, ms, link) => {
      setNotice({ text, link });
      clearTimeout(noticeTimer.current);
      noticeTimer.current = setTimeout(() => setNotice(null), ms);
    },
    confirm: (text) => new Promise<boolean>((resolve) => setAsking({ text, resolve })),
  };
  const hostRef = useRef(host);
  hostRef.current = host;

  const start = useCallback(async () => {
    setOpen(true);
    setLines([]);
    setError(null);
    setStatus("connecting");
    let token: string;
    try {
      token = await apiToken();
    } catch {
      setStatus("disconnected");
      setError(assistantMessages.somethingWrong);
      return;
    }
    const url = socketUrl.current ?? `${window.location.protocol === "https:" ? "wss" : "ws"}://${window.location.host}${ASSISTANT.path}`;
    const ws = new WebSocket(url, [ASSISTANT.subprotocol, `${ASSISTANT.bearerPrefix}${token}`]);
    socket.current = ws;
    let contextTimer: ReturnType<typeof setTimeout> | undefined;
    ws.onopen = () => {
      setStatus("connected");
      // §4: the context update goes 3 s after connecting.
      contextTimer = setTimeout(sendContext, SUPPORT_CALL.contextUpdateAfterMs);
    };
    ws.onmessage = (ev) => {
      const m = JSON.parse(String(ev.data)) as AssistantServerMessage;
      if (m.type === "assistant_text") setLines((l) => [...l, { who: "el", text: m.text }]);
      else if (m.type === "transcript") setLines((l) => [...l, { who: "you", text: m.text }]);
      else if (m.type === "audio") {
        audio.current.queue.push(m.audio);
        playNext();
      } else if (m.type === "error") setError(m.message);
      else if (m.type === "tool_call") {
        void runTool(m.call, hostRef.current).then((r) => {
          send({ type: "tool_result", id: m.call.id, ...r });
          if (m.call.name === "go_to_route" && r.ok) sendContext();
        });
      }
    };
    ws.onclose = () => {
      clearTimeout(contextTimer);
      if (socket.current === ws) socket.current = null;
      mic.current?.cancel();
      mic.current = null;
      setRecording(false);
      stopAudio();
      setStatus("disconnected");
    };
  }, []);

  // §4: the card hides 2 s after disconnect.
  useEffect(() => {
    if (status !== "disconnected" || !open) return;
    const t = setTimeout(() => setOpen(false), SUPPORT_CALL.hideAfterDisconnectMs);
    return () => clearTimeout(t);
  }, [status, open]);

  useEffect(() => () => {
    mic.current?.cancel();
    socket.current?.close();
  }, []);

  const end = () => {
    recognition.current?.stop();
    mic.current?.cancel();
    mic.current = null;
    setRecording(false);
    duck(false);
    socket.current?.close(1000, "ended");
  };

  /** The user talks: the assistant's speech stops (barge-in). */
  const bargeIn = () => {
    stopAudio();
    send({ type: "interrupt" });
  };

  const ask = (text: string) => {
    const t = text.trim();
    if (!t) return;
    bargeIn();
    setLines((l) => [...l, { who: "you", text: t }]);
    send({ type: "user_text", text: t, source: "typed" });
    setDraft("");
  };

  const speechCtor = typeof window !== "undefined" ? ((window as unknown as Record<string, unknown>).SpeechRecognition ?? (window as unknown as Record<string, unknown>).webkitSpeechRecognition) : undefined;
  const listen = () => {
    if (!speechCtor || listening) return;
    const r = new (speechCtor as new () => SpeechRecognitionLike)();
    r.lang = document.documentElement.lang || "en-US";
    r.interimResults = false;
    r.onspeechstart = () => duck(true);
    r.onresult = (e) => {
      const heard = Array.from(e.results, (res) => res[0]?.transcript ?? "").join(" ").trim();
      duck(false);
      if (heard) {
        bargeIn();
        setLines((l) => [...l, { who: "you", text: heard }]);
        send({ type: "user_text", text: heard.slice(0, ASSISTANT.maxUtteranceChars), source: "speech" });
      }
    };
    r.onend = () => {
      duck(false);
      setListening(false);
    };
    // The browser's recognition failing goes to the server's log too (issue 28 §9); saying nothing is not a failure.
    r.onerror = (e) => {
      if (e.error !== "no-speech" && e.error !== "aborted") reportError(`speech recognition: ${e.error}${e.message ? ` (${e.message})` : ""}`, { fatal: false, where: "assistant", kind: "speech_recognition" });
    };
    recognition.current = r;
    setListening(true);
    r.start();
  };

  /** Speech for the server's transcription: one utterance from the microphone, sent when the user pauses. */
  const record = async () => {
    if (mic.current) {
      mic.current.stop();
      return;
    }
    if (recording) return;
    setError(null);
    setRecording(true);
    try {
      mic.current = await UtteranceRecording.start({
        onSpeech: () => {
          duck(true);
          bargeIn();
        },
        onDone: (r) => {
          mic.current = null;
          setRecording(false);
          duck(false);
          if ("error" in r) setError(r.error);
          else send({ type: "user_audio", audio: r.utterance.audio, mime: r.utterance.mime });
        },
      });
    } catch (e) {
      mic.current = null;
      setRecording(false);
      setError(micFailure(e));
    }
  };

  if (!open) {
    return (
      <button type="button" className="assistant-entry tool-button" onClick={() => void start()}>
        Talk to El
      </button>
    );
  }
  return (
    <section className="assistant-card card" data-assistant-card aria-label={assistantMessages.title} role="dialog">
      <header className="assistant-card-head">
        <strong>{assistantMessages.title}</strong>
        <span className="assistant-status" role="status" data-status={status}>
          {status === "connecting" ? "connecting…" : status === "connected" ? assistantMessages.connected : assistantMessages.disconnected}
        </span>
      </header>
      <ol className="assistant-lines" aria-label="Conversation" aria-live="polite">
        {lines.map((l, i) => (
          <li key={i} data-who={l.who}>
            <span className="visually-hidden">{l.who === "el" ? "El: " : "You: "}</span>
            {l.text}
          </li>
        ))}
      </ol>
      {notice && (
        <p className="assistant-notice" role="status" data-assistant-notice>
          {notice.text} {notice.link && <a href={notice.link.href}>{notice.link.label}</a>}
        </p>
      )}
      {asking && (
        <div className="assistant-confirm" role="alertdialog" aria-label="Confirm a paid action">
          <p>{asking.text}</p>
          <button type="button" className="button" onClick={() => (asking.resolve(true), setAsking(null))}>
            Go ahead
          </button>
          <button type="button" className="button" onClick={() => (asking.resolve(false), setAsking(null))}>
            Cancel
          </button>
        </div>
      )}
      {error && (
        <p className="assistant-error" role="alert">
          {error}
        </p>
      )}
      <form
        className="assistant-ask"
        onSubmit={(e) => {
          e.preventDefault();
          ask(draft);
        }}
      >
        <input
          aria-label="Ask the assistant"
          value={draft}
          maxLength={ASSISTANT.maxUtteranceChars}
          disabled={status !== "connected"}
          onChange={(e) => {
            setDraft(e.target.value);
            duck(e.target.value.length > 0);
          }}
          onBlur={() => duck(false)}
        />
        <button type="submit" className="button" disabled={status !== "connected"}>
          Send
        </button>
        {speechInput ? (
          <button type="button" className="button" aria-pressed={recording} disabled={status !== "connected"} onClick={() => void record()}>
            {recording ? "Stop" : "Speak"}
          </button>
        ) : speechCtor ? (
          <button type="button" className="button" aria-pressed={listening} disabled={status !== "connected"} onClick={listen}>
            Speak
          </button>
        ) : null}
      </form>
      <button type="button" className="button button-danger" onClick={end}>
        {assistantMessages.endCall}
      </button>
    </section>
  );
}
