import { afterAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../functions/platform/config.js";
import { EspeakEngine } from "../../functions/media/engine/espeak/engine.js";
import { startEmbedded, type EmbeddedStack } from "../../infra/local/stack.js";

/**
 * Readiness as `npm start` reports it: /healthz says 200 only once the speech engine is warm, so
 * the first request after it never pays for the engine's start.
 */
let stack: EmbeddedStack | undefined;
afterAll(() => stack?.close());

describe("readiness", () => {
  it("answers /healthz 503 naming the engine while it warms, 200 once it is warm", async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    // The real engine, whose warm-up is held until the test lets it finish.
    const engine = new EspeakEngine({ size: 1 });
    const warm = engine.warm.bind(engine);
    engine.warm = async () => {
      await warm();
      await gate;
    };
    stack = await startEmbedded({
      config: parseConfig({ PORT: "0", LOG_LEVEL: "warn" }),
      persist: false,
      web: false,
      warmEngine: true,
      engine: async () => engine,
      // The system data from the run's snapshot, as every test stack (test/support/stack.ts); seeding it again tests nothing here.
      systemSnapshots: process.env.TIMBRE_TEST_SYSTEM_SNAPSHOTS || undefined,
      // No webhook schedule, as test stacks (it would run a dispatch as the stack closes).
      scheduleMs: 0,
    });

    const before = await fetch(`${stack.url}/healthz`);
    expect(before.status).toBe(503);
    expect(await before.json()).toMatchObject({ status: "unavailable", components: { engine: false, dynamodb: true, s3: true } });

    open();
    await stack.engineReady;
    const after = await fetch(`${stack.url}/healthz`);
    expect(after.status).toBe(200);
    expect(await after.json()).toEqual({ status: "ok" });
  });
});
