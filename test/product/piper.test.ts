import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEY, startServer, type Server } from "../../scripts/lib/bench-server.js";
import { writeTinyVoice } from "../support/piper-model.js";
import { piperVoiceId } from "../../functions/handlers/seed/piper.js";

/**
 * Issue 25 "Done when": a Piper voice file dropped in the folder appears and speaks, on the server
 * exactly as `npm start` runs it (the bundle, its piper-worker.js and ipa-worker.js, onnxruntime
 * loaded from node_modules), from the default folder DATA_DIR/voices/piper; a broken file there is
 * named with its reason in the start-up log and the server serves the rest.
 */
let dataDir: string;
let server: Server;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "timbre-piper-product-"));
  const folder = join(dataDir, "voices", "piper");
  writeTinyVoice(folder, "en_US-dropped-medium");
  writeFileSync(join(folder, "broken.onnx"), "not a model");
  ({ server } = await startServer(dataDir, { LOG_LEVEL: "info" }));
}, 240_000);

afterAll(async () => {
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("a Piper voice under npm start", () => {
  it("is listed, speaks, and a broken file is reported at start-up", async () => {
    const id = piperVoiceId("en_US-dropped-medium", null);
    const list = (await (await fetch(`${server.url}/v1/voices`, { headers: { "xi-api-key": DEMO_KEY } })).json()) as { voices: Array<{ voice_id: string; labels: Record<string, string> }> };
    expect(list.voices.find((v) => v.voice_id === id)?.labels.engine).toBe("piper");
    const res = await fetch(`${server.url}/v1/text-to-speech/${id}?output_format=mp3_44100_128`, {
      method: "POST",
      headers: { "xi-api-key": DEMO_KEY, "content-type": "application/json" },
      body: JSON.stringify({ text: "A voice dropped in the folder speaks.", model_id: "eleven_multilingual_v2" }),
    });
    expect(res.status).toBe(200);
    const mp3 = Buffer.from(await res.arrayBuffer());
    expect(mp3.length).toBeGreaterThan(4000);
    expect(mp3.subarray(0, 3).toString("latin1") === "ID3" || (mp3[0] === 0xff && (mp3[1] & 0xe0) === 0xe0)).toBe(true);
    expect(server.output()).toContain("Piper voice not loaded");
    expect(server.output()).toContain("broken.onnx: no broken.onnx.json beside it");
  });
});
