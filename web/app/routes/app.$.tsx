import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { NotAvailable } from "../components/NotAvailable.js";
import { Page } from "../components/Page.js";
import { isVisible } from "../lib/nav.js";
import { findProductPage, PRODUCT_PAGES } from "../lib/pages.js";
import { getShell } from "../lib/shell.server.js";
import { navContext, useShell } from "../lib/shell.js";
import { api } from "../lib/api.server.js";
import { VoicesPageWire } from "../lib/tts-wire.js";
import { voiceDisplayName } from "../lib/tts-voices.js";

/** A voice asked for in Text to Speech that is not among the user's voices: say so, and offer theirs. */
function MissingVoice({ voiceId, voices }: { voiceId: string; voices: Array<{ voice_id: string; name: string }> }) {
  return (
    <section className="card callout" aria-labelledby="missing-voice-title" data-testid="missing-voice">
      <h2 id="missing-voice-title">That voice is not one of yours</h2>
      <p>
        The voice <code>{voiceId}</code> is not among the voices you can use, so Text to Speech sent you here. Adding voices from the library is not available
        yet; choose one of your voices instead:
      </p>
      <ul className="voice-chips">
        {voices.map((v) => (
          <li key={v.voice_id}>
            <Link className="chip" to={`/app/speech-synthesis/text-to-speech?voice_id=${encodeURIComponent(v.voice_id)}`}>
              {voiceDisplayName(v.name)}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * Every product page in the navigation whose feature is not built yet (lib/pages.ts). The voice
 * library, opened with a voice that is not the user's (?voiceId, from Text to Speech), also
 * lists the user's own voices, so that link does not end on an empty page.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { auth, shell } = await getShell(request, context);
  const url = new URL(request.url);
  const page = findProductPage(url.pathname, navContext(shell));
  if (!page) throw data({ message: "Page not found" }, { status: 404 });
  const voiceId = page.id === "voice-library" ? url.searchParams.get("voiceId") : null;
  const voices = voiceId
    ? await api(context, request, auth)
        .call("/v2/voices?page_size=12&sort=name&sort_direction=asc", { schema: VoicesPageWire })
        .then((r) => r.voices.map((v) => ({ voice_id: v.voice_id, name: v.name })))
        .catch(() => [])
    : null;
  return { pageId: page.id, title: page.title, missingVoiceId: voiceId, voices };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.title} · Timbre` : "Timbre" }];

export default function ProductPage() {
  const { pageId, missingVoiceId, voices } = useLoaderData<typeof loader>();
  const shell = useShell();
  const page = PRODUCT_PAGES.find((p) => p.id === pageId);
  if (!page || !shell) return null;
  const ctx = navContext(shell);
  return (
    <Page title={page.title} description={page.description} requiredPermission={page.permission} tabs={page.tabs?.filter((t) => isVisible(t.when, ctx))}>
      {missingVoiceId && voices && <MissingVoice voiceId={missingVoiceId} voices={voices} />}
      <NotAvailable feature={page.title}>{page.alternative && <p>{page.alternative}</p>}</NotAvailable>
    </Page>
  );
}
