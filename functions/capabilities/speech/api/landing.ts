import { z } from "zod";
import { INTERNAL_HEADER, isInternal } from "../../../platform/domain/internal.js";
import { ApiError } from "../../../platform/http/errors.js";
import type { ApiRouter } from "../../../platform/http/app.js";
import { bytes, json } from "../../../platform/http/types.js";
import { jsonBody } from "../../../platform/http/validate.js";
import { clientIp } from "../../account/api/auth.js";
import { LANDING, landingVoices, speakForVisitor } from "../landing.js";

const LandingBody = z.object({
  // Bounded here (a generous multiple of the page's limit, for the code-point count) and checked
  // exactly, with the page's message, by speakForVisitor.
  text: z.string().max(LANDING.maxCharacters * 4),
  voice_id: z.string().min(1).max(64),
  visitor_id: z.string().min(16).max(128),
});

/**
 * The landing page's calls (not part of the hosted API). The voices are public; speech is only
 * for the web server, which vouches for the visitor's cookie and address (INTERNAL_HEADER).
 */
export function registerLanding(r: ApiRouter): void {
  r.get("/v1/landing/voices", async (_req, rc) =>
    json({
      max_characters: LANDING.maxCharacters,
      requests_per_visitor: LANDING.perVisitor,
      // Previews are served without credentials; the path is relative to the API's origin.
      voices: (await landingVoices(rc.app)).map((v) => ({ voice_id: v.voice_id, name: v.name, description: v.description, labels: v.labels, preview_path: v.preview_object_key ? `/v1/voices/${v.voice_id}/preview` : null })),
    }),
  );

  r.post("/v1/landing/text-to-speech", async (req, rc) => {
    const ctx = rc.app;
    if (!isInternal(ctx.secrets.session, req.headers[INTERNAL_HEADER])) throw new ApiError(403, "landing_only", "This call is made by the landing page only.");
    const input = jsonBody(req, LandingBody);
    const { audio, left } = await speakForVisitor(ctx, { text: input.text, voiceId: input.voice_id, visitor: input.visitor_id, address: clientIp(ctx, req) }, req.signal);
    return bytes(audio, "audio/mpeg", { "cache-control": "no-store", "x-landing-requests-left": String(left) });
  });
}
