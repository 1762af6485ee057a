import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { encodeWav } from "../audio/wav.js";
import { toneInt16 } from "../audio/testing.js";
import { RUNTIME_FILES, workerBundleArgs } from "../../../infra/constructs/function.js";

/**
 * The Lambda layout: the function's code bundled into index.mjs, the worker into
 * conversion-worker.js and its chunks beside it (infra/constructs/function.ts's own arguments,
 * RNNoise's package external and copied beside as a runtime package). Run from elsewhere, it must measure,
 * convert and isolate with nothing else on disk.
 */
const ROOT = join(import.meta.dirname, "..", "..", "..");
const out = mkdtempSync(join(tmpdir(), "timbre-conversion-bundle-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const PACKAGE = "@echogarden/rnnoise-wasm";
const MP3_PACKAGE = "@mediabunny/mp3-encoder";
const esbuild = (entry: string, outfile: string) =>
  spawnSync(
    join(ROOT, "node_modules", ".bin", "esbuild"),
    [entry, "--bundle", "--platform=node", "--format=esm", "--target=node20", "--minify", `--outfile=${outfile}`, `--external:${PACKAGE}`, "--banner:js=import{createRequire as __timbreRequire}from'node:module';const require=__timbreRequire(import.meta.url);"],
    { cwd: ROOT, encoding: "utf8" },
  );

it("works bundled: index.mjs plus conversion-worker.js and RNNoise's package beside it", () => {
  const entry = join(out, "entry.ts");
  writeFileSync(
    entry,
    `import { readFileSync } from "node:fs";
     import { createVoiceConverter } from ${JSON.stringify(join(ROOT, "functions", "media", "voice-conversion", "converter.ts"))};
     const c = createVoiceConverter({ size: 1 });
     const wav = new Uint8Array(readFileSync(process.argv[2]));
     const tone = new Float32Array(22050 * 2).map((_, i) => 0.3 * Math.sin((2 * Math.PI * 200 * i) / 22050) + 0.1 * Math.sin((2 * Math.PI * 400 * i) / 22050));
     const target = await c.measure(tone, 22050);
     const input = { bytes: wav, fileFormat: "other", maxBytes: 1e7, maxSeconds: 60, format: "pcm_16000" };
     let converted = 0;
     const job = c.convert({ ...input, target, settings: { stability: 1, similarity_boost: 0.75, style: 0, use_speaker_boost: true }, seed: 1, removeBackgroundNoise: true });
     for await (const p of job.chunks) converted += p.audio.length;
     let isolated = 0;
     for await (const p of c.isolate(input).chunks) isolated += p.audio.length;
     // MP3 out: LAME's loader from the package's runtime files alone (no package.json).
     const mp3 = [];
     for await (const p of c.isolate({ ...input, format: "mp3_44100_128" }).chunks) mp3.push(...p.audio);
     await c.close();
     process.stdout.write(JSON.stringify({ f0: target.f0MedianHz, converted, isolated, mp3: mp3.length, mp3Head: mp3.slice(0, 2) }));`,
  );
  const worker = spawnSync(join(ROOT, "node_modules", ".bin", "esbuild"), workerBundleArgs(["conversion-worker.js"], [PACKAGE, MP3_PACKAGE], ROOT, out), { cwd: ROOT, encoding: "utf8" });
  const built = [esbuild(entry, join(out, "index.mjs")), worker];
  for (const b of built) expect(b.status, b.stderr).toBe(0);
  rmSync(entry);
  // Only the files the Lambda asset copies (RUNTIME_FILES).
  for (const pkg of [PACKAGE, MP3_PACKAGE]) {
    for (const f of RUNTIME_FILES[pkg]) {
      mkdirSync(dirname(join(out, "node_modules", pkg, f)), { recursive: true });
      cpSync(join(ROOT, "node_modules", pkg, f), join(out, "node_modules", pkg, f));
    }
  }
  const wavFile = join(out, "tone.wav");
  writeFileSync(wavFile, encodeWav(toneInt16(150, 22050, 2, 0.4), 22050));
  const r = spawnSync(process.execPath, [join(out, "index.mjs"), wavFile], { cwd: tmpdir(), encoding: "utf8", timeout: 60_000 });
  expect(r.status, r.stderr).toBe(0);
  const result = JSON.parse(r.stdout) as { f0: number; converted: number; isolated: number; mp3: number; mp3Head: number[] };
  expect(Math.abs(result.f0 - 200)).toBeLessThan(4);
  // Two seconds of 16 kHz 16-bit PCM each.
  expect(result.converted).toBe(2 * 16000 * 2);
  expect(result.isolated).toBe(2 * 16000 * 2);
  // Two seconds at 128 kbit/s, starting with an MPEG audio frame (sync word 0xFFE).
  expect(result.mp3).toBeGreaterThan(30_000);
  expect(result.mp3Head[0]).toBe(0xff);
  expect(result.mp3Head[1] & 0xe0).toBe(0xe0);
}, 120_000);
