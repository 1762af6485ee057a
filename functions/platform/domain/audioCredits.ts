/**
 * Credits for audio in, audio out (speech-generation.md §9; the hosted voice isolator's rule):
 * - speech to speech: the input's duration in seconds × 60 × the model's multiplier × the voice's rate;
 * - voice isolator: 1,000 credits per minute of input.
 * Durations are the decoded ones (never a header's claim). Rounded to a millionth first (so
 * 1.1 × 10 is 11, not 11.000000000000002 -> 12), then up to whole credits.
 */
const whole = (x: number) => Math.ceil(Math.round(Math.max(0, x) * 1e6) / 1e6);

export function speechToSpeechCredits(seconds: number, modelMultiplier: number, voiceRate = 1): number {
  return whole(seconds * 60 * modelMultiplier * voiceRate);
}

export const ISOLATION_CREDITS_PER_MINUTE = 1000;

export function isolationCredits(seconds: number): number {
  return whole((seconds / 60) * ISOLATION_CREDITS_PER_MINUTE);
}
