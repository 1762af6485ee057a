import "./polyfills.js";
import { randomUUID } from "node:crypto";
import type { AppContext } from "../../functions/platform/context.js";
import type { WorkflowStarter } from "../../functions/platform/adapters/workflows.js";
import { runStep } from "../../functions/handlers/workflows/index.js";
import type { Definitions } from "./definitions.js";

type Json = Record<string, unknown>;
type TaskHandler = (input: unknown) => Promise<unknown>;

interface AslState {
  Type: string;
  Resource?: string;
  ItemProcessor?: { States: Record<string, AslState> };
  Iterator?: { States: Record<string, AslState> };
  Branches?: Array<{ States: Record<string, AslState> }>;
}

export interface ExecutionRecord {
  id: string;
  workflow: string;
  input: Json;
  status: "RUNNING" | "SUCCEEDED" | "FAILED";
  output?: unknown;
  error?: string;
  done: Promise<void>;
}

/**
 * Runs the CDK-rendered ASL in-process with aws-local-stepfunctions. Every Lambda task is
 * answered by the same step handlers the workflow Lambda runs on AWS.
 */
export class LocalWorkflowRunner implements WorkflowStarter {
  readonly executions = new Map<string, ExecutionRecord>();
  private ctx: AppContext | undefined;

  /** Singleton workflows asked to start while one runs: start once more when it ends. */
  private readonly rerun = new Set<string>();

  /**
   * Workflows whose definition passed the library's validation. A definition does not change
   * while the stack runs, and validating compiles JSON schemas (tens of ms of the request loop
   * each time): the webhook dispatcher starts every 5 s.
   */

  constructor(
    private readonly defs: Definitions,
    private readonly options: {
      waitOverrideMs?: number;
      /** Workflows that run one execution at a time (the webhook dispatcher): a start while one runs queues one more run. */
      singletons?: readonly string[];
    } = {},
  ) {}

  /** The running execution of `workflow`, if any. */
  running(workflow: string): ExecutionRecord | undefined {
    for (const e of this.executions.values()) if (e.workflow === workflow && e.status === "RUNNING") return e;
    return undefined;
  }

  /** Finished executions are kept for inspection, the latest 200 of them. */
  private prune(): void {
    const finished = [...this.executions.values()].filter((e) => e.status !== "RUNNING");
    for (const e of finished.slice(0, Math.max(0, finished.length - 200))) this.executions.delete(e.id);
  }

  bind(ctx: AppContext): void {
    this.ctx = ctx;
  }

  private handlers(states: Record<string, AslState>, out: Record<string, TaskHandler> = {}): Record<string, TaskHandler> {
    for (const [name, s] of Object.entries(states)) {
      if (s.Type === "Task" && s.Resource?.startsWith("arn:aws:lambda:")) {
        out[name] = (input) => runStep(input, this.ctx!);
      } else if (s.Type === "Task" && s.Resource === "arn:aws:states:::lambda:invoke") {
        out[name] = async (input) => ({ Payload: await runStep((input as { Payload: unknown }).Payload, this.ctx!), StatusCode: 200 });
      }
      const nested = s.ItemProcessor ?? s.Iterator;
      if (nested) this.handlers(nested.States, out);
      s.Branches?.forEach((b) => this.handlers(b.States, out));
    }
    return out;
  }

  private waits(states: Record<string, AslState>, out: Record<string, number> = {}): Record<string, number> {
    if (this.options.waitOverrideMs === undefined) return out;
    for (const [name, s] of Object.entries(states)) {
      if (s.Type === "Wait") out[name] = this.options.waitOverrideMs;
      const nested = s.ItemProcessor ?? s.Iterator;
      if (nested) this.waits(nested.States, out);
      s.Branches?.forEach((b) => this.waits(b.States, out));
    }
    return out;
  }

  async start(workflow: string, input: Json, name?: string): Promise<{ executionId: string }> {
    if (!this.ctx) throw new Error("workflow runner used before the context was bound");
    const def = this.defs.workflows[workflow];
    if (!def) throw new Error(`Unknown workflow "${workflow}"`);
    if (name && this.executions.get(name)?.status === "RUNNING") return { executionId: name };
    if (this.options.singletons?.includes(workflow)) {
      const current = this.running(workflow);
      if (current) {
        this.rerun.add(workflow);
        return { executionId: current.id };
      }
    }
    const { StateMachine } = await import("aws-local-stepfunctions");
    const asl = structuredClone(def.asl) as { States: Record<string, AslState> };
    // The runner mutates the definition it is given, hence the clone.
    // Validated when the definitions were rendered (validateWorkflows in ./definitions.ts).
    const machine = new StateMachine(structuredClone(asl) as never, { validationOptions: { noValidate: true } });
    const id = name ?? randomUUID();
    const execution = machine.run(input as never, {
      overrides: { taskResourceLocalHandlers: this.handlers(asl.States) as never, waitTimeOverrides: this.waits(asl.States) },
    });
    const record: ExecutionRecord = { id, workflow, input, status: "RUNNING", done: Promise.resolve() };
    record.done = execution.result.then(
      (output: unknown) => {
        record.status = "SUCCEEDED";
        record.output = output;
      },
      (e: unknown) => {
        record.status = "FAILED";
        record.error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
        this.ctx?.log.warn("workflow failed", { workflow, execution: id, error: record.error });
      },
    ).then(() => {
      this.prune();
      if (this.rerun.delete(workflow) && !this.closed) void this.start(workflow, input).catch(() => undefined);
    });
    this.executions.set(id, record);
    return { executionId: id };
  }

  private closed = false;

  /** Resolves when every execution started so far (and any re-run they queued) has finished (tests, shutdown). */
  async idle(): Promise<void> {
    for (;;) {
      const running = [...this.executions.values()].filter((e) => e.status === "RUNNING");
      if (!running.length && !this.rerun.size) return;
      await Promise.all(running.map((e) => e.done));
      if (!running.length) await new Promise((r) => setTimeout(r, 5));
    }
  }

  /** No more re-runs after this (shutdown). */
  close(): void {
    this.closed = true;
    this.rerun.clear();
  }
}
