import type { AppContext } from "../../platform/context.js";
import type { Caller } from "../../platform/domain/caller.js";
import type { OnboardingChecklist } from "../../platform/stores/users.js";
import { ONBOARDING_STEP_IDS } from "../../platform/domain/accounts.js";

/**
 * The onboarding checklist (app-shell.md §2, §4): each step is completed by what the user really
 * did in the workspace (read back from the data, then remembered), so it cannot be ticked by hand.
 */
export type StepId = (typeof ONBOARDING_STEP_IDS)[number];

export const STEPS: Record<StepId, { title: string; description: string; button: string; to: string }> = {
  first_generation: { title: "Generate your first speech", description: "Type a sentence, pick a voice and hear it spoken.", button: "Open Text to Speech", to: "/app/speech-synthesis/text-to-speech" },
  first_voice: { title: "Add your first voice", description: "Add a voice from the voice library, or make your own.", button: "Explore voices", to: "/app/voice-library" },
  first_dictionary: { title: "Create a pronunciation dictionary", description: "Tell Timbre how to say names, brands and terms.", button: "Open dictionaries", to: "/app/dictionaries" },
  create_api_key: { title: "Create an API key", description: "Call the API from your own programs with the official SDKs.", button: "Open API keys", to: "/app/settings/api-keys" },
  invite_member: { title: "Invite a teammate", description: "Work together in one workspace with shared voices and credits.", button: "Open workspace settings", to: "/app/settings/workspace" },
};

/** How far back the history is read for a first generation: a step stays open rather than scanning without bound. */
const HISTORY_SCAN = 500;

async function done(ctx: AppContext, caller: Caller, step: StepId): Promise<boolean> {
  const ws = caller.workspaceId;
  const me = caller.userId;
  switch (step) {
    case "first_generation": {
      let read = 0;
      for await (const page of ctx.stores.history.usageBetween(ws, 0, ctx.now() + 1)) {
        if (page.some((h) => h.user_id === me)) return true;
        if ((read += page.length) >= HISTORY_SCAN) return false;
      }
      return false;
    }
    case "first_voice":
      return (await ctx.stores.voices.ofWorkspace(ws)).some((v) => v.owner_user_id === me);
    case "first_dictionary":
      return (await ctx.stores.dictionaries.ofWorkspace(ws)).some((d) => d.created_by === me);
    case "create_api_key":
      return (await ctx.stores.apiKeys.list(ws, me)).length > 0;
    case "invite_member":
      return (await ctx.stores.invites.list(ws, Math.floor(ctx.now() / 1000))).some((i) => i.invited_by === me);
  }
}

/** The checklist with every open step checked against the data; newly completed steps are stored. */
export async function checklist(ctx: AppContext, caller: Caller): Promise<OnboardingChecklist> {
  const user = await caller.user();
  const stored = new Map(user.onboarding_checklist.items.map((i) => [i.onboarding_checklist_item_id, i.is_completed]));
  let changed = false;
  const items = await Promise.all(
    ONBOARDING_STEP_IDS.map(async (id) => {
      let completed = stored.get(id) === true;
      if (!completed && (await done(ctx, caller, id))) {
        completed = true;
        changed = true;
      }
      return { onboarding_checklist_item_id: id, is_completed: completed };
    }),
  );
  const next: OnboardingChecklist = { ...user.onboarding_checklist, items };
  if (changed || items.length !== user.onboarding_checklist.items.length) await ctx.stores.users.update(user.user_id, { onboarding_checklist: next });
  return next;
}

/** Marks one step done now (an event the product sees as it happens: an invite sent). */
export async function completeStep(ctx: AppContext, userId: string, step: StepId): Promise<void> {
  const user = await ctx.stores.users.get(userId);
  if (!user) return;
  const items = ONBOARDING_STEP_IDS.map((id) => ({ onboarding_checklist_item_id: id, is_completed: id === step || user.onboarding_checklist.items.some((i) => i.onboarding_checklist_item_id === id && i.is_completed) }));
  await ctx.stores.users.update(userId, { onboarding_checklist: { ...user.onboarding_checklist, items } });
}

export async function hideChecklist(ctx: AppContext, caller: Caller, hidden: boolean): Promise<void> {
  const user = await caller.user();
  await ctx.stores.users.update(user.user_id, { onboarding_checklist: { ...user.onboarding_checklist, hidden } });
}

export function checklistWire(c: OnboardingChecklist) {
  const completed = c.items.filter((i) => i.is_completed).length;
  return {
    checklist_id: c.checklist_id,
    hidden: c.hidden,
    items: c.items.map((i) => ({ ...i, ...STEPS[i.onboarding_checklist_item_id as StepId] })),
    completed_count: completed,
    total_count: c.items.length,
    is_completed: completed === c.items.length,
  };
}
