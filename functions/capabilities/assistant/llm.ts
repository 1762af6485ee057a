/**
 * The assistant through a model: any OpenAI-compatible chat-completions server with tool calling
 * (llama.cpp server, Ollama, vLLM or a hosted one; ASSISTANT_LLM_URL). The model gets the same
 * client tools as the offline brain, Timbre's knowledge and the account's variables as context.
 * Cost and time are bounded: max tokens per completion, max tool rounds per turn, a timeout per
 * request, and the history kept short.
 */
import { ASSISTANT, ASSISTANT_DOCS, ASSISTANT_ROUTES, CLIENT_TOOLS } from "../../platform/contract/assistant.js";
import type { Config } from "../../platform/config.js";
import type { PlannedCall, PageContext } from "./brain.js";
import { CANNOT_ANSWER, knowledgeText } from "./knowledge.js";
import type { AssistantAccount } from "./variables.js";

export type LlmConfig = NonNullable<Config["assistant"]["llm"]>;

const element = { type: "string", description: "The control's label as listed in the page context." };

/** The client tools as OpenAI function definitions. */
export function toolDefinitions(account: AssistantAccount) {
  const routes = ASSISTANT_ROUTES.filter((r) => !r.permission || account.permissions.has(r.permission)).map((r) => r.name);
  const fn = (name: (typeof CLIENT_TOOLS)[number], description: string, properties: Record<string, unknown>, required: string[]) => ({
    type: "function" as const,
    function: { name, description, parameters: { type: "object", properties, required, additionalProperties: false } },
  });
  return [
    fn("highlight", "Highlight a control on the page for the user.", { element, quick: { type: "boolean" } }, ["element"]),
    fn("click", "Click a control on the page. Paid actions ask the user to confirm first.", { element }, ["element"]),
    fn("clear", "Clear a text field on the page.", { element }, ["element"]),
    fn("get_value", "Read the value of a field on the page.", { element }, ["element"]),
    fn("set_value", "Type a value into a field on the page.", { element, value: { type: "string" } }, ["element", "value"]),
    fn("go_to_route", "Open one of the product's pages.", { route: { type: "string", enum: routes }, params: { type: "object", additionalProperties: { type: "string" } } }, ["route"]),
    fn("show_documentation_link", "Show a link to Timbre's documentation.", { doc: { type: "string", enum: Object.keys(ASSISTANT_DOCS) } }, ["doc"]),
    fn("show_support_link", "Open a support request form for the user, their e-mail prefilled.", {}, []),
  ];
}

export function systemPrompt(account: AssistantAccount, page: PageContext | null): string {
  const v = account.vars;
  const lines = [
    "You are El, the support assistant of Timbre, a voice and speech platform. Answer briefly (one to three sentences, spoken aloud).",
    "Use the tools to take the user where they need to go. Say plainly when you cannot answer; never invent features or figures.",
    `The user's account: ${JSON.stringify(v)}. Credits left: ${Math.max(0, v.totalAvailableMonthlyCredits - v.currentCreditsUsage)}.`,
    "What you know about Timbre:",
    knowledgeText(),
  ];
  if (page) lines.push(`The user is on ${page.route}. Controls on the page: ${page.elements.map((e) => `${e.label} (${e.role}${e.paid ? ", paid" : ""})`).join("; ") || "none listed"}.`);
  return lines.join("\n");
}

type Message =
  | { role: "system" | "user"; content: string }
  | { role: "assistant"; content: string | null; tool_calls?: WireToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string };

interface WireToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface ToolOutcome {
  ok: boolean;
  value?: string;
  error?: string;
}

/** A model's tool call -> the call the page runs, or why it is refused (the model hears the reason). */
export function plannedFromModel(name: string, args: string, account: AssistantAccount): PlannedCall | string {
  if (!(CLIENT_TOOLS as readonly string[]).includes(name)) return `Unknown tool ${name}.`;
  let parsed: unknown;
  try {
    parsed = args ? JSON.parse(args) : {};
  } catch {
    return "The arguments are not valid JSON.";
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return "The arguments must be an object.";
  const params: PlannedCall["params"] = {};
  for (const [k, val] of Object.entries(parsed)) {
    if (typeof val === "string" || typeof val === "boolean") params[k] = typeof val === "string" ? val.slice(0, ASSISTANT.maxUtteranceChars) : val;
    else if (k === "params" && typeof val === "object" && val !== null) params[k] = Object.fromEntries(Object.entries(val).filter(([, x]) => typeof x === "string")) as Record<string, string>;
  }
  // The e-mail comes from the account, never from the model.
  if (name === "show_support_link") return { name, params: { email: account.email } };
  return { name: name as PlannedCall["name"], params };
}

export interface TurnIO {
  say(text: string): void;
  runTool(call: PlannedCall): Promise<ToolOutcome>;
  signal: AbortSignal;
}

/** One user turn through the model: up to maxToolRounds rounds of tool calls, then the answer. */
export async function llmTurn(cfg: LlmConfig, history: Message[], utterance: string, account: AssistantAccount, page: PageContext | null, io: TurnIO): Promise<void> {
  const messages: Message[] = [{ role: "system", content: systemPrompt(account, page) }, ...history.slice(-8), { role: "user", content: utterance }];
  const tools = toolDefinitions(account);
  for (let round = 0; round <= cfg.maxToolRounds; round++) {
    const lastRound = round === cfg.maxToolRounds;
    const res = await fetch(`${cfg.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(cfg.apiKey ? { authorization: `Bearer ${cfg.apiKey}` } : {}) },
      body: JSON.stringify({ model: cfg.model, messages, max_tokens: cfg.maxTokens, ...(lastRound ? {} : { tools, tool_choice: "auto" }) }),
      signal: AbortSignal.any([io.signal, AbortSignal.timeout(cfg.timeoutMs)]),
    });
    if (!res.ok) throw new Error(`the assistant's model answered ${res.status}`);
    const body = (await res.json()) as { choices?: Array<{ message?: { content?: string | null; tool_calls?: WireToolCall[] } }> };
    const message = body.choices?.[0]?.message;
    const calls = (message?.tool_calls ?? []).slice(0, 4);
    const content = (message?.content ?? "").trim().slice(0, ASSISTANT.maxReplyChars);
    if (calls.length === 0 || lastRound) {
      const answer = content || CANNOT_ANSWER;
      io.say(answer);
      history.push({ role: "user", content: utterance }, { role: "assistant", content: answer });
      return;
    }
    if (content) io.say(content);
    messages.push({ role: "assistant", content: content || null, tool_calls: calls });
    for (const call of calls) {
      const planned = plannedFromModel(call.function.name, call.function.arguments, account);
      const outcome: ToolOutcome = typeof planned === "string" ? { ok: false, error: planned } : await io.runTool(planned);
      messages.push({ role: "tool", tool_call_id: call.id, content: JSON.stringify(outcome) });
    }
  }
}

export type { Message as LlmMessage };
