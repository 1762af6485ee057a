import { describe, expect, it } from "vitest";
import { pvcSlotUpsell, slotMessages } from "./slots.js";

const at = (tier: string, limit: number, used: number) => pvcSlotUpsell({ tier, professional_voice_limit: limit, professional_voice_slots_used: used });

describe("the professional voice slot upsell", () => {
  it("appears only when every slot is used", () => {
    expect(at("creator", 1, 0)).toBeNull();
    expect(at("business", 3, 2)).toBeNull();
    expect(at("free", 0, 0)).toBeNull();
    expect(pvcSlotUpsell(null)).toBeNull();
  });

  it("offers Business (two more slots) to creator, pro and growing business", () => {
    for (const tier of ["creator", "pro", "growing_business"]) {
      const u = at(tier, 1, 1)!;
      expect(u.message).toBe(`${slotMessages.usedAll(1)} ${slotMessages.upgrade}`);
      expect(u.link).toEqual({ label: "Upgrade to Business", to: "/app/settings/subscription" });
    }
  });

  it("sends scale and business to sales", () => {
    expect(at("scale", 1, 1)!.link.label).toBe("Contact sales");
    expect(at("business", 3, 3)!.message).toBe("You have used all 3 of your professional voice slots. Contact sales for more slots.");
  });
});
