/**
 * The landing page's words and how it reads the server's answers (speech-generation.md §1, §6,
 * §8: logged-out visitors have a limit on landing page requests; a logged-out network error is a
 * sign-up prompt about reaching that limit).
 */
export const landingText = {
  sample: "Welcome to Timbre. Type anything here, pick a voice, and hear it spoken in a moment.",
  tooLong: (max: number) => `The text on this page can be at most ${max} characters. Sign up for free to generate longer texts.`,
  left: (n: number) => (n === 1 ? "1 free generation left today" : `${n} free generations left today`),
  limitReached: "You have reached the limit of free generations on this page. Sign up for free to keep creating speech with every voice.",
  busy: "We are sorry, the system is busy, try again...",
  other: "We are sorry, something went wrong. Please try again.",
};

export type LandingProblem = { kind: "limit"; message: string } | { kind: "message"; message: string };

/** What the page shows for a failed Generate: status 0 is a network error. */
export function landingView(status: number, body: { detail?: { status?: string; message?: string }; message?: string } | null): LandingProblem {
  if (status === 0 || body?.detail?.status === "landing_limit_reached") return { kind: "limit", message: landingText.limitReached };
  if (status === 503 || body?.detail?.status === "system_busy") return { kind: "message", message: landingText.busy };
  const message = body?.detail?.message ?? body?.message;
  return { kind: "message", message: message ?? landingText.other };
}
