import { afterAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ElevenLabsClient } from "@elevenlabs/elevenlabs-js";
import { premadeVoiceId } from "../../functions/platform/domain/premadeVoices.js";

/**
 * The product as a newcomer runs it: `scripts/start.mjs` is what `npm start` runs (it bundles the
 * server when stale and runs the bundle, worker threads included). Separate processes, a real
 * data folder, a restart in the middle.
 */
const ROOT = resolve(import.meta.dirname, "..", "..");
const dataDir = mkdtempSync(join(tmpdir(), "timbre-life-"));
const demoKey = "sk_demo_key_for_lifecycle_test_0001";
const env = { ...process.env, DATA_DIR: dataDir, PORT: "0", LOG_LEVEL: "warn", DEMO_API_KEY: demoKey, DEMO_PASSWORD: "lifecycle-pass" };
const children: ChildProcess[] = [];
const PREMADE_VOICE = premadeVoiceId("Avery");

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

function run(script: string, args: string[] = []) {
  // The TypeScript entries run through tsx; the start script is plain JavaScript.
  const loader = script.endsWith(".mjs") ? [] : ["--import", "tsx"];
  const child = spawn(process.execPath, [...loader, join(ROOT, script), ...args], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let out = "";
  let err = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number>((r) => child.on("exit", (code) => r(code ?? -1)));
  return { child, exited, output: () => out, errors: () => err };
}

async function startServer() {
  const p = run("scripts/start.mjs");
  const deadline = Date.now() + 60_000;
  while (!/running at (http:\/\/\S+)/.test(p.output())) {
    if (p.child.exitCode !== null) throw new Error(`server exited: ${p.errors()}`);
    if (Date.now() > deadline) throw new Error(`server did not start: ${p.output()} ${p.errors()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const url = /running at (http:\/\/\S+)/.exec(p.output())![1];
  return { ...p, url };
}

describe("npm start lifecycle", () => {
  it("boots, refuses a second copy, seeds while running, and keeps everything across a restart", async () => {
    const first = await startServer();
    // "running" is printed once the engine is warm: health is green at once, and speech works
    // from the bundle's own worker threads.
    const health = await fetch(`${first.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    const speech = await fetch(`${first.url}/v1/text-to-speech/${PREMADE_VOICE}?output_format=mp3_44100_128`, {
      method: "POST",
      headers: { "xi-api-key": demoKey, "content-type": "application/json" },
      body: JSON.stringify({ text: "Started from the bundle. It speaks." }),
    });
    expect(speech.status).toBe(200);
    const mp3 = new Uint8Array(await speech.arrayBuffer());
    expect([mp3[0], mp3[1] & 0xe0]).toEqual([0xff, 0xe0]);

    // Demo credentials: printed once and saved with owner-only permissions.
    expect(first.output()).toContain("demo@timbre.local");
    expect(first.output()).toContain(demoKey);
    const credsFile = join(dataDir, "demo-credentials.json");
    expect(statSync(credsFile).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(credsFile, "utf8"))).toMatchObject({ email: "demo@timbre.local", api_key: demoKey, password: "lifecycle-pass" });

    const demo = new ElevenLabsClient({ baseUrl: first.url, apiKey: demoKey, maxRetries: 0 });
    expect((await demo.models.list()).length).toBeGreaterThan(5);
    expect((await demo.voices.search({ pageSize: 100 })).voices.length).toBeGreaterThanOrEqual(24);
    expect((await demo.user.subscription.get()).tier).toBe("pro");

    // A second copy on the same folder fails at once, saying why.
    const second = run("scripts/start.mjs");
    expect(await second.exited).toBe(1);
    expect(second.errors()).toMatch(/already running on .* \(pid \d+/);

    // Seeding goes through the running stack.
    const seed = run("scripts/seed.ts", ["--email", "seeded@example.test", "--tier", "scale"]);
    expect(await seed.exited).toBe(0);
    const seeded = JSON.parse(seed.output().trim()) as { user_id: string; workspace_id: string; api_key: string };
    expect(Object.keys(seeded)).toEqual(expect.arrayContaining(["user_id", "workspace_id", "api_key"]));
    const viaSeed = new ElevenLabsClient({ baseUrl: first.url, apiKey: seeded.api_key, maxRetries: 0 });
    expect((await viaSeed.user.subscription.get()).tier).toBe("scale");

    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    expect(existsSync(join(dataDir, "timbre.lock"))).toBe(false);

    // Seeding with the product stopped opens the data itself.
    const offline = run("scripts/seed.ts", ["--email", "offline@example.test", "--tier", "starter", "--password", "offline-pass"]);
    expect(await offline.exited).toBe(0);
    const offlineUser = JSON.parse(offline.output().trim()) as { api_key: string; password?: string };
    expect(offlineUser.password).toBeUndefined();

    // A restart keeps everything and does not print the demo credentials again.
    const again = await startServer();
    expect(again.output()).not.toContain(demoKey);
    const after = new ElevenLabsClient({ baseUrl: again.url, apiKey: seeded.api_key, maxRetries: 0 });
    expect((await after.user.get()).userId).toBe(seeded.user_id);
    const offlineClient = new ElevenLabsClient({ baseUrl: again.url, apiKey: offlineUser.api_key, maxRetries: 0 });
    expect((await offlineClient.user.subscription.get()).tier).toBe("starter");
    again.child.kill("SIGTERM");
    expect(await again.exited).toBe(0);
  }, 120_000);
});
