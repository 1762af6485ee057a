import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import "./load-context.js";
import styles from "./styles/app.css?url";
import workspaceStyles from "./styles/workspace.css?url";
import { csrfForBrowser } from "./lib/csrf.server.js";
import { themeFromCookie } from "./lib/theme.js";
import { pinnedFromCookie } from "./lib/persist.js";
import { RouteErrorScreen } from "./components/ErrorScreen.js";
import { useNonce } from "./lib/nonce.js";
import { reportUncaught } from "./lib/report.js";
import { ToastProvider } from "./components/ui/Toast.js";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "stylesheet", href: workspaceStyles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [{ title: "Timbre" }, { name: "description", content: "Timbre, a self-hosted AI voice platform" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token, setCookie } = await csrfForBrowser(request, context);
  const cookie = request.headers.get("cookie");
  // The recorder's live reading websocket: on AWS an API Gateway URL, otherwise this origin (null).
  const payload = { csrf: token, theme: themeFromCookie(cookie), sidebarPinned: pinnedFromCookie(cookie), liveReadingUrl: context.liveReadingUrl ?? null, assistantUrl: context.assistantUrl ?? null, speechInput: context.speechInput === true, recordingBackupMs: context.recordingBackupMs ?? null };
  return data(payload, setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined);
}

// The token and theme do not change while the page is open.
export const shouldRevalidate = () => false;

export function Layout({ children }: { children: ReactNode }) {
  const root = useRouteLoaderData<typeof loader>("root");
  const theme = root?.theme ?? "light";
  const nonce = useNonce();
  return (
    <html lang="en" data-theme={theme} data-sidebar-pinned={root?.sidebarPinned ? "true" : undefined} style={{ colorScheme: theme }}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  // Marks the page interactive (browser tests wait for it before using forms).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  // Errors nothing caught go to the server's log too (lib/report.ts).
  useEffect(() => reportUncaught(), []);
  return (
    <ToastProvider>
      <Outlet />
    </ToastProvider>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  return (
    <main id="main" className="page page-narrow">
      <RouteErrorScreen error={error} where="root" onRetry={() => window.location.reload()} />
    </main>
  );
}
