import { useEffect, useLayoutEffect, useState, type CSSProperties, type RefObject } from "react";

// Measuring needs a layout effect in the browser; the server renders popovers closed anyway.
const useBrowserLayoutEffect = typeof window === "undefined" ? useEffect : useLayoutEffect;

/** Distance kept from the viewport's edges. */
const MARGIN_PX = 8;

/**
 * Keeps an open popover inside the viewport: after it renders, it is measured and shifted
 * sideways by what sticks out (a popover anchored to a button near an edge would otherwise open
 * off screen). On a phone the stylesheet turns popovers into full-width sheets instead, which
 * this leaves alone.
 */
export function useInViewport(ref: RefObject<HTMLElement | null>, open: boolean): CSSProperties | undefined {
  const [shift, setShift] = useState(0);
  useBrowserLayoutEffect(() => {
    if (!open) return setShift(0);
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      if (getComputedStyle(el).position === "fixed") return setShift(0);
      const rect = el.getBoundingClientRect();
      const base = rect.left - shiftOf(el);
      const width = rect.width;
      const max = window.innerWidth - MARGIN_PX;
      let next = 0;
      if (base + width > max) next = max - (base + width);
      if (base + next < MARGIN_PX) next = MARGIN_PX - base;
      setShift(Math.round(next));
    };
    measure();
    window.addEventListener("resize", measure);
    return () => window.removeEventListener("resize", measure);
  }, [ref, open]);
  return shift ? { transform: `translateX(${shift}px)` } : undefined;
}

/** The horizontal shift already applied (so measuring again does not add it twice). */
function shiftOf(el: HTMLElement): number {
  const m = /translateX\((-?[\d.]+)px\)/.exec(el.style.transform);
  return m ? Number(m[1]) : 0;
}
