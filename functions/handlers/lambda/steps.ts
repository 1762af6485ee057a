import { runStep } from "../workflows/index.js";
import { bootContext } from "./boot.js";

/** Every workflow's step Lambda: Step Functions invokes it with {workflow, step, input}. */
const { ctx } = await bootContext({ sessionSecret: "none" });

export const handler = (event: unknown): Promise<unknown> => runStep(event, ctx);
