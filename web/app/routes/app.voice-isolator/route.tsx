import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Page } from "../../components/Page.js";
import { VoiceIsolator } from "../../components/isolator/VoiceIsolator.js";
import { requireAuth } from "../../lib/session.server.js";
import stsStyles from "../../styles/sts.css?url";

export const meta: MetaFunction = () => [{ title: "Voice Isolator · Timbre" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: stsStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAuth(request, context);
  return null;
}

export default function VoiceIsolatorRoute() {
  return (
    <Page title="Voice Isolator" description="Remove background noise from speech." requiredPermission="voice_isolator">
      <VoiceIsolator />
    </Page>
  );
}
