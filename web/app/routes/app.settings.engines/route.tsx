import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { z } from "zod";
import { CsrfInput } from "../../components/Csrf.js";
import { ConfirmFormDialog } from "../../components/ConfirmFormDialog.js";
import { FormError } from "../../components/Field.js";
import { Page } from "../../components/Page.js";
import { EmptyState } from "../../components/ui/EmptyState.js";
import { useToast } from "../../components/ui/Toast.js";
import { formatDate } from "../../lib/format.js";
import { getShell } from "../../lib/shell.server.js";
import { refusal, v1, v1Form, type ActionFailure } from "../../lib/v1.server.js";
import { engines, type Engine } from "./engines.server.js";

export const meta: MetaFunction = () => [{ title: "Speech engines · Timbre" }];

const KINDS: Array<{ id: Engine["kind"]; label: string; hint: string }> = [
  { id: "openai", label: "OpenAI-compatible", hint: "Kokoro-FastAPI, speaches, openedai-speech and the like: POST /v1/audio/speech, voices from /v1/audio/voices." },
  { id: "elevenlabs", label: "ElevenLabs-compatible", hint: "Another Timbre, or the hosted ElevenLabs API with your key: voices from /v1/voices, speech asked as raw PCM." },
  { id: "xtts", label: "Reference audio (XTTS)", hint: "An XTTS streaming server: the workspace's cloned voices speak through it, one of their samples sent as the reference." },
];
const kindLabel = (k: Engine["kind"]) => KINDS.find((x) => x.id === k)?.label ?? k;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { shell } = await getShell(request, context);
  if (!shell.workspace.isAdmin) throw data({ message: "Only workspace administrators can manage speech engines." }, { status: 403 });
  const { client } = await v1(request, context);
  return { engines: await engines(client).list() };
}

type ActionResult = ActionFailure | { ok: true; intent: string; message: string; warning?: string | null };

const AddSchema = z.object({
  engine_id: z
    .string()
    .trim()
    .min(1, "Please give the engine a name")
    .max(32, "The name is at most 32 characters")
    .regex(/^[a-z0-9][a-z0-9_-]*$/, "The name is lowercase letters, digits, - and _ (e.g. kokoro)"),
  kind: z.enum(["openai", "elevenlabs", "xtts"]),
  url: z
    .string()
    .trim()
    .min(1, "Please enter the server's URL")
    .max(2048)
    .refine((u) => {
      try {
        return ["http:", "https:"].includes(new URL(u).protocol);
      } catch {
        return false;
      }
    }, "Enter the server's full http:// or https:// URL, e.g. https://tts.example.com"),
  key: z.string().max(512),
  model: z.string().trim().max(100),
  language: z.string().trim().max(16),
  first_byte_timeout_s: seconds(1, 60, "The first-byte timeout"),
  total_timeout_s: seconds(5, 600, "The total timeout"),
});

/** A timeout field: empty (the default) or whole seconds within the API's bounds. */
function seconds(min: number, max: number, what: string) {
  return z
    .string()
    .trim()
    .refine((v) => v === "" || (/^\d+$/.test(v) && Number(v) >= min && Number(v) <= max), `${what} is a whole number of seconds from ${min} to ${max}`)
    .transform((v) => (v === "" ? null : Number(v)));
}
const TimeoutsSchema = z.object({ first_byte_timeout_s: seconds(1, 60, "The first-byte timeout"), total_timeout_s: seconds(5, 600, "The total timeout") });

export async function action({ request, context }: ActionFunctionArgs) {
  const { client, form } = await v1Form(request, context);
  const api = engines(client);
  const intent = String(form.get("intent") ?? "");
  const id = String(form.get("engine_id") ?? "");
  try {
    switch (intent) {
      case "add": {
        const p = AddSchema.safeParse(Object.fromEntries(["engine_id", "kind", "url", "key", "model", "language", "first_byte_timeout_s", "total_timeout_s"].map((k) => [k, String(form.get(k) ?? "")])));
        if (!p.success) {
          const issue = p.error.issues[0];
          return data<ActionFailure>({ ok: false, intent, error: issue.message, fields: { [String(issue.path[0])]: issue.message } }, { status: 400 });
        }
        const e = await api.add({ ...p.data, key: p.data.key || null, model: p.data.model || null, language: p.data.language || null });
        const n = e.voice_ids?.length ?? 0;
        const message = e.kind === "xtts" ? `${e.engine_id} added: the workspace's cloned voices now speak through it.` : `${e.engine_id} added with ${n} voice${n === 1 ? "" : "s"}.`;
        return { ok: true, intent, message, warning: e.voices_error ?? null } satisfies ActionResult;
      }
      case "timeouts": {
        const p = TimeoutsSchema.safeParse({ first_byte_timeout_s: String(form.get("first_byte_timeout_s") ?? ""), total_timeout_s: String(form.get("total_timeout_s") ?? "") });
        if (!p.success) return data<ActionFailure>({ ok: false, intent, error: p.error.issues[0].message }, { status: 400 });
        const e = await api.timeouts(id, { first_byte_timeout_s: p.data.first_byte_timeout_s ?? 15, total_timeout_s: p.data.total_timeout_s ?? 120 });
        return { ok: true, intent, message: `${id} now waits ${e.first_byte_timeout_s} s for the first audio and ${e.total_timeout_s} s in all.` } satisfies ActionResult;
      }
      case "probe": {
        const r = await api.probe(id);
        const p = r.probe;
        const message = p?.ok ? `${id} answers${r.kind === "xtts" ? "" : ` (${r.voice_ids?.length ?? 0} voices)`}.` : `${id} does not answer: ${p?.error === "remote_engine_unauthorized" ? "it refused the key" : p?.error === "remote_engine_timeout" ? "no answer in time" : p?.error === "remote_engine_address_refused" ? "its address is refused" : p?.status ? `HTTP ${p.status}` : "it could not be reached"}.`;
        return p?.ok ? ({ ok: true, intent, message } satisfies ActionResult) : data<ActionFailure>({ ok: false, intent, error: message }, { status: 200 });
      }
      case "remove":
        await api.remove(id);
        return { ok: true, intent, message: `${id} removed, with its voices.` } satisfies ActionResult;
      default:
        return data<ActionFailure>({ ok: false, intent, error: "Unknown action." }, { status: 400 });
    }
  } catch (e) {
    return refusal(e, intent);
  }
}

function stateBadge(e: Engine): { label: string; cls: string } {
  switch (e.state?.state) {
    case "open":
      return { label: "Paused after failures", cls: "badge state-failed" };
    case "failing":
      return { label: "Failing", cls: "badge state-failed" };
    default:
      return { label: "Ready", cls: "badge badge-accent" };
  }
}

function EngineCard({ e, onRemove }: { e: Engine; onRemove: (e: Engine) => void }) {
  const s = stateBadge(e);
  const testing = useNavigation().formData;
  const busy = testing?.get("intent") === "probe" && testing.get("engine_id") === e.engine_id;
  return (
    <li className="card webhook-card" data-testid={`engine-${e.engine_id}`}>
      <div className="card-header">
        <h3>
          {e.engine_id} <span className={s.cls}>{s.label}</span>
        </h3>
        <div className="webhook-actions">
          <Form method="post">
            <CsrfInput />
            <input type="hidden" name="intent" value="probe" />
            <input type="hidden" name="engine_id" value={e.engine_id} />
            <button type="submit" className="button button-small" disabled={busy}>
              {busy ? "Testing…" : "Test connection"}
            </button>
          </Form>
          <button type="button" className="button button-small button-danger-outline" onClick={() => onRemove(e)} aria-label={`Remove ${e.engine_id}`}>
            Remove
          </button>
        </div>
      </div>
      <p className="webhook-url">{e.url}</p>
      <p className="muted small">
        {kindLabel(e.kind)} · Model {e.model} · Language {e.language} · {e.key_hint ? `Key ${e.key_hint}` : "No key"} · Timeouts {e.first_byte_timeout_s} s first audio, {e.total_timeout_s} s in all · Added {formatDate(e.created_at_unix)}
        {e.state?.last_error && ` · Last error: ${e.state.last_error}`}
      </p>
      <details className="engine-timeouts">
        <summary>Change timeouts</summary>
        <Form method="post" className="row-form" noValidate>
          <CsrfInput />
          <input type="hidden" name="intent" value="timeouts" />
          <input type="hidden" name="engine_id" value={e.engine_id} />
          <div className="field">
            <label htmlFor={`first-${e.engine_id}`}>First audio within (s)</label>
            <input id={`first-${e.engine_id}`} name="first_byte_timeout_s" type="number" inputMode="numeric" min={1} max={60} defaultValue={e.first_byte_timeout_s} />
          </div>
          <div className="field">
            <label htmlFor={`total-${e.engine_id}`}>Whole answer within (s)</label>
            <input id={`total-${e.engine_id}`} name="total_timeout_s" type="number" inputMode="numeric" min={5} max={600} defaultValue={e.total_timeout_s} />
          </div>
          <button type="submit" className="button button-small">
            Save timeouts
          </button>
        </Form>
      </details>
    </li>
  );
}

/** A workspace's own remote speech engines (issue 25 §3), for its administrators. */
export default function SpeechEngines() {
  const { engines: list } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const busy = useNavigation().formData?.get("intent") === "add";
  const toast = useToast();
  const [removing, setRemoving] = useState<Engine | null>(null);
  const [kind, setKind] = useState<Engine["kind"]>("openai");
  useEffect(() => {
    if (!result) return;
    if (result.ok) {
      toast.show({ message: result.message, kind: "success" });
      if (result.warning) toast.show({ message: result.warning, kind: "error" });
    } else if (result.intent !== "add") toast.show({ message: result.error, kind: "error" });
  }, [result, toast]);
  const addFailure = result && !result.ok && result.intent === "add" ? result.error : null;
  const field = (name: string) => (result && !result.ok && result.intent === "add" ? result.fields?.[name] : undefined);

  return (
    <Page title="Speech engines" description="Speech servers of your own that the workspace speaks through: their voices appear in the workspace's voice list and are charged and kept in history like any other.">
      <section className="card" aria-labelledby="new-engine-title">
        <h2 id="new-engine-title">Add an engine</h2>
        <Form method="post" className="stack-form" noValidate>
          <CsrfInput />
          <input type="hidden" name="intent" value="add" />
          <div className="row-form">
            <div className="field">
              <label htmlFor="engine-id">Name</label>
              <input id="engine-id" name="engine_id" maxLength={32} placeholder="e.g. kokoro" aria-invalid={field("engine_id") ? true : undefined} autoCapitalize="none" />
            </div>
            <div className="field">
              <label htmlFor="engine-kind">Kind</label>
              <select id="engine-kind" name="kind" value={kind} onChange={(ev) => setKind(ev.currentTarget.value as Engine["kind"])} aria-describedby="engine-kind-hint">
                {KINDS.map((k) => (
                  <option key={k.id} value={k.id}>
                    {k.label}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <p className="field-hint" id="engine-kind-hint">
            {KINDS.find((k) => k.id === kind)?.hint}
          </p>
          <div className="field">
            <label htmlFor="engine-url">URL</label>
            <input id="engine-url" name="url" type="url" inputMode="url" placeholder="https://tts.example.com" aria-describedby="engine-url-hint" aria-invalid={field("url") ? true : undefined} />
            <p className="field-hint" id="engine-url-hint">
              The server's address without /v1. Private, loopback and link-local addresses are refused, as for webhooks.
            </p>
          </div>
          <div className="field">
            <label htmlFor="engine-key">API key (optional)</label>
            <input id="engine-key" name="key" type="password" autoComplete="off" maxLength={512} aria-describedby="engine-key-hint" />
            <p className="field-hint" id="engine-key-hint">
              Stored encrypted and never shown again: only its last four characters are.
            </p>
          </div>
          <div className="row-form">
            <div className="field">
              <label htmlFor="engine-model">Model (optional)</label>
              <input id="engine-model" name="model" maxLength={100} placeholder={kind === "elevenlabs" ? "eleven_multilingual_v2" : kind === "xtts" ? "xtts_v2" : "tts-1"} />
            </div>
            <div className="field">
              <label htmlFor="engine-language">Language (optional)</label>
              <input id="engine-language" name="language" maxLength={16} placeholder="en" />
            </div>
          </div>
          <div className="row-form">
            <div className="field">
              <label htmlFor="engine-first-byte">First audio within (s, optional)</label>
              <input id="engine-first-byte" name="first_byte_timeout_s" type="number" inputMode="numeric" min={1} max={60} placeholder="15" aria-describedby="engine-timeouts-hint" aria-invalid={field("first_byte_timeout_s") ? true : undefined} />
            </div>
            <div className="field">
              <label htmlFor="engine-total">Whole answer within (s, optional)</label>
              <input id="engine-total" name="total_timeout_s" type="number" inputMode="numeric" min={5} max={600} placeholder="120" aria-describedby="engine-timeouts-hint" aria-invalid={field("total_timeout_s") ? true : undefined} />
            </div>
          </div>
          <p className="field-hint" id="engine-timeouts-hint">
            A request that gets no audio in the first time, or is not finished in the second, fails with a timeout and is refunded: 1-60 s and 5-600 s.
          </p>
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? "Adding…" : "Add engine"}
          </button>
          <FormError id="engine-error" message={addFailure} />
        </Form>
      </section>

      <section aria-labelledby="engines-title">
        <h2 id="engines-title">Workspace engines</h2>
        <p className="muted small" data-testid="engines-scope">
          Their voices speak in text to speech, dialogue and voice previews, and ElevenLabs-compatible engines also convert speech to speech. The support assistant always speaks with Timbre's built-in voice.
        </p>
        {list.length === 0 ? (
          <EmptyState icon="plug" title="No engines" headingLevel={3} id="engines-empty">
            <p>Add one above: its voices appear in the workspace's voice list.</p>
          </EmptyState>
        ) : (
          <ul className="card-list">
            {list.map((e) => (
              <EngineCard key={e.engine_id} e={e} onRemove={setRemoving} />
            ))}
          </ul>
        )}
      </section>

      {removing && (
        <ConfirmFormDialog title="Remove engine" intent="remove" fields={{ engine_id: removing.engine_id }} confirmLabel="Remove" onClose={() => setRemoving(null)}>
          <p>Remove “{removing.engine_id}”? Its voices leave the workspace's voice list at once.</p>
        </ConfirmFormDialog>
      )}
    </Page>
  );
}
