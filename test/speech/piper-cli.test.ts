import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { ROOT } from "../../scripts/lib/server-bundle.mjs";
import { writeTinyVoice } from "../support/piper-model.js";
import { piperVoiceId } from "../../functions/handlers/seed/piper.js";

/** `npm run voices -- add FILE.onnx` and `npm run voices -- list` (scripts/voices.ts), as a user runs them. */
vi.setConfig({ testTimeout: 120_000 });

const work = mkdtempSync(join(tmpdir(), "timbre-piper-cli-"));
const src = join(work, "downloads");
const dest = join(work, "data", "voices", "piper");
afterAll(() => rmSync(work, { recursive: true, force: true }));

function voices(...args: string[]) {
  const r = spawnSync(process.execPath, ["--import", "tsx", join(ROOT, "scripts", "voices.ts"), ...args], {
    cwd: ROOT,
    encoding: "utf8",
    // The folder from DATA_DIR, as npm start finds it.
    env: { ...process.env, DATA_DIR: join(work, "data"), PIPER_VOICES_DIR: "" },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe("npm run voices", () => {
  it("adds a checked voice with its json, refuses broken ones and overwriting, and lists what start-up will load", () => {
    writeTinyVoice(src, "en_US-cli-medium");
    writeTinyVoice(src, "duo", { speakerNames: ["ann", "ben"] });
    writeTinyVoice(src, "wrongsig", { inputName: "ids" });
    writeTinyVoice(src, "nojson");
    rmSync(join(src, "nojson.onnx.json"));

    const added = voices("add", join(src, "en_US-cli-medium.onnx"));
    expect(added.err).toBe("");
    expect(added.code).toBe(0);
    expect(added.out).toContain(`voice_id ${piperVoiceId("en_US-cli-medium", null)}`);
    expect(existsSync(join(dest, "en_US-cli-medium.onnx"))).toBe(true);
    expect(existsSync(join(dest, "en_US-cli-medium.onnx.json"))).toBe(true);

    const duo = voices("add", join(src, "duo.onnx"));
    expect(duo.code).toBe(0);
    expect(duo.out).toContain(`#1 ben  voice_id ${piperVoiceId("duo", 1)}`);

    const again = voices("add", join(src, "duo.onnx"));
    expect(again.code).toBe(1);
    expect(again.err).toContain("exists already (--force replaces it)");
    expect(voices("add", join(src, "duo.onnx"), "--force").code).toBe(0);

    const wrong = voices("add", join(src, "wrongsig.onnx"));
    expect(wrong.code).toBe(1);
    expect(wrong.err).toContain(`wrongsig.onnx: the model does not have Piper's signature: no input "input"`);
    const missing = voices("add", join(src, "nojson.onnx"));
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("nojson.onnx: no nojson.onnx.json beside it");
    expect(existsSync(join(dest, "wrongsig.onnx")) || existsSync(join(dest, "nojson.onnx"))).toBe(false);

    const list = voices("list");
    expect(list.code).toBe(0);
    expect(list.out).toContain(`Piper voices in ${dest}:`);
    expect(list.out).toContain("en_US-cli-medium  (en-us, 22050 Hz, eSpeak voice en-us)");
    expect(list.out).toContain("duo  (en-us, 22050 Hz, eSpeak voice en-us, 2 speakers)");

    expect(voices("remove", "x").code).toBe(2);
  });
});
