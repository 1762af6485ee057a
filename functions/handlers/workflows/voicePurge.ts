import { z } from "zod";
import type { AppContext } from "../../platform/context.js";
import { workspaceKey } from "../../platform/adapters/s3.js";
import type { StepHandlers } from "./types.js";

const Input = z.object({ workspace_id: z.string().min(1), voice_id: z.string().min(1) });
const BATCH = 200;

export const voicePurgeSteps: StepHandlers = {
  async listObjects(raw, ctx: AppContext) {
    const { workspace_id, voice_id } = Input.parse(raw);
    const keys = await ctx.blobs.list(workspaceKey(workspace_id, "voices", voice_id) + "/");
    const batches: string[][] = [];
    for (let i = 0; i < keys.length; i += BATCH) batches.push(keys.slice(i, i + BATCH));
    return { count: keys.length, batches };
  },

  async deleteObjects(raw, ctx) {
    const { workspace_id, keys } = z.object({ workspace_id: z.string(), keys: z.array(z.string()) }).parse(raw);
    // Never delete outside the workspace's own prefix, whatever the input says.
    const own = keys.filter((k) => k.startsWith(workspaceKey(workspace_id) + "/"));
    await ctx.blobs.deleteMany(own);
    return { deleted: own.length };
  },

  async deleteRecords(raw, ctx) {
    const { workspace_id, voice_id } = Input.parse(raw);
    await ctx.stores.voices.deleteWorkspaceSettings(workspace_id, voice_id);
    return { ok: true };
  },

  async recordFailure(raw, ctx) {
    ctx.log.error("voice purge failed", { input: raw });
    return { recorded: true };
  },
};
