import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { findWebBuild, ROOT } from "../../infra/constructs/paths.js";
import { WORKERS } from "../../scripts/lib/worker-entries.mjs";

/**
 * `npx cdk synth` with the real CLI, as a user runs it: no AWS credentials, no network (a network
 * namespace with nothing in it when the machine allows one), no Docker, bundling every function
 * with the root esbuild.
 */
const CLI = join(ROOT, "node_modules", "aws-cdk", "bin", "cdk");
let out: string;
let result: { status: number | null; output: string };
/** Whether `npm run build` output was there when the synth ran: it decides what the web function bundles. */
let webBuildPresent: boolean;

type Template = { Resources: Record<string, { Type: string; Properties: Record<string, unknown> }> };

function assetOf(template: Template, description: string): string {
  const fn = Object.values(template.Resources).find((r) => r.Type === "AWS::Lambda::Function" && String(r.Properties.Description).includes(description));
  expect(fn, description).toBeDefined();
  return join(out, `asset.${(fn!.Properties.Code as { S3Key: string }).S3Key.replace(/\.zip$/, "")}`);
}

/** Loads a bundled streaming handler in a fresh Node process (with a stand-in for the runtime's awslambda) and sends it one GET. */
function invoke(asset: string, path: string, env: Record<string, string> = {}): { status: number; body: string } {
  const probe = `
    globalThis.awslambda = { streamifyResponse: (h) => h, HttpResponseStream: { from(s, m) { s.meta = m; return s; } } };
    const { Writable } = await import("node:stream");
    const { handler } = await import(${JSON.stringify(join(asset, "index.mjs"))});
    const chunks = [];
    const stream = new Writable({ write(c, _e, cb) { chunks.push(c); cb(); } });
    await handler({ version: "2.0", rawPath: ${JSON.stringify(path)}, rawQueryString: "", headers: { "user-agent": "Mozilla/5.0" }, isBase64Encoded: false,
      requestContext: { requestId: "probe", timeEpoch: Date.now(), http: { method: "GET", path: ${JSON.stringify(path)}, sourceIp: "203.0.113.9" } } }, stream, { awsRequestId: "probe" });
    process.stdout.write(JSON.stringify({ status: stream.meta.statusCode, body: Buffer.concat(chunks).toString() }));`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", probe], {
    env: { ...offlineEnv(), TIMBRE_MODE: "aws", SESSION_SECRET: "s".repeat(40), AWS_REGION: "us-east-1", LOG_LEVEL: "silent", ...env },
    encoding: "utf8",
    timeout: 30_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { status: number; body: string };
}

function offlineEnv(): NodeJS.ProcessEnv {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /^(AWS_|CDK_)/.test(k) || /_proxy$/i.test(k)) continue;
    env[k] = v;
  }
  return { ...env, NODE_ENV: process.env.NODE_ENV ?? "test", AWS_EC2_METADATA_DISABLED: "true", AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" };
}

beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), "timbre-cdk-out-"));
  webBuildPresent = findWebBuild().server !== undefined;
  const isolated = spawnSync("unshare", ["-n", "true"]).status === 0;
  const cmd = [process.execPath, CLI, "synth", "--quiet", "--output", out];
  const r = isolated
    ? spawnSync("unshare", ["-n", ...cmd], { cwd: ROOT, env: offlineEnv(), encoding: "utf8", timeout: 110_000 })
    : spawnSync(cmd[0], cmd.slice(1), { cwd: ROOT, env: { ...offlineEnv(), HTTP_PROXY: "http://127.0.0.1:9", HTTPS_PROXY: "http://127.0.0.1:9" }, encoding: "utf8", timeout: 110_000 });
  result = { status: r.status, output: `${r.stdout}\n${r.stderr}` };
  if (!isolated) console.warn("synth test: no network namespace here (unshare -n failed); offline is enforced with an unreachable proxy only");
}, 120_000);

afterAll(() => rmSync(out, { recursive: true, force: true }));

it("synthesizes offline with the real CDK CLI", () => {
  expect(result.status, result.output).toBe(0);
  expect(existsSync(join(out, "Timbre.template.json"))).toBe(true);
  expect(existsSync(join(out, "manifest.json"))).toBe(true);
  expect(result.output).not.toMatch(/docker/i);
  expect(result.output).not.toMatch(/credentials|ENOTFOUND|EAI_AGAIN/i);
});

it("bundles the API function locally with esbuild, with the engine's runtime files beside it", () => {
  expect(result.status, result.output).toBe(0);
  const template = JSON.parse(readFileSync(join(out, "Timbre.template.json"), "utf8")) as Template;
  const asset = assetOf(template, "/v1");
  expect(existsSync(join(asset, "index.mjs"))).toBe(true);
  expect(existsSync(join(asset, "index.mjs.map"))).toBe(true);
  expect(existsSync(join(asset, "node_modules", "espeak-ng", "dist", "espeak-ng.wasm"))).toBe(true);
  expect(existsSync(join(asset, "node_modules", "@mediabunny", "mp3-encoder", "dist", "modules", "build", "lame.js"))).toBe(true);
  expect(existsSync(join(asset, "node_modules", "opusscript", "build", "opusscript_native_wasm.wasm"))).toBe(true);
  // Nothing the function never reads: other builds of the codecs, their browser wrappers.
  expect(existsSync(join(asset, "node_modules", "@mediabunny", "mp3-encoder", "dist", "bundles", "mediabunny-mp3-encoder.min.mjs"))).toBe(false);
  // Nor the package's main entry: the LAME loader is found without resolving it.
  expect(existsSync(join(asset, "node_modules", "@mediabunny", "mp3-encoder", "dist", "bundles", "mediabunny-mp3-encoder.mjs"))).toBe(false);
  expect(existsSync(join(asset, "node_modules", "@mediabunny", "mp3-encoder", "src"))).toBe(false);
  expect(existsSync(join(asset, "node_modules", "opusscript", "build", "opusscript_native_nasm.js"))).toBe(false);
  expect(existsSync(join(asset, "node_modules", "wasm-media-encoders"))).toBe(false);
  // Every worker thread a request can start, beside the bundle (scripts/lib/worker-entries.mjs):
  // the engine's, the voice analyzer's (decoders and analysis, WebAssembly inlined) and speech to
  // speech's (RNNoise's WebAssembly in its package beside the bundle).
  for (const [name, w] of Object.entries(WORKERS)) if (w.lambda) expect(existsSync(join(asset, `${name}.js`)), `${name}.js in the /v1 asset`).toBe(true);
  expect(existsSync(join(asset, "conversion-worker.js"))).toBe(true);
  expect(existsSync(join(asset, "node_modules", "@echogarden", "rnnoise-wasm", "rnnoise.wasm"))).toBe(true);

  // The bundle boots and answers: a request without an API key gets the contract's 401.
  const answer = invoke(asset, "/v1/user");
  expect(answer.status).toBe(401);
  expect(JSON.parse(answer.body)).toMatchObject({ detail: { status: "invalid_api_key" } });
});

it("bundles the web function with the Remix build when there is one, else with a stub that says how to fix it", () => {
  expect(result.status, result.output).toBe(0);
  const template = JSON.parse(readFileSync(join(out, "Timbre.template.json"), "utf8")) as Template;
  const answer = invoke(assetOf(template, "web app"), "/__timbre-probe-unknown-page", { API_INTERNAL_URL: "http://127.0.0.1:9" });
  if (webBuildPresent) {
    // Remix answers an unknown page with its own 404 document.
    expect(answer.status).toBe(404);
    expect(answer.body).toMatch(/^<!DOCTYPE html>/i);
  } else {
    expect(answer.status).toBe(503);
    expect(answer.body).toContain("npm run build");
    expect(result.output).toContain("timbre:missing-web-build");
  }
});
