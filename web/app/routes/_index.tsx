import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useEffect, useId, useRef, useState } from "react";
import { z } from "zod";
import { api } from "../lib/api.server.js";
import { getAuth } from "../lib/session.server.js";
import { legalPath } from "../lib/links.js";
import { useCsrfToken } from "../components/Csrf.js";
import { AudioPlayer } from "../components/audio/AudioPlayer.js";
import { countCharacters } from "../lib/characters.js";
import { landingText, landingView, type LandingProblem } from "../components/landing/landing.js";

export const meta: MetaFunction = () => [
  { title: "Timbre · AI voices on your own servers" },
  { name: "description", content: "Text to speech, voice changing, voice design and voice cloning you host yourself." },
];

const LandingVoices = z.object({
  max_characters: z.number(),
  requests_per_visitor: z.number(),
  voices: z.array(z.object({ voice_id: z.string(), name: z.string(), description: z.string().nullable(), preview_path: z.string().nullable() })),
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (await getAuth(request, context)) throw redirect("/app");
  const landing = await api(context, request).call("/v1/landing/voices", { schema: LandingVoices });
  return { ...landing, signupEnabled: context.signupEnabled };
}

const FEATURES: Array<{ title: string; text: string }> = [
  { title: "Text to speech and dialogue", text: "Write a script or a conversation between several voices, and listen as it streams." },
  { title: "Voice changer", text: "Turn a recording into another voice, keeping its timing and delivery." },
  { title: "Voice design", text: "Describe a voice in a sentence and choose from the voices Timbre designs for you." },
  { title: "Voice cloning", text: "Clone a voice from a short sample, or train a professional clone on hours of audio." },
  { title: "Pronunciation dictionaries", text: "Teach the engine how to say names, brands and terms, once for every project." },
  { title: "Teams and API", text: "Workspaces with groups, permissions, credit quotas, API keys and webhooks, on an API your tools already speak." },
];

export default function Landing() {
  const data = useLoaderData<typeof loader>();
  const csrf = useCsrfToken();
  const [text, setText] = useState(landingText.sample);
  const [voiceId, setVoiceId] = useState(data.voices[0]?.voice_id ?? "");
  const [busy, setBusy] = useState(false);
  const [audioUrl, setAudioUrl] = useState<string | null>(null);
  const [left, setLeft] = useState<number | null>(null);
  const [problem, setProblem] = useState<LandingProblem | null>(null);
  const textId = useId();
  const counterId = useId();
  const prompt = useRef<HTMLDivElement>(null);
  const count = countCharacters(text);
  const over = count > data.max_characters;

  useEffect(() => () => void (audioUrl && URL.revokeObjectURL(audioUrl)), [audioUrl]);
  useEffect(() => {
    if (problem?.kind === "limit") prompt.current?.focus();
  }, [problem]);

  const generate = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const res = await fetch("/landing/speech", { method: "POST", body: new URLSearchParams({ csrf, text, voice_id: voiceId }) });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { detail?: { status?: string; message?: string }; message?: string } | null;
        setProblem(landingView(res.status, body));
        return;
      }
      const blob = await res.blob();
      const n = Number(res.headers.get("x-landing-requests-left"));
      if (Number.isFinite(n)) setLeft(n);
      setAudioUrl(URL.createObjectURL(blob));
    } catch {
      // The spec: a logged-out network error is the sign-up prompt about the landing page's limit.
      setProblem(landingView(0, null));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="landing">
      <header className="landing-header">
        <Link to="/" className="landing-brand">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span>Timbre</span>
        </Link>
        <nav aria-label="Account" className="landing-nav">
          <Link to="/sign-in" className="button">
            Sign in
          </Link>
          {data.signupEnabled && (
            <Link to="/sign-up" className="button button-primary">
              Sign up
            </Link>
          )}
        </nav>
      </header>
      <main id="main" className="landing-main">
        <section className="landing-hero" aria-labelledby="landing-title">
          <h1 id="landing-title">AI voices on your own servers</h1>
          <p className="landing-lead">
            Timbre turns text into lifelike speech, changes one voice into another, designs and clones voices, and runs wherever you run it. Try a voice below, no account needed.
          </p>
        </section>

        <section className="landing-try" aria-labelledby="landing-try-title">
          <h2 id="landing-try-title">Try text to speech</h2>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (!busy && !over && text.trim()) void generate();
            }}
          >
            <label htmlFor={textId} className="field-label">
              Text
            </label>
            <textarea
              id={textId}
              className="landing-text"
              value={text}
              onChange={(e) => setText(e.target.value)}
              rows={4}
              aria-describedby={counterId}
              aria-invalid={over || undefined}
            />
            <p id={counterId} className={over ? "landing-counter landing-counter-over" : "landing-counter"}>
              {count} / {data.max_characters} characters{over ? ` · ${landingText.tooLong(data.max_characters)}` : ""}
            </p>
            <fieldset className="landing-voices">
              <legend>Voice</legend>
              {data.voices.map((v) => (
                <label key={v.voice_id} className="landing-voice">
                  <input type="radio" name="voice_id" value={v.voice_id} checked={voiceId === v.voice_id} onChange={() => setVoiceId(v.voice_id)} />
                  <span className="landing-voice-name">{v.name}</span>
                  {v.description && <span className="landing-voice-description">{v.description}</span>}
                </label>
              ))}
            </fieldset>
            <div className="landing-actions">
              <button type="submit" className="button button-primary" disabled={busy || over || !text.trim()} aria-busy={busy || undefined}>
                {busy ? "Generating…" : "Generate speech"}
              </button>
              {left !== null && <span className="landing-left">{landingText.left(left)}</span>}
            </div>
          </form>
          {problem?.kind === "message" && (
            <p role="alert" className="form-error">
              {problem.message}
            </p>
          )}
          {problem?.kind === "limit" && (
            <div ref={prompt} tabIndex={-1} role="alert" className="landing-prompt">
              <p>{problem.message}</p>
              <div className="landing-actions">
                {data.signupEnabled && (
                  <Link to="/sign-up" className="button button-primary">
                    Sign up for free
                  </Link>
                )}
                <Link to="/sign-in" className="button">
                  Sign in
                </Link>
              </div>
            </div>
          )}
          {audioUrl && (
            <div className="landing-result" data-testid="landing-result">
              <AudioPlayer label="Generated speech" src={audioUrl} autoPlay />
            </div>
          )}
        </section>

        <section className="landing-features" aria-labelledby="landing-features-title">
          <h2 id="landing-features-title">Everything a voice studio needs</h2>
          <ul>
            {FEATURES.map((f) => (
              <li key={f.title}>
                <h3>{f.title}</h3>
                <p>{f.text}</p>
              </li>
            ))}
          </ul>
        </section>
      </main>
      <footer className="landing-footer">
        <Link to={legalPath("terms")}>Terms of Service</Link>
        <Link to={legalPath("privacy")}>Privacy Policy</Link>
        <Link to="/sign-in">Sign in</Link>
      </footer>
    </div>
  );
}
