import { formatNumber } from "../../lib/format.js";
import { layoutBars, niceMax, topSeries } from "./chart.js";

const W = 720;
const H = 240;
const PAD = { left: 56, right: 8, top: 8, bottom: 28 };

function label(ms: number, interval: string): string {
  const d = new Date(ms);
  if (interval === "hour") return `${String(d.getUTCHours()).padStart(2, "0")}:00`;
  if (interval === "month") return d.toLocaleDateString("en", { month: "short", year: "numeric", timeZone: "UTC" });
  return d.toLocaleDateString("en", { month: "short", day: "numeric", timeZone: "UTC" });
}

/**
 * Usage over time as stacked bars, drawn as SVG here (no chart library, nothing that needs eval
 * or inline script, so it runs under the nonce-based CSP). The same numbers are in a table.
 */
export function UsageChart({ time, usage, interval, metricLabel }: { time: number[]; usage: Record<string, number[]>; interval: string; metricLabel: string }) {
  const series = topSeries(usage);
  const max = niceMax(series);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const bars = layoutBars(series, plotW, plotH, max);
  const every = Math.max(1, Math.ceil(time.length / 8));
  // A cumulative series ends at its total; the others add up to it.
  const sum = (v: number[]) => (interval === "cumulative" ? (v.at(-1) ?? 0) : v.reduce((a, b) => a + b, 0));
  const total = series.reduce((s, x) => s + sum(x.values), 0);
  return (
    <figure className="usage-figure">
      {/* On a phone the chart keeps a readable size and scrolls sideways inside its frame. */}
      <div className="chart-scroll" tabIndex={0} role="region" aria-label="Usage chart">
      <svg className="chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${metricLabel} per ${interval === "cumulative" ? "day, cumulative" : interval}: ${formatNumber(total)} in total`}>
        {[0, 0.5, 1].map((f) => {
          const y = PAD.top + plotH - f * plotH;
          return (
            <g key={f}>
              <line className="chart-axis" x1={PAD.left} x2={W - PAD.right} y1={y} y2={y} />
              <text className="chart-label" x={PAD.left - 6} y={y + 4} textAnchor="end">
                {formatNumber(max * f)}
              </text>
            </g>
          );
        })}
        {bars.map((b, i) => (
          <g key={time[i]} transform={`translate(${PAD.left},${PAD.top})`}>
            {b.segments.map((s) => (
              <rect key={s.series} className={`series-${s.series}`} x={b.x} y={s.y} width={b.width} height={Math.max(0, s.height)}>
                <title>{`${series[s.series].name}: ${formatNumber(s.value)} (${label(time[i], interval)})`}</title>
              </rect>
            ))}
          </g>
        ))}
        {time.map((t, i) =>
          i % every === 0 ? (
            <text key={t} className="chart-label" x={PAD.left + ((i + 0.5) * plotW) / time.length} y={H - 8} textAnchor="middle">
              {label(t, interval)}
            </text>
          ) : null,
        )}
      </svg>
      </div>
      <figcaption>
        <ul className="chart-legend">
          {series.map((s, k) => (
            <li key={s.name}>
              <span className={`chart-swatch series-${k}`} aria-hidden="true" />
              {s.name}: {formatNumber(sum(s.values))}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
