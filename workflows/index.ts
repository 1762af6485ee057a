import type { WorkflowDefinition } from "./lib.js";
import { voicePurge } from "./voice-purge.js";
import { voiceVerification } from "./voice-verification.js";
import { webhookDispatch } from "./webhook-dispatch.js";
import { speakerSeparation } from "./speaker-separation.js";
import { voiceFineTuning } from "./voice-fine-tuning.js";

/** Every workflow: CDK deploys each as a state machine; the embedded stack runs the same ASL. */
export const WORKFLOWS: WorkflowDefinition[] = [voicePurge, voiceVerification, webhookDispatch, speakerSeparation, voiceFineTuning];
