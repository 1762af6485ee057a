/**
 * Feature flags the specs name, with their defaults. Configuration (FEATURE_FLAGS) overrides
 * the defaults for every workspace; a workspace may override again per flag.
 */
export const FLAG_DEFAULTS = {
  "speech-to-text-ui": false,
  productions: false,
  "batch-calling": false,
  integrations: false,
  "producer-teams": false,
  "dark-mode": true,
  "workspace-pronunciation-dictionaries": true,
  "pvc-audio-trimming": true,
  "voice-design-v3": true,
  "voice-remix": false,
  "auto-preview-text": true,
  /** The feed's flag-controlled notifications (app-shell.md §4): the plan upsell and the free-regeneration tip. */
  "upsell-notifications": true,
  "auto-regenerate-notifications": true,
  /** Data-residency isolated environment: hides Dubbing, Productions, Payouts; Voices opens the voice lab. */
  "isolated-environment": false,
} as const satisfies Record<string, boolean>;

export type FlagName = keyof typeof FLAG_DEFAULTS;
export type Flags = Record<FlagName, boolean>;

export function isFlagName(v: string): v is FlagName {
  return Object.hasOwn(FLAG_DEFAULTS, v);
}

export function resolveFlags(configured: Record<string, boolean>, workspaceOverrides: Record<string, boolean> = {}): Flags {
  const out = { ...FLAG_DEFAULTS } as Flags;
  for (const layer of [configured, workspaceOverrides]) {
    for (const [k, v] of Object.entries(layer)) if (isFlagName(k)) out[k] = v;
  }
  return out;
}
