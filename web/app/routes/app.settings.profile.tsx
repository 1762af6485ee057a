import type { MetaFunction } from "@remix-run/node";
import { Page } from "../components/Page.js";
import { useShell } from "../lib/shell.js";

export const meta: MetaFunction = () => [{ title: "Profile · Timbre" }];

export default function Profile() {
  const shell = useShell();
  if (!shell) return null;
  return (
    <Page title="Profile" description="Your account on this server.">
      <dl className="details">
        <dt>Name</dt>
        <dd>{shell.user.displayName ?? "Not set"}</dd>
        <dt>Email</dt>
        <dd>{shell.user.email}</dd>
        <dt>Workspace</dt>
        <dd>{shell.workspace.name}</dd>
        <dt>Role</dt>
        <dd>{shell.workspace.isAdmin ? "Workspace admin" : "Workspace member"}</dd>
        <dt>User ID</dt>
        <dd>
          <code>{shell.user.id}</code>
        </dd>
      </dl>
      <p className="muted">Changing your name, email or password is not available yet.</p>
    </Page>
  );
}
