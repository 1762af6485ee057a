import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { encodeAll } from "../audio/encoder.js";
import { toneInt16 } from "../audio/testing.js";
import { workerBundleArgs } from "../../../infra/constructs/function.js";

/**
 * The Lambda layout: the function's code bundled into index.mjs and the worker into
 * analysis-worker.js beside it (with its chunks, built by infra/constructs/function.ts's own
 * arguments). The bundle must decode, analyse and denoise (RNNoise in a chunk the worker loads on
 * first use) with nothing else on disk (the codecs inline their WebAssembly).
 */
const ROOT = join(import.meta.dirname, "..", "..", "..");
const out = mkdtempSync(join(tmpdir(), "timbre-analysis-bundle-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const esbuild = (entry: string, outfile: string) =>
  spawnSync(
    join(ROOT, "node_modules", ".bin", "esbuild"),
    [entry, "--bundle", "--platform=node", "--format=esm", "--target=node20", "--minify", `--outfile=${outfile}`, "--banner:js=import{createRequire as __timbreRequire}from'node:module';const require=__timbreRequire(import.meta.url);"],
    { cwd: ROOT, encoding: "utf8" },
  );

it("works bundled: index.mjs plus analysis-worker.js beside it", () => {
  const entry = join(out, "entry.ts");
  writeFileSync(
    entry,
    `import { readFileSync } from "node:fs";
     import { createVoiceAnalyzer } from ${JSON.stringify(join(ROOT, "functions", "media", "voice-analysis", "index.ts"))};
     const analyzer = createVoiceAnalyzer({ size: 1 });
     const a = await analyzer.analyze(new Uint8Array(readFileSync(process.argv[2])));
     const noisy = new Float32Array(16000).map((_, i) => 0.3 * Math.sin((2 * Math.PI * 180 * i) / 16000) + 0.05 * (Math.random() - 0.5));
     const denoised = await analyzer.denoise(noisy, 16000);
     await analyzer.close();
     process.stdout.write(JSON.stringify({ f0: a.f0MedianHz, codec: a.codec, dim: a.embedding.length, denoised: denoised.length }));`,
  );
  const worker = spawnSync(join(ROOT, "node_modules", ".bin", "esbuild"), workerBundleArgs(["analysis-worker.js"], [], ROOT, out), { cwd: ROOT, encoding: "utf8" });
  const built = [esbuild(entry, join(out, "index.mjs")), worker];
  for (const b of built) expect(b.status, b.stderr).toBe(0);
  rmSync(entry);
  const mp3 = join(out, "tone.mp3");
  writeFileSync(mp3, encodeAll("mp3_44100_128", toneInt16(180, 22050, 2, 0.4), 22050));
  // Run from another directory, with no node_modules in reach.
  const r = spawnSync(process.execPath, [join(out, "index.mjs"), mp3], { cwd: tmpdir(), encoding: "utf8", timeout: 60_000 });
  expect(r.status, r.stderr).toBe(0);
  const result = JSON.parse(r.stdout) as { f0: number; codec: string; dim: number; denoised: number };
  expect(result.denoised).toBe(16000);
  expect(result.codec).toBe("mp3");
  expect(result.dim).toBe(60);
  expect(Math.abs(result.f0 - 180)).toBeLessThan(2);
}, 120_000);
