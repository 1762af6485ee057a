/**
 * The embedding's raw features and the shape of its background statistics: what both the
 * embedding (embedding.ts) and its generated background (background.ts) need.
 */
export const RAW_DIM = 60;

export const FEATURE_GROUPS = {
  mfccMean: [0, 19],
  mfccStd: [19, 38],
  deltaStd: [38, 50],
  pitch: [50, 54],
  spectrum: [54, 57],
  formants: [57, 60],
} as const satisfies Record<string, readonly [number, number]>;

export type FeatureGroup = keyof typeof FEATURE_GROUPS;

export interface Background {
  version: number;
  mean: readonly number[];
  /** Population standard deviation per feature. */
  scale: readonly number[];
  /** Per-feature multiplier: (population spread / within-voice spread) ^ power. */
  gain: readonly number[];
  weights: Readonly<Record<FeatureGroup, number>>;
}
