/** Workspace permission ids (speech-generation.md §3), granted per group; Everyone is the default group. */
export const PERMISSION_IDS = [
  "text_to_speech",
  "speech_to_speech",
  "voice_lab",
  "sound_effects",
  "projects",
  "voiceover_studio",
  "dubbing",
  "audio_native",
  "conversational_ai",
  "voice_isolator",
  "ai_speech_classifier",
  "add_voice_from_voice_library",
  "create_instant_voice_clone",
  "create_professional_voice_clone",
  "create_user_api_key",
  "publish_studio_project",
] as const;
export type PermissionId = (typeof PERMISSION_IDS)[number];

export function isPermissionId(v: string): v is PermissionId {
  return (PERMISSION_IDS as readonly string[]).includes(v);
}

/** Human names for the denial message. */
export const FEATURE_NAMES: Record<PermissionId, string> = {
  text_to_speech: "Text to Speech",
  speech_to_speech: "Voice Changer",
  voice_lab: "Voices",
  sound_effects: "Sound Effects",
  projects: "Studio",
  voiceover_studio: "Voiceover Studio",
  dubbing: "Dubbing",
  audio_native: "Audio Native",
  conversational_ai: "Conversational AI",
  voice_isolator: "Voice Isolator",
  ai_speech_classifier: "AI Speech Classifier",
  add_voice_from_voice_library: "the Voice Library",
  create_instant_voice_clone: "Instant Voice Cloning",
  create_professional_voice_clone: "Professional Voice Cloning",
  create_user_api_key: "API keys",
  publish_studio_project: "publishing Studio projects",
};

export const permissionDeniedMessage = (p: PermissionId) =>
  `You do not have access to ${FEATURE_NAMES[p]}. Please contact your workspace administrator for access.`;

export const EVERYONE_GROUP_ID = "default";
export const EVERYONE_GROUP_NAME = "Everyone";

export type SeatType = "workspace_admin" | "workspace_member" | "workspace_lite_member";

export interface GroupGrant {
  group_id: string;
  permissions: PermissionId[];
  member_user_ids: string[];
}

/**
 * A member holds a permission when they are a workspace admin, when the Everyone group
 * grants it, or when any custom group they belong to grants it.
 */
export function effectivePermissions(userId: string, seat: SeatType, groups: GroupGrant[]): Set<PermissionId> {
  if (seat === "workspace_admin") return new Set(PERMISSION_IDS);
  const out = new Set<PermissionId>();
  for (const g of groups) {
    if (g.group_id === EVERYONE_GROUP_ID || g.member_user_ids.includes(userId)) g.permissions.forEach((p) => out.add(p));
  }
  return out;
}
