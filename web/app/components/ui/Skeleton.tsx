/**
 * Placeholders shown while data loads, shaped like what is coming, so the layout does not jump.
 * They are hidden from assistive technology; the region that loads carries aria-busy instead.
 */
export function Skeleton({ width = "100%", height = "1rem", radius }: { width?: string; height?: string; radius?: string }) {
  return <span className="skeleton" aria-hidden="true" style={{ width, height, borderRadius: radius }} />;
}

/** A few text lines, the last one shorter. */
export function SkeletonLines({ lines = 3 }: { lines?: number }) {
  return (
    <span className="skeleton-lines" aria-hidden="true">
      {Array.from({ length: lines }, (_, i) => (
        <Skeleton key={i} width={i === lines - 1 ? "60%" : "100%"} />
      ))}
    </span>
  );
}

/** Rows of a list or table. */
export function SkeletonRows({ rows = 4, label }: { rows?: number; label: string }) {
  return (
    <div className="skeleton-rows" role="status" aria-busy="true" aria-label={label}>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="skeleton-row">
          <Skeleton width="2.25rem" height="2.25rem" radius="var(--radius-full)" />
          <span className="skeleton-row-text">
            <Skeleton width={`${70 - i * 7}%`} />
            <Skeleton width="40%" height="0.75rem" />
          </span>
        </div>
      ))}
    </div>
  );
}

/** The page being navigated to, while its loader runs. */
export function PageSkeleton() {
  return (
    <div className="page" role="status" aria-busy="true" aria-label="Loading page">
      <div className="page-skeleton-header">
        <Skeleton width="14rem" height="1.75rem" />
        <Skeleton width="24rem" height="1rem" />
      </div>
      <div className="card">
        <SkeletonLines lines={4} />
      </div>
      <div className="card">
        <SkeletonLines lines={3} />
      </div>
    </div>
  );
}
