import type { Table } from "./table.js";
import { withoutKeys, type Stored } from "./table.js";

/**
 * Producer teams (app-shell.md §3, §6: "team roles including leader and owner"). The server's administrators form
 * them; a producer's teams are read through the member's index ("teams for user @me"). One partition lists every
 * team; each team's members sit in the team's partition.
 */
export type TeamRole = "owner" | "leader" | "member";

export interface ProducerTeam {
  team_id: string;
  name: string;
  created_at_unix: number;
}

export interface TeamMembership {
  team_id: string;
  user_id: string;
  role: TeamRole;
  added_at_unix: number;
}

const TEAMS = "PRODUCER_TEAMS";
const teamKey = (teamId: string) => ({ pk: TEAMS, sk: `T#${teamId}` });
const memberKey = (teamId: string, userId: string) => ({ pk: `PRODUCER_TEAM#${teamId}`, sk: `M#${userId}` });
const byUser = (userId: string, teamId: string) => ({ gsi1pk: `PRODUCER#${userId}`, gsi1sk: `TEAM#${teamId}` });

export class ProducerTeams {
  constructor(private readonly main: Table) {}

  async create(team: ProducerTeam): Promise<void> {
    await this.main.put({ ...teamKey(team.team_id), ...team }, { ifAbsent: true });
  }

  async get(teamId: string): Promise<ProducerTeam | undefined> {
    const item = await this.main.get<Stored<ProducerTeam>>(teamKey(teamId));
    return item ? withoutKeys<ProducerTeam>(item) : undefined;
  }

  async list(limit = 500): Promise<ProducerTeam[]> {
    return (await this.main.queryPrefix<Stored<ProducerTeam>>(TEAMS, "T#", { limit })).map((i) => withoutKeys<ProducerTeam>(i));
  }

  async members(teamId: string, limit = 1000): Promise<TeamMembership[]> {
    return (await this.main.queryPrefix<Stored<TeamMembership>>(`PRODUCER_TEAM#${teamId}`, "M#", { limit })).map((i) => withoutKeys<TeamMembership>(i));
  }

  async putMember(m: TeamMembership): Promise<void> {
    await this.main.put({ ...memberKey(m.team_id, m.user_id), ...byUser(m.user_id, m.team_id), ...m });
  }

  async removeMember(teamId: string, userId: string): Promise<boolean> {
    return this.main.delete(memberKey(teamId, userId), { expression: "attribute_exists(pk)" });
  }

  /** The user's memberships (the index is eventually consistent: each is read back from the team's partition). */
  async ofUser(userId: string): Promise<TeamMembership[]> {
    const hits = await this.main.queryPrefix<Stored<TeamMembership>>(`PRODUCER#${userId}`, "TEAM#", { index: "gsi1", limit: 200 });
    const out: TeamMembership[] = [];
    for (const h of hits) {
      const item = await this.main.get<Stored<TeamMembership>>(memberKey(h.team_id, userId));
      if (item) out.push(withoutKeys<TeamMembership>(item));
    }
    return out;
  }
}
