/**
 * Runs CPU-heavy request work (password hashing, lexicon parsing, the professional clone's audio
 * work) off the request loop. The tasks themselves are the capabilities' pure functions, listed
 * in functions/handlers/offload/tasks.ts, which also says how they run (`useCpuWorkers`: worker
 * threads in the embedded server; inline on Lambda, where a container serves one request at a
 * time). This module is what every layer calls; the handlers layer plugs the runner in, so the
 * platform does not import the capabilities (docs/architecture.md).
 */

/** Task name -> its function. Filled in by functions/handlers/offload/tasks.ts (declaration merging). */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface CpuTaskTable {}

export type CpuTaskKind = keyof CpuTaskTable & string;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Fn = (input: any) => unknown;
export type CpuInput<K extends CpuTaskKind> = CpuTaskTable[K] extends Fn ? Parameters<CpuTaskTable[K]>[0] : never;
export type CpuOutput<K extends CpuTaskKind> = CpuTaskTable[K] extends Fn ? Awaited<ReturnType<CpuTaskTable[K]>> : never;
export interface CpuMessage {
  kind: string;
  input: unknown;
}
export type CpuRunner = (message: CpuMessage, transfer?: ArrayBuffer[]) => Promise<unknown>;

let runner: CpuRunner | undefined;

/** Called by functions/handlers/offload: inline by default, worker threads while the embedded server uses them. */
export function setCpuRunner(r: CpuRunner): void {
  runner = r;
}

/** `transfer`: buffers moved to the worker instead of copied (the caller must not use them after). */
export async function runCpu<K extends CpuTaskKind>(kind: K, input: CpuInput<K>, transfer?: ArrayBuffer[]): Promise<CpuOutput<K>> {
  if (!runner) throw new Error("No CPU task runner: functions/handlers/offload is not loaded (every entry point imports it).");
  return (await runner({ kind, input }, transfer)) as CpuOutput<K>;
}
