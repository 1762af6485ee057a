import type { ReactNode } from "react";
import type { IconName } from "../../lib/nav.js";
import { Icon } from "../Icon.js";

/**
 * An empty state: an icon, a title, a line of text and at most one clear next action, so no
 * empty list or unbuilt page is a dead end.
 */
export function EmptyState({ icon, title, children, action, headingLevel = 2, id }: {
  icon: IconName;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  headingLevel?: 2 | 3;
  id?: string;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <section className="empty-state" aria-labelledby={id}>
      <span className="empty-state-icon" aria-hidden="true">
        <Icon name={icon} />
      </span>
      <Heading id={id} className="empty-state-title">
        {title}
      </Heading>
      {children && <div className="empty-state-text">{children}</div>}
      {action && <div className="empty-state-action">{action}</div>}
    </section>
  );
}
