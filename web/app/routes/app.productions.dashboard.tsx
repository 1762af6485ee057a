import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { Page } from "../components/Page.js";
import { requireProducerPage } from "../components/productions/productions.server.js";
import { v1 } from "../lib/v1.server.js";

export const meta: MetaFunction = () => [{ title: "My Teams · Timbre" }];

const Teams = z.object({
  is_team_leader: z.boolean(),
  teams: z.array(
    z.object({
      team_id: z.string(),
      name: z.string(),
      role: z.enum(["owner", "leader", "member"]),
      is_leader: z.boolean(),
      members: z.array(z.object({ user_id: z.string(), email: z.string(), role: z.enum(["owner", "leader", "member"]), active: z.number(), decided: z.number() })).nullable(),
    }),
  ),
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  const shell = await requireProducerPage(request, context);
  if (shell.flags["producer-teams"] !== true) throw data({ message: "Page not found" }, { status: 404 });
  const { client } = await v1(request, context);
  return client.call("/v1/productions/teams/@me", { schema: Teams });
}

const ROLE = { owner: "Owner", leader: "Leader", member: "Member" } as const;

/** My Teams (app-shell.md §2, behind its flag): each team with my role; leaders and owners see the members' workload. */
export default function MyTeams() {
  const { teams } = useLoaderData<typeof loader>();
  return (
    <Page title="My Teams" description="The producer teams you belong to. Team leaders and owners see their members' work.">
      {teams.length === 0 ? (
        <p className="muted">You are not in a team yet. An administrator of this server adds producers to teams.</p>
      ) : (
        teams.map((t) => (
          <section key={t.team_id} className="card" aria-labelledby={`team-${t.team_id}`}>
            <h2 id={`team-${t.team_id}`}>
              {t.name} <span className="badge">{ROLE[t.role]}</span>
            </h2>
            {t.members ? (
              <table className="table table-responsive">
                <thead>
                  <tr>
                    <th scope="col">Producer</th>
                    <th scope="col">Role</th>
                    <th scope="col">Active</th>
                    <th scope="col">Reviewed</th>
                  </tr>
                </thead>
                <tbody>
                  {t.members.map((m) => (
                    <tr key={m.user_id}>
                      <td data-label="Producer">{m.email}</td>
                      <td data-label="Role">{ROLE[m.role]}</td>
                      <td data-label="Active">{m.active}</td>
                      <td data-label="Reviewed">{m.decided}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : (
              <p className="muted">Only the team's leaders and owners see its members' work.</p>
            )}
          </section>
        ))
      )}
    </Page>
  );
}
