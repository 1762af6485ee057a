import { useSearchParams } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";

/**
 * State kept in the query string (filters, sort), shown at once when chosen.
 *
 * Writing the URL is a navigation that completes a moment later, and until it does, the search params a
 * render sees are the old ones. Two choices made in quick succession (a category, then a sort) must not
 * build the second from the URL as it was before the first: the state here is the one last chosen, the URL
 * follows, and while it has not caught up with what was written last it does not overrule the state. After
 * that it leads again (back and forward buttons, a link).
 */
export function useUrlState<T>(
  parse: (params: URLSearchParams) => T,
  write: (value: T, base?: URLSearchParams) => URLSearchParams,
): [T, (change: T | ((current: T) => T)) => void] {
  const [params, setParams] = useSearchParams();
  const fromUrl = useMemo(() => parse(params), [params, parse]);
  const [value, setValue] = useState(fromUrl);
  const current = useRef(value);
  current.current = value;
  const lastWritten = useRef<string | null>(null);
  useEffect(() => {
    if (lastWritten.current !== null) {
      if (write(fromUrl).toString() === lastWritten.current) lastWritten.current = null;
      return;
    }
    setValue(fromUrl);
  }, [fromUrl, write]);

  const change = useCallback(
    (next: T | ((current: T) => T)) => {
      const v = typeof next === "function" ? (next as (current: T) => T)(current.current) : next;
      current.current = v;
      setValue(v);
      lastWritten.current = write(v).toString();
      setParams((prev) => write(v, prev), { replace: true, preventScrollReset: true });
    },
    [setParams, write],
  );
  return [value, change];
}
