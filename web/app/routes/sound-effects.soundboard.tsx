import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { NotAvailable } from "../components/NotAvailable.js";

export const meta: MetaFunction = () => [{ title: "Soundboard · Timbre" }];

/** The soundboard lives outside /app (app-shell.md §2); the feature is not built yet. */
export default function Soundboard() {
  return (
    <main id="main" className="page page-narrow">
      <h1>Soundboard</h1>
      <p className="page-description">Play generated sound effects from a grid of pads.</p>
      <NotAvailable feature="The Soundboard" />
      <p>
        <Link to="/app" className="back-link">Back to Timbre</Link>
      </p>
    </main>
  );
}
