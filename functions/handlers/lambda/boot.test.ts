import { describe, expect, it } from "vitest";
import { parseConfig } from "../../platform/config.js";
import { withSecretSettings } from "./boot.js";

describe("a Lambda container's configuration", () => {
  it("boots with the secret read once at cold start, as the configuration of the whole process", async () => {
    const arn = "arn:aws:secretsmanager:eu-west-1:123456789012:secret:op-AbCdEf";
    const asked: string[] = [];
    const env = { OPERATOR_SECRETS_ARN: arn, ASSISTANT_LLM_URL: "https://llm.example/v1" };
    const cfg = await withSecretSettings(parseConfig(env), async (_region, a) => {
      asked.push(a);
      return JSON.stringify({ ASSISTANT_LLM_API_KEY: "sk-from-the-secret" });
    }, env);
    expect(asked).toEqual([arn]);
    expect(cfg.assistant.llm?.apiKey).toBe("sk-from-the-secret");
    // Without the ARN nothing is read; a broken secret stops the start with its reason.
    expect(await withSecretSettings(parseConfig({}), () => Promise.reject(new Error("not called")))).toBeDefined();
    await expect(withSecretSettings(parseConfig({ OPERATOR_SECRETS_ARN: arn }), async () => "[1]", {})).rejects.toThrow(/Invalid configuration: OPERATOR_SECRETS_ARN: expected a JSON object/);
  });
});
