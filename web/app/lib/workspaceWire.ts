import { z } from "zod";

/** GET /v1/workspace as the web app reads it (the shell's permissions and flags). */
export const WorkspaceWire = z.object({
  workspace_id: z.string(),
  name: z.string(),
  tier: z.string(),
  is_admin: z.boolean(),
  seat_type: z.string(),
  permissions: z.array(z.string()),
  all_members_permissions: z.array(z.string()),
  flags: z.record(z.boolean()),
});
