import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

type AxeRun = { violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> };

/**
 * axe's serious and critical violations on the page (or inside `within`), as readable lines.
 *
 * Only the rules that can report a serious or critical violation run. A violation's
 * impact is the highest of its failing checks' impacts, or the rule's own impact when axe gives the rule one
 * (axe-core's aggregateChecks and finalizeRuleResult), and both are fixed metadata. So a rule whose checks are all
 * minor or moderate (region, heading-order, the landmark rules, hidden-content...) can never report anything this
 * function returns: not running it gives the same lines for less of Chromium's CPU. The set is derived in the page
 * from the axe that runs, so a rule an axe update makes serious runs again. `axeAllViolations` runs every rule (the
 * harness check in screens.test.ts compares the two).
 */
export async function axeViolations(page: Page, within?: string): Promise<string[]> {
  return lines(await axeRun(page, within, "serious")).filter((v) => isSerious(v));
}

/** The same lines for every violation with every rule on, whatever its impact (the harness check compares the two). */
export async function axeAllViolations(page: Page, within?: string): Promise<string[]> {
  return lines(await axeRun(page, within, "all"));
}

/** A line of `axeViolations`/`axeAllViolations` whose impact is serious or critical. */
export const isSerious = (line: string) => /^\S+ \((serious|critical)\)/.test(line);

const lines = (results: AxeRun) => results.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")}`);

/** The rules `axeViolations` leaves out on this page's axe (those that cannot report serious or critical). */
export async function axeRulesLeftOut(page: Page): Promise<string[]> {
  await injectAxe(page);
  return page.evaluate(() => Object.keys((window as unknown as { __timbreAxeLeftOut: () => Record<string, unknown> }).__timbreAxeLeftOut()));
}

async function injectAxe(page: Page): Promise<void> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(`${AXE_SOURCE};\n${LEFT_OUT_SOURCE};\nvoid 0;`);
}

async function axeRun(page: Page, within: string | undefined, only: "serious" | "all"): Promise<AxeRun> {
  await injectAxe(page);
  return page.evaluate(
    async ([selector, only]) => {
      const w = window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<AxeRun> }; __timbreAxeLeftOut: () => Record<string, { enabled: false }> };
      // label-content-name-mismatch is experimental in axe; issue 28 names it, so it runs too.
      const rules = { ...(only === "serious" ? w.__timbreAxeLeftOut() : {}), "label-content-name-mismatch": { enabled: true } };
      return w.axe.run(selector ?? document, { rules });
    },
    [within ?? null, only] as const,
  );
}

/**
 * Evaluated in the page with axe's source: `window.__timbreAxeLeftOut()` gives, once per document, axe's rules whose
 * highest possible impact is minor or moderate, as `rules` options that turn them off. It reads axe's own rule and
 * check metadata (`axe._audit`); if that is not there (a future axe), it leaves nothing out.
 */
const LEFT_OUT_SOURCE = `window.__timbreAxeLeftOut = function () {
  if (window.__timbreAxeLeftOutCache) return window.__timbreAxeLeftOutCache;
  var order = ["minor", "moderate", "serious", "critical"];
  var audit = window.axe && window.axe._audit;
  var off = {};
  if (audit && Array.isArray(audit.rules) && audit.data && audit.data.checks) {
    audit.rules.forEach(function (rule) {
      var highest = -1;
      if (rule.impact) highest = order.indexOf(rule.impact);
      else {
        [].concat(rule.any || [], rule.all || [], rule.none || []).forEach(function (c) {
          var check = audit.data.checks[typeof c === "string" ? c : c.id];
          // A check without a known impact: keep the rule (it might report anything).
          var i = check && check.impact ? order.indexOf(check.impact) : 3;
          if (i < 0) i = 3;
          if (i > highest) highest = i;
        });
        if (highest < 0) highest = 3;
      }
      if (highest < 2) off[rule.id] = { enabled: false };
    });
  }
  window.__timbreAxeLeftOutCache = off;
  return off;
};`;

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
