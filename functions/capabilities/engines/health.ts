/**
 * The state of the remote engines this server speaks through (REMOTE_ENGINES): what their circuit
 * breakers say, and on request a live probe of each. Never a key, never a URL.
 */
import type { AppContext } from "../../platform/context.js";
import { DispatchingEngine } from "../../media/engine/dispatch.js";
import type { SynthesisRequest } from "../../media/engine/port.js";
import { RemoteEngine, type RemoteEngineHealth } from "../../media/engine/remote/index.js";

/** The running remote engine, or null when none is configured. */
export async function remoteEngine(ctx: AppContext): Promise<RemoteEngine | null> {
  const engine = await ctx.engine();
  if (engine instanceof RemoteEngine) return engine;
  if (!(engine instanceof DispatchingEngine)) return null;
  try {
    const r = engine.engineFor({ voice: { engine: "remote" } } as SynthesisRequest);
    return r instanceof RemoteEngine ? r : null;
  } catch {
    return null; // no remote engine configured
  }
}

export async function remoteEngineHealth(ctx: AppContext, probe: boolean): Promise<RemoteEngineHealth[]> {
  return (await (await remoteEngine(ctx))?.health(probe)) ?? [];
}
