import { z } from "zod";
import type { ApiRouter } from "../../../platform/http/app.js";
import { bytes, json } from "../../../platform/http/types.js";
import { jsonBody, queryParams } from "../../../platform/http/validate.js";
import {
  PRODUCTIONS, claimProduction, createTeam, decideProduction, listProductions, listTeams, myTeams, producerSettings, productionFile,
  putTeamMember, releaseProduction, removeTeamMember, setProducer, updateProducerSettings,
} from "../productions.js";

const RejectBody = z.object({ reason: z.string().trim().min(1, "Give the user a reason.").max(500) });
const SettingsBody = z.object({
  languages: z.array(z.string().trim().regex(/^[a-zA-Z]{2,3}$/, "A language is an ISO 639 code such as en or de.")).max(PRODUCTIONS.languages, `At most ${PRODUCTIONS.languages} languages.`),
});
const ProducerBody = z.object({ email: z.string().trim().email().max(320), is_producer: z.boolean() });
const TeamBody = z.object({ name: z.string().trim().min(1, "A team needs a name.").max(PRODUCTIONS.teamName) });
const MemberBody = z.object({ email: z.string().trim().email().max(320), role: z.enum(["owner", "leader", "member"]) });

/** Producer Mode (functions/capabilities/productions/productions.ts) and its administration. */
export function registerProductions(r: ApiRouter): void {
  r.get("/v1/productions", async (req, rc) => {
    const { view } = queryParams(req, z.object({ view: z.enum(["unclaimed", "active", "history"]).default("unclaimed") }));
    return json({ productions: await listProductions(rc.app, await rc.caller(), view) });
  });
  r.get("/v1/productions/teams/@me", async (_req, rc) => json(await myTeams(rc.app, await rc.caller())));
  r.get("/v1/productions/settings", async (_req, rc) => json(await producerSettings(rc.app, await rc.caller())));
  r.patch("/v1/productions/settings", async (req, rc) => json(await updateProducerSettings(rc.app, await rc.caller(), jsonBody(req, SettingsBody).languages)));
  r.post("/v1/productions/:production_id/claim", async (req, rc) => json(await claimProduction(rc.app, await rc.caller(), req.params.production_id)));
  r.post("/v1/productions/:production_id/release", async (req, rc) => json(await releaseProduction(rc.app, await rc.caller(), req.params.production_id)));
  r.post("/v1/productions/:production_id/approve", async (req, rc) => json(await decideProduction(rc.app, await rc.caller(), req.params.production_id, { approve: true })));
  r.post("/v1/productions/:production_id/reject", async (req, rc) => {
    const { reason } = jsonBody(req, RejectBody);
    return json(await decideProduction(rc.app, await rc.caller(), req.params.production_id, { approve: false, reason }));
  });
  r.get("/v1/productions/:production_id/files/:file_id", async (req, rc) => {
    const { bytes: data, file } = await productionFile(rc.app, await rc.caller(), req.params.production_id, req.params.file_id);
    const safeName = file.file_name.replace(/[^\w. -]/g, "_");
    return bytes(Buffer.from(data.buffer, data.byteOffset, data.byteLength), file.mime_type, {
      "content-disposition": `attachment; filename="${safeName}"`,
      "cache-control": "private, no-store",
      "x-content-type-options": "nosniff",
    });
  });

  // The server's administrators: who is a producer, and the teams.
  r.post("/v1/admin/producers", async (req, rc) => {
    const { email, is_producer } = jsonBody(req, ProducerBody);
    return json(await setProducer(rc.app, await rc.caller(), email, is_producer));
  });
  r.get("/v1/admin/producer-teams", async (_req, rc) => json({ teams: await listTeams(rc.app, await rc.caller()) }));
  r.post("/v1/admin/producer-teams", async (req, rc) => json(await createTeam(rc.app, await rc.caller(), jsonBody(req, TeamBody).name)));
  r.post("/v1/admin/producer-teams/:team_id/members", async (req, rc) => {
    const { email, role } = jsonBody(req, MemberBody);
    return json(await putTeamMember(rc.app, await rc.caller(), req.params.team_id, email, role));
  });
  r.delete("/v1/admin/producer-teams/:team_id/members/:user_id", async (req, rc) => json(await removeTeamMember(rc.app, await rc.caller(), req.params.team_id, req.params.user_id)));
}
