/**
 * The assistant's client tools (speech-generation.md §7), run in the page: highlight, click,
 * clear, get_value, set_value, go_to_route, show_documentation_link, show_support_link, with the
 * spec's timings (§9) and errors (§8). Elements are named as a user sees them: a data-assistant
 * name, an aria-label, a field's label or a button's or link's text.
 */
import { ASSISTANT, ASSISTANT_DOCS, SUPPORT_CALL, SUPPORT_FORM_PATH, assistantMessages, routeHref, type ToolCall } from "../../../../functions/platform/contract/assistant.js";

export interface ToolHost {
  navigate(href: string): void;
  /** The page's current path (after navigation settles). */
  pathname(): string;
  /** A short message in the card for `ms`, optionally a link. */
  notice(text: string, ms: number, link?: { href: string; label: string }): void;
  /** Asks the user in the page before a paid action; resolves true when they agree. */
  confirm(text: string): Promise<boolean>;
}

export interface ToolOutcome {
  ok: boolean;
  value?: string;
  error?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const CONTROLS = "button, a[href], input, textarea, select, [role=button], [role=tab], [role=link], [data-assistant]";

function visible(el: Element): boolean {
  const r = (el as HTMLElement).getBoundingClientRect();
  return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden";
}

function labelOf(el: Element): string {
  const named = el.getAttribute("data-assistant") || el.getAttribute("aria-label");
  if (named) return named.trim();
  const id = el.getAttribute("id");
  if (id) {
    const lab = document.querySelector(`label[for="${CSS.escape(id)}"]`);
    if (lab?.textContent) return lab.textContent.trim();
  }
  const wrapping = el.closest("label");
  if (wrapping?.textContent && el.matches("input, textarea, select")) return wrapping.textContent.trim();
  return (el.textContent ?? "").replace(/\s+/g, " ").trim() || (el.getAttribute("placeholder") ?? "");
}

/** The page's visible labelled controls (the context update): what the assistant may name. */
export function pageElements(): Array<{ label: string; role: string; paid?: boolean }> {
  const out: Array<{ label: string; role: string; paid?: boolean }> = [];
  const seen = new Set<string>();
  for (const el of document.querySelectorAll(CONTROLS)) {
    if (el.closest("[data-assistant-card]") || !visible(el)) continue;
    const label = labelOf(el).slice(0, ASSISTANT.maxLabelChars);
    if (!label || seen.has(label)) continue;
    seen.add(label);
    const role = (el.getAttribute("role") ?? (el.tagName === "INPUT" ? (el as HTMLInputElement).type : el.tagName.toLowerCase())).slice(0, 20);
    out.push(isPaid(el) ? { label, role, paid: true } : { label, role });
    if (out.length >= ASSISTANT.maxContextElements) break;
  }
  return out;
}

/** A control that spends credits: marked data-assistant-paid, or a generate / convert submit. */
export function isPaid(el: Element): boolean {
  if (el.closest("[data-assistant-paid]")) return true;
  return el.matches("button, [role=button]") && /^(generate|regenerate|convert)\b/i.test(labelOf(el));
}

export function findElement(name: string): HTMLElement | null {
  const want = name.trim().toLowerCase();
  if (!want) return null;
  const candidates = [...document.querySelectorAll(CONTROLS)].filter((el) => !el.closest("[data-assistant-card]") && visible(el));
  const exact = candidates.find((el) => labelOf(el).toLowerCase() === want);
  const loose = exact ?? candidates.find((el) => labelOf(el).toLowerCase().includes(want));
  return (loose as HTMLElement | undefined) ?? null;
}

/** Each element's pending un-highlight: a new highlight replaces it, so an earlier quick one cannot cut a later one short. */
const unhighlightTimers = new WeakMap<HTMLElement, ReturnType<typeof setTimeout>>();

export function highlight(el: HTMLElement, quick = false): void {
  el.scrollIntoView({ block: "center", behavior: "smooth" });
  el.classList.add("assistant-highlight");
  el.setAttribute("data-assistant-highlight", quick ? "quick" : "full");
  clearTimeout(unhighlightTimers.get(el));
  unhighlightTimers.set(
    el,
    setTimeout(() => {
      unhighlightTimers.delete(el);
      el.classList.remove("assistant-highlight");
      el.removeAttribute("data-assistant-highlight");
    }, quick ? SUPPORT_CALL.quickHighlightMs : SUPPORT_CALL.highlightMs),
  );
}

/** Sets a React-controlled field's value the way typing does (the input event React listens to). */
function setNative(el: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, "value")!.set!.call(el, value);
  el.dispatchEvent(new Event("input", { bubbles: true }));
}

function field(el: HTMLElement): HTMLInputElement | HTMLTextAreaElement | null {
  return el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ? el : el.querySelector("input, textarea");
}

/** Waits for an element to appear (the page after go_to_route may still be loading). */
async function waitFor(name: string, ms = 4000): Promise<HTMLElement | null> {
  const until = Date.now() + ms;
  for (;;) {
    const el = findElement(name);
    if (el || Date.now() > until) return el;
    await sleep(100);
  }
}

export async function runTool(call: ToolCall, host: ToolHost): Promise<ToolOutcome> {
  try {
    const p = call.params;
    const element = typeof p.element === "string" ? p.element : "";
    switch (call.name) {
      case "go_to_route": {
        const params = typeof p.params === "object" ? p.params : {};
        const href = typeof p.route === "string" ? routeHref(p.route, params) : null;
        if (!href) return { ok: false, error: assistantMessages.routeNotFound };
        host.navigate(href);
        const path = href.split("?")[0]!;
        for (let i = 0; i < 100 && host.pathname() !== path; i++) await sleep(50);
        host.notice(`Opened ${path}`, SUPPORT_CALL.actionMessageMs);
        return { ok: true };
      }
      case "show_documentation_link": {
        const href = ASSISTANT_DOCS[p.doc as keyof typeof ASSISTANT_DOCS];
        if (!href) return { ok: false, error: assistantMessages.routeNotFound };
        host.notice("Documentation", SUPPORT_CALL.linkMessageMs, { href, label: "Open the documentation" });
        return { ok: true };
      }
      case "show_support_link": {
        const email = typeof p.email === "string" ? p.email : "";
        host.notice("Support", SUPPORT_CALL.linkMessageMs, { href: `${SUPPORT_FORM_PATH}?email=${encodeURIComponent(email)}`, label: "Open a support request" });
        return { ok: true };
      }
      default:
        break;
    }
    const el = await waitFor(element);
    if (!el) return { ok: false, error: assistantMessages.elementNotFound };
    switch (call.name) {
      case "highlight":
        highlight(el, p.quick === true);
        return { ok: true };
      case "click": {
        if (p.paid === true || isPaid(el)) {
          if (!(await host.confirm(assistantMessages.paidConfirm(labelOf(el))))) return { ok: false, error: assistantMessages.paidDeclined };
        }
        highlight(el, true);
        await sleep(SUPPORT_CALL.clickDelayMs);
        el.click();
        host.notice(`Clicked ${labelOf(el)}`, SUPPORT_CALL.actionMessageMs);
        return { ok: true };
      }
      case "clear": {
        const f = field(el);
        if (!f) return { ok: false, error: assistantMessages.elementNotFound };
        setNative(f, "");
        return { ok: true };
      }
      case "get_value": {
        const f = field(el);
        return f ? { ok: true, value: f.value.slice(0, 2000) } : { ok: true, value: (el.textContent ?? "").trim().slice(0, 2000) };
      }
      case "set_value": {
        const f = field(el);
        if (!f) return { ok: false, error: assistantMessages.elementNotFound };
        const value = typeof p.value === "string" ? p.value.slice(0, ASSISTANT.maxUtteranceChars) : "";
        highlight(f, true);
        f.focus();
        setNative(f, "");
        // Typed at the spec's speed, one character at a time.
        let typed = "";
        for (const ch of value) {
          await sleep(SUPPORT_CALL.typingMsPerChar);
          typed += ch;
          setNative(f, typed);
        }
        host.notice(`Typed “${value}”`, SUPPORT_CALL.actionMessageMs);
        return { ok: true };
      }
      default:
        return { ok: false, error: assistantMessages.somethingWrong };
    }
  } catch {
    return { ok: false, error: assistantMessages.somethingWrong };
  }
}
