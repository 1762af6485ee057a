import type { ApiRouter } from "../http/app.js";
import { registerApiKeys } from "./apiKeys.js";
import { registerAuth } from "./auth.js";
import { registerHistory } from "./history.js";
import { registerTextToSpeech } from "./tts.js";
import { registerDialogue } from "./dialogue.js";
import { registerDictionaries } from "./dictionaries.js";
import { registerModels } from "./models.js";
import { registerUser } from "./user.js";
import { registerVoices } from "./voices.js";
import { registerLibrary } from "./library.js";
import { registerCollections } from "./collections.js";
import { registerWorkspace } from "./workspace.js";
import { registerTextToVoice } from "./textToVoice.js";
import { registerVoiceClone } from "./voiceClone.js";
import { registerVoiceVerification } from "./voiceVerification.js";
import { registerWorkspaceMembers } from "./workspaceMembers.js";
import { registerSharing } from "./sharing.js";
import { registerWebhooks } from "./webhooks.js";
import { registerUsage } from "./usage.js";
import { registerAccount } from "./account.js";
import { registerEngagement } from "./engagement.js";

/** Every /v1 and /v2 route. */
export function registerRoutes(r: ApiRouter): void {
  registerAuth(r);
  registerModels(r);
  registerUser(r);
  registerApiKeys(r);
  registerWorkspace(r);
  registerWorkspaceMembers(r);
  registerSharing(r);
  registerWebhooks(r);
  registerUsage(r);
  registerAccount(r);
  registerEngagement(r);
  registerVoices(r);
  registerLibrary(r);
  registerCollections(r);
  registerHistory(r);
  registerTextToSpeech(r);
  registerDialogue(r);
  registerDictionaries(r);
  registerTextToVoice(r);
  registerVoiceClone(r);
  registerVoiceVerification(r);
}
