/**
 * One analysed (and mapped) frame of the conversion. The pulse-and-noise synthesiser that read these
 * frames was replaced by the grains of grains.ts (issue 26; docs/decisions/2026-11-29-sts-excitation.md).
 */
export interface SynthFrame {
  f0: number;
  /** Natural-log envelope power per bin. */
  logEnv: Float32Array;
  /** Aperiodicity per band (measured into the voice summaries; the grains keep the input's own noise). */
  ap: Float32Array;
}
