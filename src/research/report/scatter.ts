// The optimize page's scatter of the objective against another metric, drawn on the server as a plain SVG (no
// chart library): round ticks with gridlines, one circle per spot, each titled with its trials' params.
import { escapeHtml } from '../../backtest/report/inline.js';
import { niceTicks } from './ticks.js';

/** A trial: its objective (null when unranked), the other axis's metric and its row of the outcomes. */
export interface ScatterPoint {
  readonly objective: number | null;
  readonly other: number;
  readonly row: number;
}

/** The horizontal axis: a metric, its label, and the word the points' titles use. */
export interface ScatterAxis {
  readonly metric: 'maxDrawdown' | 'totalReturn';
  readonly label: string;
  readonly short: string;
}

const [WIDTH, HEIGHT] = [960, 380];
const PAD = { left: 76, right: 20, top: 16, bottom: 56 };
const TICKS = { x: 6, y: 5 };

/** `params(row)`: the trial's params as text, "fast=5 slow=30". */
export function scatterSvg(
  trials: readonly ScatterPoint[],
  best: ScatterPoint | undefined,
  axis: ScatterAxis,
  objective: string,
  params: (row: number) => string,
): string {
  const points = trials.filter((trial): trial is ScatterPoint & { objective: number } => trial.objective !== null);
  if (points.length === 0) return '<p class="muted">No ranked trials.</p>';
  const xs = points.map((point) => point.other);
  const ys = points.map((point) => point.objective);
  const [xTicks, yTicks] = [niceTicks(...extent(xs), TICKS.x), niceTicks(...extent(ys), TICKS.y)];
  const x = scale(xTicks.values, PAD.left, WIDTH - PAD.right);
  const y = scale(yTicks.values, HEIGHT - PAD.bottom, PAD.top);
  // A title is one trial's detail: two digits finer than the ticks.
  const [xPlaces, yPlaces] = [xTicks.places + 2, yTicks.places + 2];
  // A big grid has many trials on one spot of the chart: each spot is drawn once (the best's on top) and
  // its title says how many more trials it stands for.
  const spots = new Map<string, { point: ScatterPoint & { objective: number }; count: number }>();
  for (const point of points) {
    const key = `${x(point.other).toFixed(1)} ${y(point.objective).toFixed(1)}`;
    const spot = spots.get(key) ?? { point, count: 0 };
    spot.count += 1;
    if (point === best) spot.point = point;
    spots.set(key, spot);
  }
  const circles = [...spots.entries()]
    .sort(([, a], [, b]) => Number(a.point === best) - Number(b.point === best))
    .map(([key, { point, count }]) => {
      const [cx, cy] = key.split(' ');
      const more = count > 1 ? ` (and ${count - 1} more trial${count > 2 ? 's' : ''} here)` : '';
      const values = `${axis.short} ${point.other.toFixed(xPlaces)}, ${objective} ${point.objective.toFixed(yPlaces)}${more}`;
      const title = [params(point.row), values].filter((part) => part !== '').join(' · ');
      return `<circle cx="${cx}" cy="${cy}" r="4"${point === best ? ' class="best"' : ''}><title>${escapeHtml(title)}</title></circle>`;
    })
    .join('');
  const [left, right, top, bottom] = [PAD.left, WIDTH - PAD.right, PAD.top, HEIGHT - PAD.bottom];
  const xGrid = xTicks.values
    .map((tick) => {
      const at = x(tick).toFixed(1);
      return `<line x1="${at}" y1="${top}" x2="${at}" y2="${bottom}"/><text x="${at}" y="${bottom + 18}" text-anchor="middle">${tick.toFixed(xTicks.places)}</text>`;
    })
    .join('');
  const yGrid = yTicks.values
    .map((tick) => {
      const at = y(tick).toFixed(1);
      return `<line x1="${left}" y1="${at}" x2="${right}" y2="${at}"/><text x="${left - 8}" y="${at}" dy="0.32em" text-anchor="end">${tick.toFixed(yTicks.places)}</text>`;
    })
    .join('');
  return `<svg class="scatter" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="100%" role="img" aria-label="${escapeHtml(`${objective} against ${axis.label}`)}">
<g class="grid">${xGrid}${yGrid}</g>
<path class="axis" d="M${left} ${top}V${bottom}H${right}"/>
<text class="axis-title" x="${(left + right) / 2}" y="${HEIGHT - 10}" text-anchor="middle">${escapeHtml(axis.label)}</text>
<text class="axis-title" x="16" y="${(top + bottom) / 2}" transform="rotate(-90 16 ${(top + bottom) / 2})" text-anchor="middle">${escapeHtml(objective)}</text>
${circles}</svg>`;
}

/** Lowest and highest (Math.min(...values) overflows the stack on a big grid's trials). */
function extent(values: readonly number[]): [number, number] {
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  for (const value of values) {
    if (value < low) low = value;
    if (value > high) high = value;
  }
  return [low, high];
}

/** Maps the ticks' span onto the pixels from `start` to `end`. */
function scale(ticks: readonly number[], start: number, end: number): (value: number) => number {
  const [low, high] = [ticks[0]!, ticks[ticks.length - 1]!];
  return (value) => start + ((value - low) / (high - low)) * (end - start);
}
