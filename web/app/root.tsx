import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import "./load-context.js";
import styles from "./styles/app.css?url";
import { csrfForBrowser } from "./lib/csrf.server.js";
import { themeFromCookie } from "./lib/theme.js";
import { PINNED_SIDEBAR_SCRIPT } from "./lib/persist.js";
import { RouteErrorScreen } from "./components/ErrorScreen.js";
import { useNonce } from "./lib/nonce.js";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [{ title: "Timbre" }, { name: "description", content: "Timbre, a self-hosted AI voice platform" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token, setCookie } = await csrfForBrowser(request, context);
  const payload = { csrf: token, theme: themeFromCookie(request.headers.get("cookie")) };
  return data(payload, setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined);
}

// The token and theme do not change while the page is open.
export const shouldRevalidate = () => false;

export function Layout({ children }: { children: ReactNode }) {
  const root = useRouteLoaderData<typeof loader>("root");
  const theme = root?.theme ?? "light";
  const nonce = useNonce();
  return (
    <html lang="en" data-theme={theme} style={{ colorScheme: theme }}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: PINNED_SIDEBAR_SCRIPT }} />
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
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  return (
    <main id="main" className="page page-narrow">
      <RouteErrorScreen error={error} where="root" onRetry={() => window.location.reload()} />
    </main>
  );
}
