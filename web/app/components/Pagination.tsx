import { pageWindow } from "../lib/pagination.js";

/** Previous / page buttons (at most 8) / Next. */
export function Pagination({ page, pageCount, onPageChange, label = "Pagination" }: { page: number; pageCount: number; onPageChange: (page: number) => void; label?: string }) {
  if (pageCount <= 1) return null;
  return (
    <nav className="pagination" aria-label={label}>
      <button type="button" className="button button-small" disabled={page <= 1} onClick={() => onPageChange(page - 1)}>
        Previous
      </button>
      {pageWindow(page, pageCount).map((n) => (
        <button key={n} type="button" className="button button-small page-button" aria-current={n === page ? "page" : undefined} aria-label={`Page ${n}`} onClick={() => onPageChange(n)}>
          {n}
        </button>
      ))}
      <button type="button" className="button button-small" disabled={page >= pageCount} onClick={() => onPageChange(page + 1)}>
        Next
      </button>
    </nav>
  );
}
