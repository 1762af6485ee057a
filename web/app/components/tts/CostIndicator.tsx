import { Link } from "@remix-run/react";
import { formatNumber } from "../../lib/format.js";
import { COST_REFERENCE_CREDITS, costIndicator } from "./models.js";

/** What the text costs, as a share of 5,000 credits; above that, Studio is the better tool. */
export function CostIndicator({ cost, free }: { cost: number; free: boolean }) {
  const shown = free ? 0 : cost;
  const { percent, useStudio } = costIndicator(shown);
  return (
    <div className="cost-indicator" data-testid="credit-cost">
      <div className="cost-row">
        <span>{free ? "Free regeneration" : `${formatNumber(shown)} credits`}</span>
        <span className="muted">of {formatNumber(COST_REFERENCE_CREDITS)}</span>
      </div>
      <div className="meter" role="meter" aria-label="Credit cost" aria-valuemin={0} aria-valuemax={COST_REFERENCE_CREDITS} aria-valuenow={Math.min(shown, COST_REFERENCE_CREDITS)} aria-valuetext={`${formatNumber(shown)} credits`}>
        <div className="meter-fill" style={{ width: `${percent}%` }} data-level={useStudio ? "high" : "normal"} />
      </div>
      {useStudio && (
        <p className="inline-warning">
          This text costs more than {formatNumber(COST_REFERENCE_CREDITS)} credits. For long-form audio, use <Link to="/app/studio">Studio</Link>.
        </p>
      )}
    </div>
  );
}
