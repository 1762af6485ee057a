import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { ASSISTANT, ASSISTANT_CLOSE, assistantMessages, type AssistantServerMessage } from "../../functions/platform/contract/assistant.js";
import { charge } from "../../functions/platform/domain/credits.js";
import { createTestAccount, startTestStack } from "../support/stack.js";

/** A call over the embedded stack's websocket: records what the server sends; runs tool calls as a page would (ok). */
function call(stack: EmbeddedStack, apiKey: string, opts: { toolResult?: (m: Extract<AssistantServerMessage, { type: "tool_call" }>) => { ok: boolean; value?: string; error?: string } } = {}) {
  const ws = new WebSocket(stack.url.replace(/^http/, "ws") + ASSISTANT.path, [ASSISTANT.subprotocol, `${ASSISTANT.apiKeyPrefix}${apiKey}`]);
  const messages: AssistantServerMessage[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.once("close", (code, reason) => resolve({ code, reason: reason.toString() })));
  ws.on("message", (d) => {
    const m = JSON.parse(d.toString()) as AssistantServerMessage;
    messages.push(m);
    if (m.type === "tool_call") ws.send(JSON.stringify({ type: "tool_result", id: m.call.id, ...(opts.toolResult?.(m) ?? { ok: true }) }));
  });
  const opened = new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  const send = (m: unknown) => ws.send(typeof m === "string" ? m : JSON.stringify(m));
  return { ws, messages, closed, opened, send };
}

function refusedWith(stack: EmbeddedStack, protocols: string[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(stack.url.replace(/^http/, "ws") + ASSISTANT.path, protocols);
    ws.once("open", () => reject(new Error("the upgrade was accepted")));
    ws.once("error", () => undefined);
    ws.once("unexpected-response", (_req, res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
  });
}

const until = (get: () => unknown, timeout = 60_000) => expect.poll(get, { timeout, interval: 50 }).toBeTruthy();
const of = <T extends AssistantServerMessage["type"]>(ms: AssistantServerMessage[], type: T) => ms.filter((m): m is Extract<AssistantServerMessage, { type: T }> => m.type === type);

/** A fake server for what cannot run here: an OpenAI-compatible model and transcription server. */
async function fakeServer(handle: (path: string, body: Buffer) => unknown): Promise<{ url: string; server: Server; requests: Array<{ path: string; body: Buffer }> }> {
  const requests: Array<{ path: string; body: Buffer }> = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => {
      const body = Buffer.concat(parts);
      requests.push({ path: req.url ?? "", body });
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(handle(req.url ?? "", body)));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, requests };
}

describe("the support assistant's call on the embedded stack (offline brain)", () => {
  let stack: EmbeddedStack;
  let account: Awaited<ReturnType<typeof createTestAccount>>;
  beforeAll(async () => {
    stack = await startTestStack();
    account = await createTestAccount(stack, "creator");
  }, 120_000);
  afterAll(async () => stack?.close());

  it("refuses a call without credentials, with a wrong key or without its protocol", async () => {
    const none = await refusedWith(stack, [ASSISTANT.subprotocol]);
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body).detail.status).toBe("invalid_api_key");
    expect((await refusedWith(stack, [ASSISTANT.subprotocol, `${ASSISTANT.apiKeyPrefix}sk_wrong`])).status).toBe(401);
    const noProtocol = await refusedWith(stack, [`${ASSISTANT.apiKeyPrefix}${account.apiKey}`]);
    expect(noProtocol.status).toBe(400);
    expect(JSON.parse(noProtocol.body).detail.status).toBe("invalid_subprotocol");
  });

  it("takes the user to the voice library, searches it, and speaks the answer in Timbre's voice", async () => {
    const c = call(stack, account.apiKey);
    await c.opened;
    expect(c.ws.protocol).toBe(ASSISTANT.subprotocol);
    await until(() => of(c.messages, "ready").length);
    c.send({ type: "context", route: "/app", elements: [] });
    c.send({ type: "user_text", text: "take me to the voice library and search for a deep voice" });
    await until(() => of(c.messages, "audio_end").length);
    const calls = of(c.messages, "tool_call").map((m) => ({ name: m.call.name, params: m.call.params }));
    expect(calls).toEqual([
      { name: "go_to_route", params: { route: "voice_library" } },
      { name: "set_value", params: { element: "Search the library", value: "deep" } },
    ]);
    const audio = of(c.messages, "audio");
    expect(audio.length).toBeGreaterThan(0);
    const mp3 = Buffer.from(audio[0]!.audio, "base64");
    expect(mp3.length).toBeGreaterThan(500);
    expect(mp3[0] === 0x49 /* ID3 */ || (mp3[0] === 0xff && (mp3[1]! & 0xe0) === 0xe0)).toBe(true);
    c.ws.close();
    await c.closed;
  }, 120_000);

  it("answers the credits left with the account's real figure, read on the server", async () => {
    await charge(stack.ctx, { workspaceId: account.workspace.workspace_id, key: `assistant-test-${Date.now()}`, amount: 4321 });
    const c = call(stack, account.apiKey);
    await c.opened;
    c.send({ type: "user_text", text: "How many credits do I have left?" });
    await until(() => of(c.messages, "assistant_text").length);
    expect(of(c.messages, "assistant_text")[0]!.text).toContain("95,679 credits left");
    c.ws.close();
  }, 120_000);

  it("stops speaking when the user barges in, and answers the next turn", async () => {
    const c = call(stack, account.apiKey);
    await c.opened;
    c.send({ type: "user_text", text: "how do I clone a voice" });
    c.send({ type: "interrupt" });
    c.send({ type: "user_text", text: "what plan am I on" });
    await until(() => of(c.messages, "audio_end").length);
    expect(of(c.messages, "audio").every((m) => m.turn === 2)).toBe(true);
    expect(of(c.messages, "audio_end").map((m) => m.turn)).toEqual([2]);
    c.ws.close();
  }, 120_000);

  it("bounds what a message may carry, how many turns a minute, and refuses binary frames", async () => {
    const c = call(stack, account.apiKey);
    await c.opened;
    c.send("not json");
    c.send({ type: "user_text", text: "x".repeat(ASSISTANT.maxUtteranceChars + 1) });
    await until(() => of(c.messages, "error").length >= 2);
    expect(of(c.messages, "error").slice(0, 2)).toEqual([
      { type: "error", code: "invalid_message", message: assistantMessages.badMessage },
      { type: "error", code: "message_too_long", message: assistantMessages.tooLong },
    ]);
    for (let i = 0; i < ASSISTANT.maxTurnsPerMinute; i++) c.send({ type: "user_text", text: "hello" });
    await until(() => of(c.messages, "error").some((m) => m.code === "too_fast"));
    expect(of(c.messages, "error").find((m) => m.code === "too_fast")!.message).toBe(assistantMessages.tooFast);
    c.ws.send(Buffer.from([1, 2, 3]));
    expect((await c.closed).code).toBe(ASSISTANT_CLOSE.unsupportedData);

    const big = call(stack, account.apiKey);
    await big.opened;
    big.send({ type: "user_text", text: "y".repeat(ASSISTANT.maxMessageBytes) });
    expect((await big.closed).code).toBe(1009);
  }, 120_000);

  it("says a recording cannot be transcribed when no transcription server is configured", async () => {
    const c = call(stack, account.apiKey);
    await c.opened;
    c.send({ type: "user_audio", audio: Buffer.from("RIFF").toString("base64"), mime: "audio/wav" });
    await until(() => of(c.messages, "error").length);
    expect(of(c.messages, "error")[0]).toEqual({ type: "error", code: "transcription_not_configured", message: assistantMessages.transcriptionOff });
    c.ws.close();
  }, 60_000);
});

describe("the support assistant through a model and a transcription server (fakes started by the test)", () => {
  let stack: EmbeddedStack;
  let account: Awaited<ReturnType<typeof createTestAccount>>;
  let llm: Awaited<ReturnType<typeof fakeServer>>;
  let stt: Awaited<ReturnType<typeof fakeServer>>;
  beforeAll(async () => {
    // The model: first a round of tool calls, then (after their results) the answer.
    llm = await fakeServer((_path, body) => {
      const req = JSON.parse(body.toString()) as { messages: Array<{ role: string; content: string | null }>; tools?: unknown[] };
      const last = req.messages.at(-1)!;
      const asked = req.messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
      // Asked to generate, it keeps pressing the paid button while it is offered tools.
      if (/generate/.test(asked)) {
        if (!req.tools) return { choices: [{ message: { role: "assistant", content: "You declined, so nothing was generated." } }] };
        return { choices: [{ message: { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "click", arguments: JSON.stringify({ element: "Generate speech" }) } }] } }] };
      }
      if (last.role === "tool") return { choices: [{ message: { role: "assistant", content: "Here is the Voice Library, searched for deep voices." } }] };
      return {
        choices: [
          {
            message: {
              role: "assistant",
              content: null,
              tool_calls: [
                { id: "c1", type: "function", function: { name: "go_to_route", arguments: JSON.stringify({ route: "voice_library" }) } },
                { id: "c2", type: "function", function: { name: "set_value", arguments: JSON.stringify({ element: "Search the library", value: "deep" }) } },
                { id: "c3", type: "function", function: { name: "show_support_link", arguments: JSON.stringify({ email: "attacker@example.com" }) } },
              ],
            },
          },
        ],
      };
    });
    stt = await fakeServer(() => ({ text: "take me to the voice library and search for a deep voice" }));
    stack = await startTestStack({
      env: {
        ASSISTANT_LLM_URL: `${llm.url}/v1`,
        ASSISTANT_LLM_API_KEY: "sk-fake",
        ASSISTANT_LLM_MODEL: "fake-model",
        ASSISTANT_LLM_MAX_TOKENS: "120",
        ASSISTANT_LLM_MAX_TOOL_ROUNDS: "2",
        ASSISTANT_TRANSCRIPTION_URL: stt.url,
      },
    });
    account = await createTestAccount(stack, "creator");
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
    llm?.server.close();
    stt?.server.close();
  });

  it("offers the model the client tools, the docs and the account, and runs its tool calls in the page", async () => {
    const c = call(stack, account.apiKey);
    await c.opened;
    c.send({ type: "context", route: "/app/speech-synthesis/text-to-speech", elements: [{ label: "Search the library", role: "searchbox" }] });
    c.send({ type: "user_text", text: "find me a deep voice" });
    await until(() => of(c.messages, "audio_end").length);
    const calls = of(c.messages, "tool_call").map((m) => ({ name: m.call.name, params: m.call.params }));
    expect(calls).toEqual([
      { name: "go_to_route", params: { route: "voice_library" } },
      { name: "set_value", params: { element: "Search the library", value: "deep" } },
      // The e-mail comes from the account, never from the model.
      { name: "show_support_link", params: { email: account.email } },
    ]);
    expect(of(c.messages, "assistant_text").map((m) => m.text)).toEqual(["Here is the Voice Library, searched for deep voices."]);
    const first = JSON.parse(llm.requests[0]!.body.toString());
    expect(llm.requests[0]!.path).toBe("/v1/chat/completions");
    expect(first.model).toBe("fake-model");
    expect(first.max_tokens).toBe(120);
    expect(first.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(["highlight", "click", "clear", "get_value", "set_value", "go_to_route", "show_documentation_link", "show_support_link"]);
    expect(first.messages[0].content).toContain("Instant Voice Clone");
    expect(first.messages[0].content).toContain('"totalAvailableMonthlyCredits":100000');
    expect(first.messages[0].content).toContain("Search the library (searchbox)");
    const second = JSON.parse(llm.requests[1]!.body.toString());
    expect(second.messages.filter((m: { role: string }) => m.role === "tool").map((m: { content: string }) => JSON.parse(m.content))).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    c.ws.close();
  }, 120_000);

  it("marks a click on a paid control so the page asks the user first, and bounds the tool rounds", async () => {
    llm.requests.length = 0;
    const c = call(stack, account.apiKey, { toolResult: () => ({ ok: false, error: assistantMessages.paidDeclined }) });
    await c.opened;
    c.send({ type: "context", route: "/app/speech-synthesis/text-to-speech", elements: [{ label: "Generate speech", role: "button", paid: true }] });
    c.send({ type: "user_text", text: "generate it for me" });
    await until(() => of(c.messages, "audio_end").length);
    const clicks = of(c.messages, "tool_call");
    expect(clicks[0]!.call).toMatchObject({ name: "click", params: { element: "Generate speech", paid: true } });
    // Two rounds of tools at most, then a last request without tools for the answer.
    expect(llm.requests).toHaveLength(3);
    expect(JSON.parse(llm.requests[2]!.body.toString()).tools).toBeUndefined();
    expect(of(c.messages, "assistant_text").at(-1)!.text).toBe("You declined, so nothing was generated.");
    c.ws.close();
  }, 120_000);

  it("sends recorded speech to the transcription server and answers what it heard", async () => {
    const c = call(stack, account.apiKey);
    await c.opened;
    c.send({ type: "user_audio", audio: Buffer.from("RIFF....WAVEfmt ").toString("base64"), mime: "audio/wav" });
    await until(() => of(c.messages, "audio_end").length);
    expect(of(c.messages, "transcript")).toEqual([{ type: "transcript", text: "take me to the voice library and search for a deep voice" }]);
    expect(stt.requests[0]!.path).toBe("/v1/audio/transcriptions");
    expect(stt.requests[0]!.body.toString()).toContain('name="model"');
    expect(of(c.messages, "tool_call").map((m) => m.call.name)).toContain("set_value");
    c.ws.close();
  }, 120_000);
});
