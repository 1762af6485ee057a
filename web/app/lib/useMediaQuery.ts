import { useEffect, useState } from "react";

/** The phone layout's breakpoint (the stylesheets use the same width). */
export const PHONE_QUERY = "(max-width: 640px)";
/** Large screens: the sidebar instead of the mobile header and its drawer (app.css hides the header from 1024px). */
export const LARGE_QUERY = "(min-width: 1024px)";

/**
 * Whether a media query matches, kept up to date. False on the server and before hydration
 * (the wide layout), then the real answer; the listener is removed on unmount.
 */
export function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(false);
  useEffect(() => {
    const list = window.matchMedia(query);
    const update = () => setMatches(list.matches);
    update();
    list.addEventListener("change", update);
    return () => list.removeEventListener("change", update);
  }, [query]);
  return matches;
}
