import type { ReactNode } from "react";

/** The honest state of a page whose feature is not built yet: no placeholder content. */
export function NotAvailable({ feature, children }: { feature: string; children?: ReactNode }) {
  return (
    <section className="empty-state" aria-labelledby="not-available-title">
      <h2 id="not-available-title">Not available yet</h2>
      <p>{feature} is not available in Timbre yet. Nothing on this page is simulated; it will work once the feature is built.</p>
      {children}
    </section>
  );
}
