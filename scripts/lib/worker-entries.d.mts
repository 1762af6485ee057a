export interface WorkerEntry {
  readonly entry: string;
  readonly lambda: boolean;
}
export declare const WORKERS: {
  readonly worker: { readonly entry: "functions/media/engine/espeak/worker.ts"; readonly lambda: true };
  readonly "flite-worker": { readonly entry: "functions/media/engine/flite/flite-worker.ts"; readonly lambda: true };
  readonly "analysis-worker": { readonly entry: "functions/media/voice-analysis/analysis-worker.ts"; readonly lambda: true };
  readonly "conversion-worker": { readonly entry: "functions/media/voice-conversion/conversion-worker.ts"; readonly lambda: true };
  readonly "cpu-worker": { readonly entry: "functions/handlers/offload/worker.ts"; readonly lambda: false };
  readonly "emulators-worker": { readonly entry: "infra/local/emulators-worker.ts"; readonly lambda: false };
};
export declare const WORKER_ENTRY_POINTS: Record<string, string>;
