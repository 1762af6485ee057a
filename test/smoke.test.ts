import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ElevenLabsClient } from "@elevenlabs/elevenlabs-js";
import type { EmbeddedStack } from "../infra/local/stack.js";
import { startTestStack, createTestAccount } from "./support/stack.js";

let stack: EmbeddedStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => stack?.close());

describe("smoke", () => {
  it("answers models through the SDK", async () => {
    const acct = await createTestAccount(stack);
    const client = new ElevenLabsClient({ baseUrl: stack.url, apiKey: acct.apiKey });
    const models = await client.models.list();
    expect(models.map((m) => m.modelId)).toContain("eleven_multilingual_v2");
    const sub = await client.user.subscription.get();
    expect(sub.tier).toBe("free");
    const voices = await client.voices.search({ pageSize: 5 });
    expect(voices.voices).toHaveLength(5);
  });
});
