import type { AppContext } from "../../platform/context.js";

/** A workflow step: JSON in, JSON out. Throwing an error named TransientError asks for a retry. */
export type StepHandler = (input: unknown, ctx: AppContext) => Promise<unknown>;
export type StepHandlers = Record<string, StepHandler>;

export class TransientError extends Error {
  override name = "TransientError";
}
