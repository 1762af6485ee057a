import { z } from "zod";

/** The onboarding checklist as /v1/user/onboarding-checklist answers it. */
export const ChecklistWire = z.object({
  checklist_id: z.string(),
  hidden: z.boolean(),
  items: z.array(z.object({ onboarding_checklist_item_id: z.string(), is_completed: z.boolean(), title: z.string(), description: z.string(), button: z.string(), to: z.string() })),
  completed_count: z.number(),
  total_count: z.number(),
  is_completed: z.boolean(),
});
export type Checklist = z.infer<typeof ChecklistWire>;

export const progressText = (c: Pick<Checklist, "completed_count" | "total_count">) => `Completed ${c.completed_count} of ${c.total_count} steps`;

/** The widget shows only while a checklist exists, is not hidden and is not completed (app-shell.md §4). */
export const widgetVisible = (c: Checklist | null | undefined) => Boolean(c && !c.hidden && !c.is_completed);
