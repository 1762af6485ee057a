import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ElevenLabsClient } from "@elevenlabs/elevenlabs-js";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { startTestStack, createTestAccount } from "../support/stack.js";
import { probe, hasFfmpeg } from "../support/audio.js";
import { PREMADE_VOICES } from "../../functions/platform/domain/premadeVoices.js";
import { COMMUNITY_VOICES } from "../../functions/capabilities/voices/community.js";

let stack: EmbeddedStack;
let client: ElevenLabsClient;

beforeAll(async () => {
  stack = await startTestStack({ previews: true });
  await stack.previewsReady;
  const acct = await createTestAccount(stack, "free");
  client = new ElevenLabsClient({ baseUrl: stack.url, apiKey: acct.apiKey, maxRetries: 0 });
  // Every premade and community preview is synthesised first: about 25 s alone, more beside other files.
}, 180_000);
afterAll(async () => stack?.close());

describe("premade voices", () => {
  it("number at least 24, across at least 8 languages, both genders and three ages", () => {
    expect(PREMADE_VOICES.length).toBeGreaterThanOrEqual(24);
    expect(new Set(PREMADE_VOICES.map((v) => v.labels.language)).size).toBeGreaterThanOrEqual(8);
    expect(new Set(PREMADE_VOICES.map((v) => v.labels.gender))).toEqual(new Set(["male", "female"]));
    expect(new Set(PREMADE_VOICES.map((v) => v.labels.age))).toEqual(new Set(["young", "middle_aged", "old"]));
  });

  it("each has a preview generated at seed time, served without credentials", async () => {
    const { voices } = await client.voices.search({ voiceType: "default", pageSize: 100 });
    expect(voices).toHaveLength(PREMADE_VOICES.length);
    const durations: number[] = [];
    for (const v of voices) {
      expect(v.previewUrl, v.name!).toMatch(new RegExp(`/v1/voices/${v.voiceId}/preview$`));
      const r = await fetch(v.previewUrl!);
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toBe("audio/mpeg");
      const bytes = new Uint8Array(await r.arrayBuffer());
      if (hasFfmpeg && durations.length < 3) durations.push((await probe(bytes)).duration);
    }
    for (const d of durations) expect(d).toBeGreaterThan(1.5);
  });

  it("asks for credentials for anything but a premade preview, and answers 404 for an unknown voice", async () => {
    expect((await fetch(`${stack.url}/v1/voices/no-such-voice/preview`)).status).toBe(401);
    const acct = await createTestAccount(stack, "free");
    const r = await fetch(`${stack.url}/v1/voices/no-such-voice/preview`, { headers: { "xi-api-key": acct.apiKey } });
    expect(r.status).toBe(404);
  });
});

describe("community library voices", () => {
  it("each gets a real preview in the background, played without credentials", async () => {
    const { voices } = await client.voices.getShared({ pageSize: 100 });
    expect(voices).toHaveLength(COMMUNITY_VOICES.length);
    const durations: number[] = [];
    for (const v of voices) {
      expect(v.previewUrl, v.name).toMatch(new RegExp(`/v1/voices/${v.voiceId}/preview$`));
      const r = await fetch(v.previewUrl!);
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toBe("audio/mpeg");
      const bytes = new Uint8Array(await r.arrayBuffer());
      if (hasFfmpeg && durations.length < 3) durations.push((await probe(bytes)).duration);
    }
    for (const d of durations) expect(d).toBeGreaterThan(1.5);
  });
});
