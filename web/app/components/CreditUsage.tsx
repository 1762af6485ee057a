import { formatDate, formatNumber, formatPercent } from "../lib/format.js";
import { usagePercent } from "../lib/usage.js";

/** Credits used versus the period's limit, with thousands separators. */
export function CreditUsage({ used, limit, resetsAtUnix }: { used: number; limit: number; resetsAtUnix: number | null }) {
  const percent = usagePercent(used, limit);
  return (
    <div className="credit-usage">
      <div className="credit-usage-row">
        <span>Credits used</span>
        <span className="credit-usage-figures">
          <strong>{formatNumber(used)}</strong> / {formatNumber(limit)}
        </span>
      </div>
      <div className="meter" role="meter" aria-label="Credits used" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.floor(percent)} aria-valuetext={`${formatNumber(used)} of ${formatNumber(limit)} credits used`}>
        <div className="meter-fill" style={{ width: `${percent}%` }} data-level={percent >= 80 ? "high" : "normal"} />
      </div>
      {resetsAtUnix !== null && <p className="credit-usage-reset">Resets on {formatDate(resetsAtUnix)}</p>}
    </div>
  );
}

/** A small ring showing the share of credits used (profile menu button). */
export function UsageRing({ used, limit, size = 28 }: { used: number; limit: number; size?: number }) {
  const percent = usagePercent(used, limit);
  const r = 13;
  const circumference = 2 * Math.PI * r;
  return (
    <svg className="usage-ring" width={size} height={size} viewBox="0 0 28 28" role="img" aria-label={`${formatPercent(percent)} of credits used`}>
      <circle cx="14" cy="14" r={r} fill="none" strokeWidth="2" className="usage-ring-track" />
      {percent > 0 && <circle cx="14" cy="14" r={r} fill="none" strokeWidth="2" className="usage-ring-value" data-level={percent >= 80 ? "high" : "normal"}
        strokeDasharray={`${(percent / 100) * circumference} ${circumference}`} transform="rotate(-90 14 14)" strokeLinecap="round" />}
    </svg>
  );
}
