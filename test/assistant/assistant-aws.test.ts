import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { ASSISTANT, assistantMessages, type AssistantServerMessage } from "../../functions/platform/contract/assistant.js";
import { charge } from "../../functions/platform/domain/credits.js";
import { createAssistantHandler } from "../../functions/handlers/assistant.js";
import type { AssistantConnections } from "../../functions/capabilities/assistant/aws-calls.js";
import { startApiGatewayStandIn, type ApiGatewayStandIn } from "../support/api-gateway-websocket.js";
import { createTestAccount, startTestStack } from "../support/stack.js";

/**
 * The support assistant's websocket as it runs on AWS: the Lambda handler behind the loopback
 * stand-in for API Gateway's WebSocket API (one invocation per message, several at once), against
 * the embedded DynamoDB (the call's record, the pending tool calls, the workspace's places) and the
 * real engine. Only API Gateway itself is a stand-in.
 */
let stack: EmbeddedStack;
let gateway: ApiGatewayStandIn;
let account: Awaited<ReturnType<typeof createTestAccount>>;

beforeAll(async () => {
  stack = await startTestStack();
  account = await createTestAccount(stack, "creator");
  gateway = await startApiGatewayStandIn();
  // The stand-in posts any message as JSON, as API Gateway's @connections API does.
  gateway.bind(createAssistantHandler(stack.ctx, gateway.connections as unknown as AssistantConnections));
}, 120_000);
afterAll(async () => {
  await gateway?.close();
  await stack?.close();
});

const of = <T extends AssistantServerMessage["type"]>(ms: AssistantServerMessage[], type: T) => ms.filter((m): m is Extract<AssistantServerMessage, { type: T }> => m.type === type);
const until = (get: () => unknown, timeout = 90_000) => expect.poll(get, { timeout, interval: 50 }).toBeTruthy();

function call(protocols = [ASSISTANT.subprotocol, `${ASSISTANT.apiKeyPrefix}${account.apiKey}`]) {
  const ws = new WebSocket(gateway.url, protocols);
  const messages: AssistantServerMessage[] = [];
  ws.on("message", (d) => {
    const m = JSON.parse(d.toString()) as AssistantServerMessage;
    messages.push(m);
    // The page runs each tool and answers (as the card does).
    if (m.type === "tool_call") ws.send(JSON.stringify({ type: "tool_result", id: m.call.id, ok: true }));
  });
  const opened = new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("unexpected-response", (_req, res) => reject(new Error(`refused ${res.statusCode}`)));
    ws.once("error", reject);
  });
  const closed = new Promise<void>((resolve) => ws.once("close", () => resolve()));
  return { ws, messages, opened, closed, send: (m: unknown) => ws.send(JSON.stringify(m)) };
}

describe("the support assistant on AWS (API Gateway WebSocket API stand-in)", () => {
  it("refuses a call without credentials, and selects timbre-assistant, never the credential", async () => {
    await expect(call([ASSISTANT.subprotocol]).opened).rejects.toThrow("refused 401");
    await expect(call([ASSISTANT.subprotocol, `${ASSISTANT.apiKeyPrefix}sk_wrong`]).opened).rejects.toThrow("refused 401");
    const c = call();
    await c.opened;
    expect(c.ws.protocol).toBe(ASSISTANT.subprotocol);
    c.ws.close();
    await c.closed;
  });

  it("answers a typed question with text, speech and tool calls whose results come back as other invocations, then the real credit figure", async () => {
    const c = call();
    await c.opened;
    c.send({ type: "context", route: "/app", elements: [] });
    await until(() => of(c.messages, "ready").length);
    expect(of(c.messages, "ready")[0]!.first_name).toBe(account.user.first_name);
    c.send({ type: "user_text", text: "take me to the voice library and search for a deep voice" });
    await until(() => of(c.messages, "audio_end").length);
    // The second tool call is sent only once the first one's result (another invocation) was read.
    expect(of(c.messages, "tool_call").map((m) => ({ name: m.call.name, params: m.call.params }))).toEqual([
      { name: "go_to_route", params: { route: "voice_library" } },
      { name: "set_value", params: { element: "Search the library", value: "deep" } },
    ]);
    expect(of(c.messages, "assistant_text").length).toBe(1);
    const audio = of(c.messages, "audio");
    expect(audio.length).toBeGreaterThan(0);
    const mp3 = Buffer.from(audio[0]!.audio, "base64");
    expect(mp3[0] === 0x49 /* ID3 */ || (mp3[0] === 0xff && (mp3[1]! & 0xe0) === 0xe0)).toBe(true);
    // Every message of the turn came before its audio_end, in order.
    expect(c.messages[c.messages.length - 1]!.type).toBe("audio_end");

    await charge(stack.ctx, { workspaceId: account.workspace.workspace_id, key: `assistant-aws-${Date.now()}`, amount: 1234 });
    c.send({ type: "user_text", text: "how many credits do I have left" });
    await until(() => of(c.messages, "audio_end").length === 2);
    expect(of(c.messages, "assistant_text")[1]!.text).toContain("98,766 credits left");
    expect(of(c.messages, "assistant_text")[1]!.text).not.toBe(of(c.messages, "assistant_text")[0]!.text);

    // Pending tool records are gone; $disconnect removes the call and frees its place.
    const call0 = (await stack.ctx.stores.tables.ledger.queryPrefix<{ pk: string }>(`WS#${account.workspace.workspace_id}`, "ASSISTANT"))[0] as { conns?: Record<string, number> } | undefined;
    const [connectionId] = Object.keys(call0?.conns ?? {});
    expect(connectionId).toBeTruthy();
    expect(await stack.ctx.stores.tables.ledger.queryPrefix(`ASSIST#${connectionId}`, "TOOL#")).toEqual([]);
    c.ws.close();
    await c.closed;
    await expect.poll(() => stack.ctx.stores.assistantCalls.get(connectionId!), { timeout: 10_000 }).toBeUndefined();
    expect(gateway.failures).toEqual([]);
  }, 240_000);

  it("caps the workspace's open calls, and answers bad messages with the error shape", async () => {
    const open = Array.from({ length: ASSISTANT.maxSessionsPerWorkspace }, () => call());
    await Promise.all(open.map((c) => c.opened));
    await expect(call().opened).rejects.toThrow("refused 429");
    open[0]!.ws.send("not json");
    await until(() => of(open[0]!.messages, "error").length);
    expect(of(open[0]!.messages, "error")[0]).toEqual({ type: "error", code: "invalid_message", message: assistantMessages.badMessage });
    for (const c of open) c.ws.close();
    await Promise.all(open.map((c) => c.closed));
  }, 60_000);

  it("hands the call card the websocket's URL from the configuration and lets its pages connect to that origin only", async () => {
    const url = "wss://def456.execute-api.eu-west-1.amazonaws.com/assistant";
    const web = await startTestStack({ web: true, env: { ASSISTANT_SOCKET_URL: url } });
    try {
      const r = await fetch(new URL("/sign-in", web.url));
      expect(r.status).toBe(200);
      expect(r.headers.get("content-security-policy") ?? "").toContain("connect-src 'self' wss://def456.execute-api.eu-west-1.amazonaws.com;");
      // The root loader's data, serialised into the page for the card.
      expect(await r.text()).toContain(url);
    } finally {
      await web.close();
    }
  }, 60_000);
});
