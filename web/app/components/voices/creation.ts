import { permissionDeniedMessage, type PermissionId } from "../../../../functions/platform/domain/permissions.js";

/**
 * The Add a new voice dialog's state (voice-creation.md §2.1, §6): open while `mode=create`, the
 * chosen type in `creationType` (each change pushed to history), a type the user may not use
 * sends the dialog back to the chooser, and closing resets the type 1 second later.
 */
export const CREATION_TYPES = ["voiceDesign", "cloneVoice", "professionalVoiceClone", "chooseVoiceType"] as const;
export type CreationType = (typeof CREATION_TYPES)[number];
export type FlowType = Exclude<CreationType, "chooseVoiceType">;

export const CREATION_MODE_PARAM = "mode";
export const CREATION_MODE = "create";
export const CREATION_TYPE_PARAM = "creationType";
export const DEFAULT_CREATION_TYPE: CreationType = "chooseVoiceType";
export const CREATION_TYPE_RESET_MS = 1_000;

export const creationMessages = {
  ivcPlan: "You need to be on at least the Starter plan to use Instant Voice Cloning",
  pvcPlan: "You need to be on at least the Creator plan to use Professional Voice Cloning",
  slotsUsed: "You’ve used all of your custom voice slots. Upgrade to unlock more",
} as const;

export interface CreationContext {
  permissions: ReadonlySet<string>;
  /** From /v1/user/subscription; null while unknown (nothing is refused on a guess). */
  slots: {
    voice_limit: number;
    voice_slots_used: number;
    professional_voice_limit: number;
    can_use_instant_voice_cloning: boolean;
  } | null;
}

export type TileState = { allowed: true; reason: null } | { allowed: false; reason: string };

const ok: TileState = { allowed: true, reason: null };
const no = (reason: string): TileState => ({ allowed: false, reason });
const needs = (ctx: CreationContext, p: PermissionId): TileState | null => (ctx.permissions.has(p) ? null : no(permissionDeniedMessage(p)));

/** Whether each choice of the dialog is open to this user, and why not. */
export function creationTiles(ctx: CreationContext): Record<FlowType | "voiceLibrary", TileState> {
  const s = ctx.slots;
  return {
    voiceDesign: s && s.voice_slots_used >= s.voice_limit ? no(creationMessages.slotsUsed) : ok,
    cloneVoice: needs(ctx, "create_instant_voice_clone") ?? (s && !s.can_use_instant_voice_cloning ? no(creationMessages.ivcPlan) : ok),
    professionalVoiceClone: needs(ctx, "create_professional_voice_clone") ?? (s && s.professional_voice_limit <= 0 ? no(creationMessages.pvcPlan) : ok),
    voiceLibrary: needs(ctx, "add_voice_from_voice_library") ?? ok,
  };
}

/** The type to show for the query's value: unknown or not allowed returns to the chooser. */
export function resolveCreationType(value: string | null, ctx: CreationContext): CreationType {
  const type = (CREATION_TYPES as readonly string[]).includes(value ?? "") ? (value as CreationType) : DEFAULT_CREATION_TYPE;
  if (type === "chooseVoiceType") return type;
  return creationTiles(ctx)[type].allowed ? type : DEFAULT_CREATION_TYPE;
}

export const isCreationOpen = (params: URLSearchParams) => params.get(CREATION_MODE_PARAM) === CREATION_MODE;

/** The query string with the dialog open on `type` (the chooser when omitted). */
export function openCreation(params: URLSearchParams, type: CreationType = DEFAULT_CREATION_TYPE): URLSearchParams {
  const p = new URLSearchParams(params);
  p.set(CREATION_MODE_PARAM, CREATION_MODE);
  if (type === DEFAULT_CREATION_TYPE) p.delete(CREATION_TYPE_PARAM);
  else p.set(CREATION_TYPE_PARAM, type);
  return p;
}

/** The professional clone wizard's own parameters (the clone and its edit/verify flag), gone with the dialog. */
const PVC_PARAMS = ["createdVoiceId", "pvcMode"];

/**
 * Closing: the dialog goes at once with the wizard's parameters (one update: two in a row would
 * each start from the same query), its type stays until the reset a second later.
 */
export function closeCreation(params: URLSearchParams): URLSearchParams {
  const p = new URLSearchParams(params);
  p.delete(CREATION_MODE_PARAM);
  for (const k of PVC_PARAMS) p.delete(k);
  return p;
}

export function resetCreationType(params: URLSearchParams): URLSearchParams {
  const p = new URLSearchParams(params);
  p.delete(CREATION_TYPE_PARAM);
  return p;
}

export interface TileCopy {
  title: string;
  description: string;
}

export const CREATION_TILES: Record<FlowType | "voiceLibrary", TileCopy> = {
  voiceDesign: { title: "Voice Design", description: "Design an entirely new voice from a text prompt." },
  cloneVoice: { title: "Instant Voice Clone", description: "Clone a voice from a short recording: 10 seconds of audio is enough." },
  professionalVoiceClone: { title: "Professional Voice Clone", description: "The most expressive way to replicate your voice, trained on 30 minutes or more of audio." },
  voiceLibrary: { title: "Voice Library", description: "Choose from voices shared by the community." },
};

