import { z } from "zod";
import type { AppContext } from "../../platform/context.js";
import { seedSystem } from "../seed/index.js";
import { loadRemoteVoices } from "../seed/remote.js";
import { bootContext } from "./boot.js";

/** A CloudFormation custom resource event (the fields we use). */
const CustomResourceEvent = z.object({
  RequestType: z.enum(["Create", "Update", "Delete"]),
  ResponseURL: z.string().url(),
  StackId: z.string(),
  RequestId: z.string(),
  LogicalResourceId: z.string(),
  PhysicalResourceId: z.string().optional(),
});
type CustomResourceEvent = z.infer<typeof CustomResourceEvent>;

let ctx: AppContext | undefined;

async function respond(event: CustomResourceEvent, status: "SUCCESS" | "FAILED", reason: string): Promise<void> {
  const body = Buffer.from(
    JSON.stringify({
      Status: status,
      Reason: reason.slice(0, 1000),
      PhysicalResourceId: event.PhysicalResourceId ?? "timbre-system-records",
      StackId: event.StackId,
      RequestId: event.RequestId,
      LogicalResourceId: event.LogicalResourceId,
    }),
  );
  // A byte body keeps fetch from adding a content-type the presigned URL was not signed for.
  const r = await fetch(event.ResponseURL, { method: "PUT", body });
  if (!r.ok) throw new Error(`CloudFormation response rejected: ${r.status}`);
}

/**
 * Deploy-time seeding. The context is built inside the handler, not at import, so that a bad
 * configuration still answers FAILED to CloudFormation instead of leaving the stack waiting.
 */
export async function handler(raw: unknown): Promise<void> {
  const event = CustomResourceEvent.parse(raw);
  try {
    if (event.RequestType !== "Delete") {
      ctx ??= (await bootContext({ sessionSecret: "none" })).ctx;
      await seedSystem(ctx);
      // The remote engines' voices (REMOTE_ENGINES, from the operator's secret on AWS), as the embedded stack lists them at start.
      if (ctx.config.remoteEngines) await loadRemoteVoices(ctx, ctx.log);
    }
    await respond(event, "SUCCESS", "");
  } catch (e) {
    ctx?.log.error("seeding failed", { error: e });
    await respond(event, "FAILED", e instanceof Error ? `${e.name}: ${e.message}` : String(e));
  }
}
