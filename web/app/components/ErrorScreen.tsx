import { isRouteErrorResponse, Link } from "@remix-run/react";
import { useEffect } from "react";
import { reportError } from "../lib/report.js";

export const ERROR_TITLE = "Oops, something went wrong!";

/** The crash screen (app-shell.md §2): reports the error as fatal and offers a reset. */
export function ErrorScreen({ error, where, onRetry }: { error: unknown; where: string; onRetry: () => void }) {
  useEffect(() => reportError(error, { fatal: true, where }), [error, where]);
  return (
    <section className="error-screen" role="alert" aria-labelledby="error-title">
      <h1 id="error-title">{ERROR_TITLE}</h1>
      <p>A client-side error occurred. Please click “Try again” to reload this page.</p>
      <button type="button" className="button button-primary" onClick={onRetry}>
        Try again
      </button>
    </section>
  );
}

function messageOf(data: unknown): string | undefined {
  if (data && typeof data === "object" && "message" in data && typeof data.message === "string") return data.message;
  return undefined;
}

/** One screen per kind of route error: not found, forbidden, else the crash screen. */
export function RouteErrorScreen({ error, where, onRetry }: { error: unknown; where: string; onRetry: () => void }) {
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <section className="error-screen" aria-labelledby="error-title">
        <h1 id="error-title">Page not found</h1>
        <p>There is nothing at this address.</p>
        <Link className="button" to="/app">
          Go to Home
        </Link>
      </section>
    );
  }
  if (isRouteErrorResponse(error) && error.status === 403) {
    return (
      <section className="error-screen" role="alert" aria-labelledby="error-title">
        <h1 id="error-title">Access denied</h1>
        <p>{messageOf(error.data) ?? "You do not have access to this page."}</p>
        <button type="button" className="button" onClick={onRetry}>
          Try again
        </button>
      </section>
    );
  }
  return <ErrorScreen error={error} where={where} onRetry={onRetry} />;
}
