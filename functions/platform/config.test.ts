import { describe, expect, it } from "vitest";
import { parseConfig, parseFlags, ConfigError } from "./config.js";
import { pageContentSecurityPolicy } from "./http/security-headers.js";

describe("config", () => {
  it("has working defaults for the embedded stack", () => {
    const c = parseConfig({});
    expect(c.mode).toBe("embedded");
    expect(c.port).toBe(3000);
    expect(c.dataDir).toBe("./.data");
    expect(c.aws.dynamoEndpoint).toBeUndefined();
  });

  it("fails fast naming the variable that is wrong", () => {
    expect(() => parseConfig({ PORT: "abc" })).toThrow(ConfigError);
    expect(() => parseConfig({ PORT: "abc" })).toThrow(/PORT/);
    expect(() => parseConfig({ DEMO_API_KEY: "short" })).toThrow(/DEMO_API_KEY: must be at least 20 characters/);
    expect(() => parseConfig({ TIMBRE_MODE: "docker" })).toThrow(/TIMBRE_MODE/);
    expect(() => parseConfig({ STATE_MACHINES: "{not json" })).toThrow(/STATE_MACHINES/);
  });

  it("points every AWS client at LocalStack's edge in localstack mode", () => {
    const c = parseConfig({ TIMBRE_MODE: "localstack", LOCALSTACK_ENDPOINT: "http://localhost:4566" });
    expect(c.aws.dynamoEndpoint).toBe("http://localhost:4566");
    expect(c.aws.s3Endpoint).toBe("http://localhost:4566");
    expect(c.aws.sfnEndpoint).toBe("http://localhost:4566");
  });

  it("uses the real AWS endpoints in aws mode", () => {
    const c = parseConfig({ TIMBRE_MODE: "aws", STATE_MACHINES: '{"voice-purge":"arn:aws:states:us-east-1:1:stateMachine:x"}' });
    expect(c.aws.s3Endpoint).toBeUndefined();
    expect(c.aws.stateMachines["voice-purge"]).toMatch(/^arn:aws:states/);
  });

  it("backs up a PVC recording every 30 s unless PVC_RECORDING_BACKUP_SECONDS says otherwise (1 to 300)", () => {
    expect(parseConfig({}).recordingBackupMs).toBe(30_000);
    expect(parseConfig({ PVC_RECORDING_BACKUP_SECONDS: "4" }).recordingBackupMs).toBe(4000);
    expect(() => parseConfig({ PVC_RECORDING_BACKUP_SECONDS: "0" })).toThrow(/PVC_RECORDING_BACKUP_SECONDS/);
    expect(() => parseConfig({ PVC_RECORDING_BACKUP_SECONDS: "301" })).toThrow(/PVC_RECORDING_BACKUP_SECONDS/);
  });

  it("takes the live reading websocket's URL on AWS only as wss://, and lets the pages connect to its origin", () => {
    expect(parseConfig({}).liveReadingUrl).toBeUndefined();
    const url = "wss://abc123.execute-api.eu-west-1.amazonaws.com/live";
    expect(parseConfig({ LIVE_READING_URL: url }).liveReadingUrl).toBe(url);
    expect(() => parseConfig({ LIVE_READING_URL: "https://abc123.execute-api.eu-west-1.amazonaws.com/live" })).toThrow(/LIVE_READING_URL: must be a wss:\/\/ URL/);
    expect(() => parseConfig({ LIVE_READING_URL: "ws://abc123.execute-api.eu-west-1.amazonaws.com/live" })).toThrow(/LIVE_READING_URL/);
    expect(parseConfig({ LIVE_READING_URL: "ws://127.0.0.1:4510/live" }).liveReadingUrl).toBe("ws://127.0.0.1:4510/live");
    expect(pageContentSecurityPolicy("n")).toContain("connect-src 'self';");
    expect(pageContentSecurityPolicy("n", [new URL(url).origin])).toContain("connect-src 'self' wss://abc123.execute-api.eu-west-1.amazonaws.com;");
  });

  it("parses feature flags, including switching one off", () => {
    expect(parseFlags("dark-mode, productions,-voice-remix")).toEqual({ "dark-mode": true, productions: true, "voice-remix": false });
  });
});
