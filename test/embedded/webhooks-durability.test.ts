import { afterAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ElevenLabsClient } from "@elevenlabs/elevenlabs-js";
import { startReceiver, type Receiver } from "../webhooks/receiver.js";

/**
 * The webhook queue survives `kill -9`: `npm start`'s entry point in a child process, events sent
 * to a receiver that fails at first, the process killed with SIGKILL while deliveries are pending,
 * then started again on the same data folder: every event reaches the receiver, signed.
 */
const ROOT = resolve(import.meta.dirname, "..", "..");
const dataDir = mkdtempSync(join(tmpdir(), "timbre-hooks-"));
const demoKey = "sk_demo_key_for_webhook_durability_01";
const env = { ...process.env, DATA_DIR: dataDir, PORT: "0", LOG_LEVEL: "warn", DEMO_API_KEY: demoKey, DEMO_PASSWORD: "durability-pass", WEBHOOK_RETRY_BASE_SECONDS: "1", WEBHOOK_ALLOW_LOCAL_TARGETS: "true" };
const children: ChildProcess[] = [];
let receiver: Receiver | undefined;

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function startServer() {
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "infra/local/main.ts")], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let out = "";
  let err = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((r) => child.on("exit", () => r()));
  const deadline = Date.now() + 60_000;
  while (!/running at (http:\/\/\S+)/.test(out)) {
    if (child.exitCode !== null) throw new Error(`server exited: ${err}`);
    if (Date.now() > deadline) throw new Error(`server did not start: ${out} ${err}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, exited, url: /running at (http:\/\/\S+)/.exec(out)![1] };
}

const eventIdOf = (body: string) => (JSON.parse(body) as { event_id: string }).event_id;

describe("webhook delivery across kill -9", () => {
  it("loses no pending delivery when the server is killed and started again", async () => {
    receiver = await startReceiver();
    const r = receiver;
    r.respond = () => 503;

    const first = await startServer();
    const client = new ElevenLabsClient({ baseUrl: first.url, apiKey: demoKey, maxRetries: 0 });
    const { webhookId, webhookSecret } = await client.webhooks.create({ settings: { authType: "hmac", name: "Durable", webhookUrl: r.url } });
    const sent: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${first.url}/v1/workspace/webhooks/${webhookId}/test`, { method: "POST", headers: { "xi-api-key": demoKey } });
      expect(res.status).toBe(202);
      sent.push(((await res.json()) as { event_id: string }).event_id);
    }
    // Some deliveries have been tried (and failed); others may still wait for their first try.
    const deadline = Date.now() + 30_000;
    while (r.received.length === 0 && Date.now() < deadline) await new Promise((x) => setTimeout(x, 50));
    expect(r.received.length).toBeGreaterThan(0);
    first.child.kill("SIGKILL");
    await first.exited;
    const delivered = new Set(r.received.filter((x) => x.status === 200).map((x) => eventIdOf(x.body)));
    expect(delivered.size).toBe(0);

    r.respond = () => 200;
    const second = await startServer();
    const until = Date.now() + 90_000;
    for (;;) {
      const ok = new Set(r.received.filter((x) => x.status === 200).map((x) => eventIdOf(x.body)));
      if (sent.every((id) => ok.has(id)) || Date.now() > until) break;
      await new Promise((x) => setTimeout(x, 200));
    }
    const ok = r.received.filter((x) => x.status === 200);
    expect(new Set(ok.map((x) => eventIdOf(x.body)))).toEqual(new Set(sent));
    const verifier = new ElevenLabsClient({ apiKey: "unused" });
    for (const x of ok) {
      const event = (await verifier.webhooks.constructEvent(x.body, x.headers["elevenlabs-signature"] as string, webhookSecret!)) as { type: string };
      expect(event.type).toBe("webhook_test");
    }
    const log = (await (await fetch(`${second.url}/v1/workspace/webhooks/${webhookId}/deliveries`, { headers: { "xi-api-key": demoKey } })).json()) as { deliveries: Array<{ state: string }> };
    expect(log.deliveries.map((d) => d.state)).toEqual(Array(5).fill("delivered"));
    second.child.kill("SIGTERM");
    await second.exited;
  }, 180_000);
});
