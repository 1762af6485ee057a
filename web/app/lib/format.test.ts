import { describe, expect, it } from "vitest";
import { formatDate, formatNumber, formatPercent, initials } from "./format.js";

describe("formatting", () => {
  it("writes credits with thousands separators", () => {
    expect(formatNumber(0)).toBe("0");
    expect(formatNumber(999)).toBe("999");
    expect(formatNumber(10_000)).toBe("10,000");
    expect(formatNumber(11_000_000)).toBe("11,000,000");
    expect(formatNumber(1234.6)).toBe("1,235");
  });

  it("floors percentages so 79.9% is not shown as 80%", () => {
    expect(formatPercent(79.9)).toBe("79%");
    expect(formatPercent(100)).toBe("100%");
  });

  it("formats unix dates in UTC, with a fallback for missing ones", () => {
    expect(formatDate(Date.UTC(2026, 10, 22, 23, 30) / 1000)).toBe("Nov 22, 2026");
    expect(formatDate(null)).toBe("Never");
    expect(formatDate(undefined, "—")).toBe("—");
  });

  it("derives avatar initials from a name or an e-mail", () => {
    expect(initials("Ada Lovelace")).toBe("AL");
    expect(initials("ada.lovelace@example.com")).toBe("AL");
    expect(initials("grace")).toBe("G");
    expect(initials("")).toBe("?");
  });
});
