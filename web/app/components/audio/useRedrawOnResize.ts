import { useEffect, type RefObject } from "react";

/** Calls `draw` whenever the canvas changes size (and again when `draw` changes). */
export function useRedrawOnResize(canvas: RefObject<HTMLCanvasElement | null>, draw: () => void): void {
  useEffect(() => {
    const c = canvas.current;
    if (!c || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => draw());
    observer.observe(c);
    return () => observer.disconnect();
  }, [canvas, draw]);
}
