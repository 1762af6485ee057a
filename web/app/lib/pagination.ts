/** Pagination shows at most this many page buttons (app-shell.md §9). */
export const MAX_PAGE_BUTTONS = 8;

/** The 1-based page numbers to show: a window of at most `max` pages that contains `current`. */
export function pageWindow(current: number, total: number, max = MAX_PAGE_BUTTONS): number[] {
  const pages = Math.max(0, Math.floor(total));
  if (pages === 0 || max < 1) return [];
  const count = Math.min(max, pages);
  const cur = Math.min(Math.max(1, Math.floor(current)), pages);
  const start = Math.min(Math.max(1, cur - Math.floor((count - 1) / 2)), pages - count + 1);
  return Array.from({ length: count }, (_, i) => start + i);
}

export const pageCount = (items: number, pageSize: number) => Math.max(1, Math.ceil(items / pageSize));
