import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** axe's serious and critical violations on the page (or inside `within`), as readable lines. */
export async function axeViolations(page: Page, within?: string): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(async (selector) => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
    // label-content-name-mismatch is experimental in axe; issue 28 names it, so it runs too.
    return axe.run(selector ?? document, { rules: { "label-content-name-mismatch": { enabled: true } } });
  }, within ?? null);
  return results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")}`);
}

/**
 * Controls smaller than 24 px either way (issue 28 §10: sliders, switches, checkboxes, rows and
 * links were 13-23 px). Links inside running text are exempt (WCAG 2.5.8's inline exception); a
 * checkbox or radio inside a label is measured by its label, which is what a tap hits; a
 * visually hidden file input is not a target (its visible button is).
 */
export async function smallTargets(page: Page, within?: string): Promise<string[]> {
  return page.evaluate((selector) => {
    const root = selector ? document.querySelector(selector) : document;
    if (!root) return [];
    const out: string[] = [];
    const controls = root.querySelectorAll<HTMLElement>("a[href], button, input:not([type=hidden]), select, textarea, summary, [role=slider], [role=switch], [role=checkbox], [role=tab], [role=option]");
    for (const el of Array.from(controls)) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || el.classList.contains("visually-hidden")) continue;
      const style = getComputedStyle(el);
      if (style.visibility === "hidden") continue;
      const parent = el.parentElement;
      if (el.tagName === "A" && style.display === "inline" && parent && ["P", "LI", "SPAN", "SMALL", "TD"].includes(parent.tagName) && (parent.textContent ?? "").trim().length > (el.textContent ?? "").trim().length + 5) continue;
      const label = el.tagName === "INPUT" ? el.closest("label") : null;
      const t = (label ?? el).getBoundingClientRect();
      if (t.height < 24 || t.width < 24) out.push(`${el.tagName.toLowerCase()} "${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 40)}" ${Math.round(t.width)}x${Math.round(t.height)}`);
    }
    return out;
  }, within ?? null);
}
