import type * as secretsmanager from "aws-cdk-lib/aws-secretsmanager";
import type { TimbreData } from "./data.js";
import type { TimbreFunction } from "./function.js";

export interface WorkflowResources {
  data: TimbreData;
  sessionSecret: secretsmanager.ISecret;
}

/**
 * What each workflow's step function may touch, next to nothing else. A workflow in workflows/
 * without an entry here fails the synth, so a new workflow cannot deploy with borrowed rights.
 * Keys follow functions/platform/adapters/s3.ts: `ws/{workspace}/...`.
 */
export const WORKFLOW_GRANTS: Record<string, (fn: TimbreFunction, r: WorkflowResources) => void> = {
  // functions/handlers/workflows/voicePurge.ts: lists and deletes ws/{ws}/voices/{voice}/*, deletes the settings record.
  "voice-purge": (fn, { data }) => {
    fn.bindBucket(data.bucket, "delete", "ws/*/voices/");
    fn.bindTable(data.main, "delete");
  },
  // functions/handlers/workflows/speakerSeparation.ts: reads the sample, writes each speaker's audio beside
  // it (ws/{ws}/voices/{voice}/samples/...), writes the result on the voice and the event record.
  "speaker-separation": (fn, { data }) => {
    fn.bindBucket(data.bucket, "write", "ws/*/voices/");
    fn.bindTable(data.main, "write");
  },
  // functions/handlers/workflows/voiceFineTuning.ts: reads samples, writes the dataset, analyses and report
  // under ws/{ws}/voices/{voice}/fine-tuning/, updates the voice and writes the event record.
  "voice-fine-tuning": (fn, { data }) => {
    fn.bindBucket(data.bucket, "write", "ws/*/voices/");
    fn.bindTable(data.main, "write");
  },
  // functions/handlers/workflows/voiceVerification.ts: reads the recording and the samples, writes the
  // prepared recording (all under ws/{ws}/voices/), reads and updates the voice record, and
  // reads library listings for the alternatives offered after a failure.
  "voice-verification": (fn, { data }) => {
    fn.bindBucket(data.bucket, "write", "ws/*/voices/");
    fn.bindTable(data.main, "write");
    fn.bindTable(data.library, "read");
  },
  // functions/handlers/workflows/webhookDispatch.ts: reads and updates webhooks, events and deliveries in
  // the main table (its queue index included); decrypts webhook secrets with the session secret.
  "webhook-dispatch": (fn, { data, sessionSecret }) => {
    fn.bindTable(data.main, "write");
    fn.bindSecret(sessionSecret, "SESSION_SECRET_ARN");
  },
};

export function grantsFor(workflow: string): (fn: TimbreFunction, r: WorkflowResources) => void {
  const grant = WORKFLOW_GRANTS[workflow];
  if (!grant) throw new Error(`Workflow "${workflow}" has no grants: add them to infra/constructs/workflow-grants.ts`);
  return grant;
}
