import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RETRY_AFTER_SECONDS, SLOT_WAIT_MS } from "../../functions/capabilities/speech/slots.js";
import { readFileSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { DEMO_KEY, FORMAT, VOICE, procCpuSeconds, seedUser, sleep, startServer, type Server } from "../../scripts/lib/bench-server.js";

/**
 * Issue 24: a free workspace (2 concurrent requests, 10,000 credits) and 24 clients that each send
 * one 849-character request as soon as a FRESH `npm start` is up, retrying every 20-100 ms on 429,
 * while the first start synthesises its previews and embeddings in the background. The product
 * runs as `npm start` runs it: its own process, a new DATA_DIR, loopback only.
 */
const CLIENTS = 24;
const TEXT_LENGTH = 849;
/** The clients' own patience: the scenario gave up at 300 s; nothing served here should come near. */
const CLIENT_DEADLINE_MS = 120_000;
const MAX_ATTEMPTS = 4000;

const SENTENCES = [
  "The morning ferry left the harbour a little after seven, carrying tourists, traders and a crate of noisy hens.",
  "By noon the wind had turned, and the captain decided to wait behind the headland until the waves settled down.",
  "Nobody on board complained; they shared bread, told stories about the island and watched the gulls circle above.",
  "When the sea finally calmed, the boat slipped around the rocks and reached the small wooden pier before sunset.",
  "Children ran ahead to the market square, where lanterns were already glowing above the stalls of fruit and fish.",
  "Later that evening a band played by the fountain, and even the tired captain was seen dancing with the baker.",
  "It was, everyone agreed, the best crossing of the whole summer, in spite of the long and unexpected delay at sea.",
  "The next day the ferry returned to the mainland, quieter and lighter, with only the hens left to complain loudly.",
];
function text849(): string {
  let t = "";
  for (let i = 0; codePointsOf(t) < TEXT_LENGTH; i++) t += (t ? " " : "") + SENTENCES[i % SENTENCES.length];
  return t.slice(0, TEXT_LENGTH - 1).trimEnd().padEnd(TEXT_LENGTH - 1, "a") + ".";
}
const codePointsOf = (s: string) => [...s].length;

interface Outcome {
  status: number;
  ms: number;
  /** When the answer had arrived (performance.now()). */
  end: number;
  bytes: number;
  retryAfter: string | null;
  /** How long it waited in the workspace's queue for a slot (the server's x-timbre-slot-wait-ms). */
  slotWaitMs: number;
  /**
   * The server's own time (its Server-Timing header): arrival to asking for a slot, and for a whole
   * answer the slot granted to the answer complete. Their sum is the request's time on the server
   * outside the queue, whatever the client's own scheduling (when it reads the answer).
   */
  server: { beforeSlot: number; generate: number };
  body?: string;
}

/** A Server-Timing header's metric, in ms (NaN when absent). */
function serverTiming(header: string | null, name: string): number {
  const m = new RegExp(`(?:^|,)\\s*${name};dur=([0-9.]+)`).exec(header ?? "");
  return m ? Number(m[1]) : NaN;
}

async function speak(url: string, key: string, text: string, seed: number, signal?: AbortSignal): Promise<Outcome> {
  const t0 = performance.now();
  const send = () =>
    fetch(`${url}/v1/text-to-speech/${VOICE}?output_format=${FORMAT}`, {
      method: "POST",
      headers: { "xi-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({ text, seed }),
      signal,
    });
  // A pooled connection the server closed after its 5 s keep-alive, just as it was reused: the
  // request never reached the server, so it is sent again (on a new connection).
  const res = await send().catch((e: unknown) => {
    if ((e as { cause?: { code?: string } }).cause?.code === "UND_ERR_SOCKET") return send();
    throw e;
  });
  const body = new Uint8Array(await res.arrayBuffer());
  const end = performance.now();
  return {
    status: res.status,
    ms: end - t0,
    end,
    bytes: body.byteLength,
    retryAfter: res.headers.get("retry-after"),
    slotWaitMs: Number(res.headers.get("x-timbre-slot-wait-ms") ?? NaN),
    server: { beforeSlot: serverTiming(res.headers.get("server-timing"), "before-slot"), generate: serverTiming(res.headers.get("server-timing"), "generate") },
    body: res.status === 200 ? undefined : Buffer.from(body).toString("utf8"),
  };
}

/**
 * The storm's clients, as cheap as a client can be: node:http on keep-alive connections, and a
 * refusal's body discarded unread (its status and headers say all). They run in this process, on
 * this machine, so their CPU comes out of the same share as the server's engine, which the
 * issue's remote clients would not cost it: with fetch() each refusal cost the clients' process
 * about 2.4 ms of CPU in a scratch storm, with node:http about 0.4 ms, 0.26 in this test
 * (docs/decisions/2026-12-07-overload-storm-costs.md, last section). The answer and its timings are read as `speak` reads them.
 */
const agent = new Agent({ keepAlive: true, maxSockets: 64 });
function post(url: URL, key: string, body: string, signal?: AbortSignal): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer | null; end: number }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method: "POST", agent, signal, headers: { "xi-api-key": key, "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status === 429) {
          res.resume();
          res.on("end", () => resolve({ status, headers: res.headers, body: null, end: performance.now() }));
        } else {
          const parts: Buffer[] = [];
          res.on("data", (d: Buffer) => parts.push(d));
          res.on("end", () => resolve({ status, headers: res.headers, body: Buffer.concat(parts), end: performance.now() }));
        }
        res.on("error", reject);
      },
    );
    req.on("error", (e: NodeJS.ErrnoException) => {
      // A pooled connection the server closed after its 5 s keep-alive, just as it was reused: the
      // request never reached the server, so it is sent again (on a new connection).
      if (req.reusedSocket && e.code === "ECONNRESET") post(url, key, body, signal).then(resolve, reject);
      else reject(e);
    });
    req.end(body);
  });
}
async function speakCheap(url: string, key: string, text: string, seed: number, signal?: AbortSignal): Promise<Outcome> {
  const t0 = performance.now();
  const r = await post(new URL(`${url}/v1/text-to-speech/${VOICE}?output_format=${FORMAT}`), key, JSON.stringify({ text, seed }), signal);
  const header = (name: string) => {
    const v = r.headers[name];
    return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
  };
  return {
    status: r.status,
    ms: r.end - t0,
    end: r.end,
    bytes: r.body?.byteLength ?? 0,
    retryAfter: header("retry-after"),
    slotWaitMs: Number(header("x-timbre-slot-wait-ms") ?? NaN),
    server: { beforeSlot: serverTiming(header("server-timing"), "before-slot"), generate: serverTiming(header("server-timing"), "generate") },
    body: r.status === 200 || !r.body ? undefined : r.body.toString("utf8"),
  };
}

/** CPU seconds of the server's request loop (its main thread), from /proc. */
function loopCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime (fields 14 and 15), in clock ticks (100 a second on Linux).
  return (Number(f[11]) + Number(f[12])) / 100;
}

/**
 * What this run got from the machine, sampled every 250 ms: the CPU of the server (every thread)
 * and of this process (the clients), and the machine's idle time. On Linux a session's processes
 * share the cores with other sessions' as one group (the scheduler's autogroups): while the
 * machine has no idle core, the CPU the group gets per second is its share of the machine, which
 * moves with the other sessions' work, whatever the group does with it. The server's own storm
 * work (refusals, the clients' retries) is spent inside that share, so it is never excused.
 */
interface MachineSample {
  t: number;
  cpu: number;
  /** This process's CPU seconds (the clients). */
  own: number;
  idle: number;
  total: number;
}
function machineSample(pid: number): MachineSample {
  const own = process.cpuUsage();
  const ticks = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  return { t: performance.now(), cpu: procCpuSeconds(pid) + (own.user + own.system) / 1e6, own: (own.user + own.system) / 1e6, idle: ticks[3] + ticks[4], total: ticks.reduce((a, b) => a + b, 0) };
}
/** The group's CPU per second over [t0, t1], and whether the machine was busy (no idle core) meanwhile. */
function shareOver(samples: MachineSample[], t0: number, t1: number): { cpuPerSecond: number; machineBusy: boolean } {
  const a = samples.findLast((s) => s.t <= t0) ?? samples[0];
  const b = samples.find((s) => s.t >= t1) ?? samples[samples.length - 1];
  const idle = (b.idle - a.idle) / Math.max(1, b.total - a.total);
  return { cpuPerSecond: (b.cpu - a.cpu) / Math.max(0.001, (b.t - a.t) / 1000), machineBusy: idle < 0.05 };
}

let server: Server;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "timbre-overload-"));
  ({ server } = await startServer(dataDir));
}, 240_000);
afterAll(async () => {
  agent.destroy();
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe("right after a fresh start (issue 24)", () => {
  it("similar-voice search says the library is still being indexed (503, Retry-After), never a silent empty list", async () => {
    const tts = await fetch(`${server.url}/v1/text-to-speech/${VOICE}?output_format=${FORMAT}`, {
      method: "POST",
      headers: { "xi-api-key": DEMO_KEY, "content-type": "application/json" },
      body: JSON.stringify({ text: "Which voices in the library sound like this one?", seed: 7 }),
    });
    expect(tts.status).toBe(200);
    const form = new FormData();
    form.append("audio_file", new Blob([await tts.arrayBuffer()], { type: "audio/mpeg" }), "clip.mp3");
    const r = await fetch(`${server.url}/v1/similar-voices`, { method: "POST", headers: { "xi-api-key": DEMO_KEY }, body: form });
    const body = (await r.json()) as { voices?: unknown[]; detail?: { status: string; message: string } };
    // The first start's previews and embeddings take minutes: the search comes long before.
    expect(r.status, JSON.stringify(body)).toBe(503);
    expect(r.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(body.detail?.status).toBe("library_indexing");
  }, 60_000);

  it("serves what the balance allows to 24 retrying clients, each within 3x its time alone and 3x its time two at once, at the same share of the machine, refusals costing a lookup, and charges exactly that", async () => {
    const text = text849();
    expect(codePointsOf(text)).toBe(TEXT_LENGTH);
    const { apiKey } = seedUser(dataDir, "overload@example.com", "free");
    // The lookups below use a key of their own: the storm's key is new to the server when the storm
    // starts, as in the issue (its first wave is authenticated at once: one read and one use record
    // for the wave, functions/platform/http/auth.ts).
    const { apiKey: lookupKey } = seedUser(dataDir, "lookups@example.com", "free");

    // Before the storm, in this run: the same request alone (another workspace, so the free
    // balance stays whole), and the loop's CPU for it; the loop's CPU for a lookup
    // (GET /v1/models: the key, the workspace and a JSON answer).
    const samples: MachineSample[] = [machineSample(server.pid)];
    const sampler = setInterval(() => samples.push(machineSample(server.pid)), 250).unref();
    const aloneWindows: Array<[number, number]> = [];
    const alone: number[] = [];
    const aloneServer: number[] = [];
    const aloneLoopCpu: number[] = [];
    const aloneClientCpu: number[] = [];
    for (let i = 0; i < 3; i++) {
      const cpu0 = loopCpuSeconds(server.pid);
      const own0 = process.cpuUsage();
      const one = await speakCheap(server.url, DEMO_KEY, text, 500 + i);
      expect(one.status, one.body).toBe(200);
      alone.push(one.ms);
      // The server says how long it took, and that is within what the client saw.
      expect(one.server.generate, "server-timing: generate").toBeGreaterThan(0);
      expect(one.server.beforeSlot + one.slotWaitMs + one.server.generate).toBeLessThanOrEqual(one.ms + 1);
      aloneServer.push(one.server.beforeSlot + one.server.generate);
      aloneWindows.push([one.end - one.ms, one.end]);
      aloneLoopCpu.push(loopCpuSeconds(server.pid) - cpu0);
      const own = process.cpuUsage(own0);
      aloneClientCpu.push((own.user + own.system) / 1e6);
    }
    // And two at once (the plan's concurrency: both slots busy share the engine's two workers),
    // reported beside the ratios.
    const pair: number[] = [];
    const pairServer: number[] = [];
    const two = await Promise.all([speakCheap(server.url, DEMO_KEY, text, 510), speakCheap(server.url, DEMO_KEY, text, 511)]);
    for (const r of two) {
      expect(r.status, r.body).toBe(200);
      pair.push(r.ms);
      pairServer.push(r.server.beforeSlot + r.server.generate);
    }
    const lookup = () => fetch(`${server.url}/v1/models`, { headers: { "xi-api-key": lookupKey } }).then((r) => r.arrayBuffer());
    for (let i = 0; i < 10; i++) await lookup();
    const LOOKUPS = 300;
    const lookupCpu0 = loopCpuSeconds(server.pid);
    for (let i = 0; i < LOOKUPS; i++) await lookup();
    const lookupLoopMs = (1000 * (loopCpuSeconds(server.pid) - lookupCpu0)) / LOOKUPS;

    const started = performance.now();
    const stormCpu0 = loopCpuSeconds(server.pid);
    const stormOwn0 = process.cpuUsage();
    // One deadline for every client (the scenario's patience), not a timer per attempt.
    const deadline = AbortSignal.timeout(CLIENT_DEADLINE_MS);
    const served: Outcome[] = [];
    const refusals: Outcome[] = [];
    const others: Outcome[] = [];
    const timedOut: number[] = [];
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
          const left = CLIENT_DEADLINE_MS - (performance.now() - started);
          if (left <= 0) return void timedOut.push(client);
          let r: Outcome;
          try {
            r = await speakCheap(server.url, apiKey, text, 1000 + client, deadline);
          } catch (e) {
            if (!deadline.aborted) throw e;
            return void timedOut.push(client);
          }
          if (r.status === 200) return void served.push(r);
          if (r.status !== 429) return void others.push(r);
          refusals.push(r);
          await sleep(20 + Math.random() * 80);
        }
      }),
    );
    const stormMs = performance.now() - started;
    const stormLoopMs = 1000 * (loopCpuSeconds(server.pid) - stormCpu0);
    const stormOwn = process.cpuUsage(stormOwn0);
    const stormClientMs = (stormOwn.user + stormOwn.system) / 1000;
    const allowed = Math.floor(10_000 / TEXT_LENGTH);

    const usage = (await (await fetch(`${server.url}/v1/user/subscription`, { headers: { "xi-api-key": apiKey } })).json()) as { character_count: number };
    // The same request alone again, right after the storm (reported: how far the machine moved).
    const aloneAfter: number[] = [];
    for (let i = 0; i < 2; i++) {
      const one = await speakCheap(server.url, DEMO_KEY, text, 520 + i);
      expect(one.status, one.body).toBe(200);
      aloneAfter.push(one.ms);
    }
    clearInterval(sampler);
    samples.push(machineSample(server.pid));
    const median = (xs: number[]) => {
      const v = [...xs].sort((a, b) => a - b);
      return (v[Math.floor((v.length - 1) / 2)] + v[Math.ceil((v.length - 1) / 2)]) / 2;
    };
    const aloneMs = median(alone);
    // The share of the machine this run had while the request ran alone, and while each served
    // request held its slot. When the machine had no idle core in both, the request's time alone
    // at the held request's share is its time alone scaled by the ratio of the two shares.
    const aloneShares = aloneWindows.map(([t0, t1]) => shareOver(samples, t0, t1));
    const aloneShare = median(aloneShares.map((s) => s.cpuPerSecond));
    const aloneBusy = aloneShares.every((s) => s.machineBusy);
    const pairMs = Math.max(...pair);
    const held = served.map((s) => {
      const ms = s.ms - s.slotWaitMs;
      const share = shareOver(samples, s.end - ms, s.end);
      const slower = aloneBusy && share.machineBusy ? aloneShare / share.cpuPerSecond : 1;
      // On the server's side: its time outside the queue, over the same for the request alone.
      const serverMs = s.server.beforeSlot + s.server.generate;
      const serverShare = shareOver(samples, s.end - serverMs, s.end);
      const serverSlower = aloneBusy && serverShare.machineBusy ? aloneShare / serverShare.cpuPerSecond : 1;
      return { ms, slower, bound: 3 * pairMs * slower, serverMs, serverSlower };
    });
    const aloneServerMs = median(aloneServer);
    // The loop's CPU during the storm beyond what the served requests take alone (the balance's
    // refusals at the end are full requests: counted as such), per 429.
    const servedLoopMs = 1000 * median(aloneLoopCpu) * (served.length + others.length);
    const per429LoopMs = refusals.length ? Math.max(0, stormLoopMs - servedLoopMs) / refusals.length : 0;
    // The same for this process (the clients, and what else runs here: the sampler, vitest): its
    // CPU during the storm beyond the served answers' (each as alone), per 429.
    const servedClientMs = 1000 * median(aloneClientCpu) * (served.length + others.length);
    const per429ClientMs = refusals.length ? Math.max(0, stormClientMs - servedClientMs) / refusals.length : 0;
    const report = {
      aloneMs: alone.map(Math.round),
      aloneAfterMs: aloneAfter.map(Math.round),
      heldOverAlone: held.map((h) => +(h.ms / aloneMs).toFixed(2)),
      aloneCpuPerSecond: +aloneShare.toFixed(2),
      // Per served request: the run's share of a busy machine alone over its share while held.
      aloneShareOverHeld: held.map((h) => +h.slower.toFixed(2)),
      heldOverAloneAtShare: held.map((h) => +(h.ms / aloneMs / h.slower).toFixed(2)),
      heldOverPairAtShare: held.map((h) => +(h.ms / pairMs / h.slower).toFixed(2)),
      pairMs: pair.map(Math.round),
      // The server's side (Server-Timing: before the slot + holding it), in the order answers arrived.
      aloneServerMs: aloneServer,
      pairServerMs: pairServer,
      servedServer: served.map((s) => [s.server.beforeSlot, s.slotWaitMs, s.server.generate]),
      serverHeldOverAlone: held.map((h) => +(h.serverMs / aloneServerMs).toFixed(2)),
      serverHeldOverAloneAtShare: held.map((h) => +(h.serverMs / aloneServerMs / h.serverSlower).toFixed(2)),
      servedMs: served.map((s) => Math.round(s.ms)).sort((a, b) => a - b),
      slotWaitMs: served.map((s) => s.slotWaitMs),
      refusals: refusals.length,
      refusalMs: refusals.length ? Math.round(refusals.reduce((n, r) => n + r.ms, 0) / refusals.length) : 0,
      lookupLoopMs: +lookupLoopMs.toFixed(2),
      aloneLoopMs: aloneLoopCpu.map((c) => Math.round(c * 1000)),
      stormLoopMs: Math.round(stormLoopMs),
      per429LoopMs: +per429LoopMs.toFixed(2),
      aloneClientMs: aloneClientCpu.map((c) => Math.round(c * 1000)),
      stormClientMs: Math.round(stormClientMs),
      per429ClientMs: +per429ClientMs.toFixed(2),
      others: others.map((o) => `${o.status} ${o.body?.slice(0, 80)}`).slice(0, 3),
      timedOut: timedOut.length,
      stormMs: Math.round(stormMs),
      charged: usage.character_count,
      load: readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" "),
    };
    console.log(JSON.stringify(report));

    expect(timedOut).toEqual([]);
    expect(served.length).toBe(allowed);
    for (const [i, s] of served.entries()) {
      // Before its slot: at most a refusal's pause (a key refused again within its Retry-After
      // waits for it) and the queue's wait, as the server measured them (its timers and the
      // store's answers come late on a busy machine). Once it holds its slot: within 3x the
      // slower of two at once without a storm (the plan's two slots share the engine's workers,
      // whole answers in turn: about 2x alone), at the same share of the machine.
      expect(s.slotWaitMs, JSON.stringify(report)).toBeLessThanOrEqual(RETRY_AFTER_SECONDS * 1000 + SLOT_WAIT_MS + 1000);
      expect(held[i].ms, JSON.stringify(report)).toBeLessThanOrEqual(held[i].bound);
      // The goal: within 3x its time alone, at the same share of the machine (the client's
      // side: from holding its slot to its last byte). Asserted since whole answers run strictly in
      // turn: six runs with the machine to itself (this file runs after every other), worst 1.80-2.04.
      expect(held[i].ms / aloneMs / held[i].slower, JSON.stringify(report)).toBeLessThanOrEqual(3);
      // History, and the server's side (serverHeldOverAloneAtShare, Server-Timing: its time outside
      // the queue), reported: on the server's side at share it held in 7 of 9 runs at load 10-27, often
      // with a few per cent to spare, and reached 3.17 and 3.08 in the other two (two holders always
      // share the engine, and the storm's own work comes out of the same share: about 2.8x alone;
      // docs/decisions/2026-12-07-background-at-low-priority.md, last section). With the storm's
      // key new to the server, seven more runs at load 9-14: worst 2.20-3.13, the margin asked for
      // (2.7) met in 3 (docs/decisions/2026-12-07-overload-storm-costs.md). With whole answers
      // strictly in turn and these cheap clients, nine runs at load 23-36: worst 1.95-3.14, <= 2.7
      // in 6 (the others had the first wave's longest before-slot; same record, last section).
      expect(Number.isFinite(held[i].serverMs), JSON.stringify(report)).toBe(true);
    }
    // A 429 costs the loop about a lookup (its HTTP answer is most of it), not the request's
    // credentials, plan, membership and slot bookkeeping against the store.
    expect(per429LoopMs, JSON.stringify(report)).toBeLessThanOrEqual(1.5 * lookupLoopMs);
    // The clients run on this machine and share the server's CPU: a refusal costs this process
    // less than the server's loop spends on a lookup (~1.5 ms; with fetch() a refusal cost a
    // scratch storm's clients about 2.4 ms).
    expect(per429ClientMs, JSON.stringify(report)).toBeLessThanOrEqual(lookupLoopMs);
    expect(usage.character_count).toBe(served.length * TEXT_LENGTH);
    // The rest were told their balance is spent, not left waiting.
    expect(others).toHaveLength(CLIENTS - allowed);
    for (const r of refusals) expect(r.retryAfter).toMatch(/^\d+$/);
  }, 420_000);

  it("charges nothing for a whole (not streamed) answer whose client left before it was sent", async () => {
    const { apiKey } = seedUser(dataDir, "leaver@example.com", "free");
    const usage = async () => ((await (await fetch(`${server.url}/v1/user/subscription`, { headers: { "xi-api-key": apiKey } })).json()) as { character_count: number }).character_count;
    const leave = new AbortController();
    // Four times the storm's text: about 1 s of synthesis on this machine alone (849 characters took
    // 0.25 s once whole answers kept every worker busy, and a fixed 300 ms wait then saw the answer
    // complete). The client leaves as soon as the server has charged the request, which it does when
    // the request holds its slot, before the synthesis: it leaves mid-generation on any machine.
    const text = Array.from({ length: 4 }, () => text849()).join(" ");
    const request = speak(server.url, apiKey, text, 77, leave.signal).catch((e: Error) => e.name);
    let held = 0;
    for (let i = 0; i < 1200 && held === 0; i++) {
      held = await usage();
      if (held === 0) await sleep(25);
    }
    expect(held).toBeGreaterThan(0);
    leave.abort();
    expect(await request).toBe("AbortError");
    // The server settles when it notices; the charge must come back (and never stay).
    let charged = await usage();
    for (let i = 0; i < 100 && charged !== 0; i++) {
      await sleep(100);
      charged = await usage();
    }
    expect(charged).toBe(0);
    await sleep(1500);
    expect(await usage()).toBe(0);
  }, 60_000);
});
