import { describe, expect, it } from "vitest";
import { checkOperatorSettings, withOperatorSecrets } from "./operatorSettings.js";

describe("the operator's settings on AWS", () => {
  it("takes the plain settings as an object or JSON text, checked as the product checks them", () => {
    expect(checkOperatorSettings('{"ASSISTANT_LLM_URL":"https://llm.example/v1","ASSISTANT_LLM_MAX_TOKENS":200}')).toEqual({ ASSISTANT_LLM_URL: "https://llm.example/v1", ASSISTANT_LLM_MAX_TOKENS: "200" });
    expect(() => checkOperatorSettings({ ASSISTANT_LLM_MAX_TOKENS: "999999" })).toThrow(/ASSISTANT_LLM_MAX_TOKENS/);
    expect(() => checkOperatorSettings(["ASSISTANT_LLM_URL"])).toThrow(/JSON object/);
    expect(() => checkOperatorSettings({ ASSISTANT_LLM_URL: { url: "x" } })).toThrow(/must be a string/);
  });

  it("adds the secret's settings to the environment, refuses other names, and never puts a value in an error", () => {
    const env = withOperatorSecrets({ A: "1" }, JSON.stringify({ ASSISTANT_LLM_API_KEY: "sk-secret-value", REMOTE_ENGINES: "[]" }));
    expect(env).toEqual({ A: "1", ASSISTANT_LLM_API_KEY: "sk-secret-value", REMOTE_ENGINES: "[]" });
    let message = "";
    try {
      withOperatorSecrets({}, JSON.stringify({ SESSION_SECRET: "sk-secret-value" }));
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/unknown setting SESSION_SECRET/);
    expect(message).not.toContain("sk-secret-value");
    expect(() => withOperatorSecrets({}, "sk-secret-value")).toThrow(/^OPERATOR_SECRETS_ARN: not valid JSON$/);
  });
});
