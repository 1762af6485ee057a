import { z } from "zod";
import { ApiError } from "../../../platform/http/errors.js";
import type { ApiRouter } from "../../../platform/http/app.js";
import { json } from "../../../platform/http/types.js";
import { jsonBody } from "../../../platform/http/validate.js";
import { enhanceDialogue, ENHANCE_DAILY_LIMITS, enhanceMessages } from "../../../platform/domain/dialogueEnhance.js";

const PreferenceBody = z.object({
  request_a_id: z.string().min(1).max(64),
  request_b_id: z.string().min(1).max(64),
  preference: z.enum(["a", "b"]),
});

const EnhanceBody = z.object({
  dialogue_blocks: z.array(z.object({ text: z.string().max(5000), voice_id: z.string().max(64).nullish() })).min(1).max(50),
});

/** Dialogue preference (Generation 1 / Generation 2) and the rule-based dialogue enhancer. */
export function registerDialogue(r: ApiRouter): void {
  r.post("/v1/dialogue-preference", async (req, rc) => {
    const caller = await rc.caller();
    const body = jsonBody(req, PreferenceBody);
    const ws = caller.workspaceId;
    const [a, b] = await Promise.all([rc.app.stores.history.byRequestId(ws, caller.userId, body.request_a_id), rc.app.stores.history.byRequestId(ws, caller.userId, body.request_b_id)]);
    if (!a || !b) throw new ApiError(404, "generation_not_found", "Both generations must be your own generations.");
    // Setting the same choice again keeps it; choosing the other one clears it.
    const key = { pk: `WS#${ws}`, sk: `DIALOGUEPREF#${[body.request_a_id, body.request_b_id].sort().join("#")}` };
    const current = await rc.app.stores.tables.main.get<{ chosen_request_id: string | null }>(key);
    const chosen = body.preference === "a" ? body.request_a_id : body.request_b_id;
    const keep = !current?.chosen_request_id || current.chosen_request_id === chosen;
    const next = keep ? body.preference : null;
    await rc.app.stores.tables.main.put({ ...key, chosen_request_id: keep ? chosen : null, updated_at: Math.floor(rc.app.now() / 1000) });
    return json({ status: "ok", preference: next });
  });

  r.post("/v1/text-to-dialogue/enhance", async (req, rc) => {
    const caller = await rc.caller();
    await caller.require("text_to_speech");
    const body = jsonBody(req, EnhanceBody);
    const tier = await caller.tier();
    const limit = ENHANCE_DAILY_LIMITS[tier.id];
    const now = Math.floor(rc.app.now() / 1000);
    const used = await rc.app.stores.ledger.hit("dialogue-enhance", caller.workspaceId, 86_400, now);
    if (used > limit) throw new ApiError(429, "daily_limit_reached", enhanceMessages.dailyLimit, { "retry-after": String(86_400 - (now % 86_400)) });
    return json({ enhanced_blocks: enhanceDialogue(body.dialogue_blocks.map((b) => ({ text: b.text, voice_id: b.voice_id ?? null }))) });
  });
}
