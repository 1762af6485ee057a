/** Every event type webhooks deliver (documented in docs/webhooks.md). Pure: the web reads it too. */
export const EVENT_TYPES = [
  "voice_library_removal_notice",
  "quota_threshold_reached",
  "voice_verification_result",
  "speaker_separation_finished",
  "fine_tuning_finished",
  "fine_tuning_failed",
  "webhook_test",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const isEventType = (v: string): v is EventType => (EVENT_TYPES as readonly string[]).includes(v);

/** What the Webhooks page calls each type. */
export const EVENT_LABELS: Record<EventType, string> = {
  voice_library_removal_notice: "A library voice you added is being removed",
  quota_threshold_reached: "Credits reach 80% or 100% of the quota",
  voice_verification_result: "Voice verification result",
  speaker_separation_finished: "Speaker separation finished",
  fine_tuning_finished: "Fine-tuning finished",
  fine_tuning_failed: "Fine-tuning failed",
  webhook_test: "Test events",
};
