import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { useState } from "react";

/**
 * A diagnostics page that crashes on purpose, to check the error screen end to end. It exists
 * only for local development (loopback browser, no secure cookies); elsewhere it is a 404.
 */
const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

export function loader({ context }: LoaderFunctionArgs) {
  if (context.secureCookies || !LOOPBACK.has(context.clientIp)) throw data({ message: "Page not found" }, { status: 404 });
  return null;
}

export default function CrashPage() {
  const [crash, setCrash] = useState(false);
  if (crash) throw new Error("Deliberate client-side crash from /app/dev/crash");
  return (
    <div className="page">
      <h1>Error screen check</h1>
      <p>This local-only page throws while rendering when you press the button.</p>
      <button type="button" className="button" onClick={() => setCrash(true)}>
        Crash this page
      </button>
    </div>
  );
}
