import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { ElevenLabsClient, ElevenLabsError } from "@elevenlabs/elevenlabs-js";
import { bundlePath, DEPENDENCY_BUNDLES } from "./dependency-bundles.js";

// What the file process loaded (Node's CommonJS cache: vitest imports node_modules natively).
const loaded = () => Object.keys(createRequire(import.meta.url).cache);
const sdk = DEPENDENCY_BUNDLES.find((b) => b.name === "@elevenlabs/elevenlabs-js")!;

describe("the tests' dependency bundles (test/support/dependency-bundles.ts)", () => {
  // Either way one test, so that no run skips it: TIMBRE_TEST_SDK_BUNDLE=0 checks the escape hatch.
  it("the official SDK is loaded from its one-file bundle, none of the package's own files (TIMBRE_TEST_SDK_BUNDLE=0: as installed)", () => {
    const files = loaded();
    const installed = files.filter((f) => f.includes("/node_modules/@elevenlabs/elevenlabs-js/"));
    if (process.env.TIMBRE_TEST_SDK_BUNDLE === "0") {
      expect(files).not.toContain(bundlePath(sdk));
      expect(installed).toContain(createRequire(import.meta.url).resolve("@elevenlabs/elevenlabs-js"));
    } else {
      expect(files).toContain(bundlePath(sdk));
      expect(installed).toEqual([]);
    }
  });

  it("the SDK's named exports are there either way", () => {
    expect(typeof ElevenLabsClient).toBe("function");
    expect(new ElevenLabsError({ message: "x", statusCode: 404 })).toBeInstanceOf(Error);
    expect(new ElevenLabsClient({ apiKey: "k", baseUrl: "http://127.0.0.1:9" }).textToSpeech).toBeDefined();
  });
});
