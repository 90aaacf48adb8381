// The `trader optimize --report` page: a heatmap of the objective over any two parameters (the others held
// at the best trial's values), a scatter of objective against max drawdown (total return when drawdown is the
// objective), and the best trial's equity.
import { escapeHtml } from '../../backtest/report/inline.js';
import type { OptimizeResult } from '../optimize.js';
import { type RankingRules, rankedOutcomes } from '../ranking.js';
import { searchedParams } from '../report-rows.js';
import { EQUITY_CHART_SCRIPT, renderPage } from './page.js';

export interface OptimizeReportInput {
  readonly strategy: string;
  readonly result: OptimizeResult;
  readonly rules: RankingRules;
  /** The best trial's equity, chart time in seconds (market-local wall time read as UTC). */
  readonly bestEquity: readonly { readonly time: number; readonly value: number }[];
}

const SCRIPT = `${EQUITY_CHART_SCRIPT}
var data = JSON.parse(document.getElementById('report-data').textContent);
function colour(value, low, high) {
  if (value === null) return '#eee';
  var share = high > low ? (value - low) / (high - low) : 0.5;
  if (!data.higherIsBetter) share = 1 - share;
  return 'hsl(' + Math.round(share * 120) + ', 70%, 60%)';
}
// Axes of more than MAX_BINS values are cut into bins of neighbouring values; a cell shows the best trial in it.
var MAX_BINS = 40;
function binSize(count) { return Math.ceil(count / MAX_BINS); }
function binLabels(values, size) {
  var labels = [];
  for (var start = 0; start < values.length; start += size) {
    var end = Math.min(values.length, start + size) - 1;
    labels.push(end === start ? String(values[start]) : values[start] + '–' + values[end]);
  }
  return labels;
}
function drawHeatmap() {
  var x = document.getElementById('heat-x').value, y = document.getElementById('heat-y').value;
  var trials = data.trials, objective = trials.objective, best = data.best;
  var xSize = binSize(data.values[x].length), ySize = binSize(data.values[y].length);
  var others = data.names.filter(function (name) { return name !== x && name !== y; });
  var cell = {};
  for (var i = 0; i < objective.length; i++) {
    var held = true;
    for (var k = 0; best && k < others.length; k++) if (trials.params[others[k]][i] !== best[others[k]]) held = false;
    if (!held) continue;
    var key = Math.floor(trials.params[x][i] / xSize) + '|' + Math.floor(trials.params[y][i] / ySize);
    var value = objective[i], seen = cell[key];
    if (seen === undefined || (value !== null && (seen === null || (data.higherIsBetter ? value > seen : value < seen)))) cell[key] = value;
  }
  var low = Infinity, high = -Infinity;
  for (var key in cell) if (cell[key] !== null) { low = Math.min(low, cell[key]); high = Math.max(high, cell[key]); }
  var xLabels = binLabels(data.values[x], xSize), yLabels = binLabels(data.values[y], ySize);
  var html = '<thead><tr><th>' + y + ' \\ ' + x + '</th>' + xLabels.map(function (label) { return '<th>' + label + '</th>'; }).join('') + '</tr></thead><tbody>';
  yLabels.forEach(function (yLabel, yBin) {
    html += '<tr><th>' + yLabel + '</th>';
    xLabels.forEach(function (xLabel, xBin) {
      var value = cell[xBin + '|' + yBin];
      var isBest = best && Math.floor(best[x] / xSize) === xBin && Math.floor(best[y] / ySize) === yBin;
      html += '<td class="cell' + (isBest ? ' best' : '') + '" style="background:' + colour(value === undefined ? null : value, low, high) + '">' + (value === undefined || value === null ? '' : value.toFixed(3)) + '</td>';
    });
    html += '</tr>';
  });
  document.getElementById('heatmap').innerHTML = html + '</tbody>';
  document.getElementById('heat-bins').textContent = xSize > 1 || ySize > 1 ? 'neighbouring values grouped; a cell shows the best trial among them' : '';
}
if (data.names.length >= 2) {
  ['heat-x', 'heat-y'].forEach(function (id) { document.getElementById(id).addEventListener('change', drawHeatmap); });
  drawHeatmap();
}
if (data.bestEquity.length > 0) drawEquity('equity-chart', data.bestEquity);
document.body.setAttribute('data-rendered', 'true');
`;

export async function renderOptimizeReport(input: OptimizeReportInput): Promise<string> {
  const { result, rules } = input;
  const { outcomes, ranking } = result;
  const names = searchedParams(result);
  const values = Object.fromEntries(
    names.map((name) => [
      name,
      [...new Set(Array.from({ length: outcomes.length }, (_, row) => outcomes.param(row, name)!))].sort((a, b) =>
        typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b)),
      ),
    ]),
  );
  const [best] = rankedOutcomes(outcomes, ranking, 1);
  const rankedRows = new Uint8Array(outcomes.length);
  for (const row of ranking.rows) rankedRows[row] = 1;
  const objective = Array.from({ length: outcomes.length }, (_, row) =>
    rankedRows[row] === 1 ? finiteOrNull(outcomes.metric(row, rules.objective.metric)) : null,
  );
  // Columns for the page: each searched param as the position of its value in `values` (a big grid's page
  // would be several times larger as one object per trial).
  const positions = (name: string): number[] => {
    const at = new Map(values[name]!.map((value, position) => [value, position]));
    return Array.from({ length: outcomes.length }, (_, row) => at.get(outcomes.param(row, name)!)!);
  };
  const columns = Object.fromEntries(names.map((name) => [name, positions(name)]));
  const bestPositions =
    ranking.rows[0] === undefined ? null : Object.fromEntries(names.map((name) => [name, columns[name]![ranking.rows[0]!]!]));
  // Against max drawdown, or against total return when drawdown is the objective (a diagonal otherwise).
  const axis = rules.objective.metric === 'maxDrawdown' ? TOTAL_RETURN_AXIS : DRAWDOWN_AXIS;
  const points = Array.from({ length: outcomes.length }, (_, row) => ({
    objective: objective[row]!,
    other: outcomes.metric(row, axis.metric) ?? 0,
  }));
  const options = (selected: number): string =>
    names
      .map((name, index) => `<option value="${escapeHtml(name)}"${index === selected ? ' selected' : ''}>${escapeHtml(name)}</option>`)
      .join('');
  const heatmap =
    names.length >= 2
      ? `<div class="panel-head"><h2>${escapeHtml(rules.objective.metric)} by two parameters</h2><span class="hint">other parameters at the best trial's values</span>
<label class="hint">x <select id="heat-x">${options(0)}</select></label> <label class="hint">y <select id="heat-y">${options(1)}</select></label> <span id="heat-bins" class="hint"></span></div>
<div class="table-scroll"><table id="heatmap" class="heatmap"></table></div>`
      : '<p class="muted">The heatmap needs two searched parameters.</p>';
  const subtitle = `${result.outcomes.length} trials · objective ${rules.objective.metric} (${rules.objective.direction}) · PBO ${result.overfitting.pbo?.probability.toFixed(3) ?? '—'} · deflated Sharpe ${result.overfitting.deflatedSharpe?.probability.toFixed(3) ?? '—'}`;
  const bestText =
    best === undefined
      ? 'No trial met the constraints.'
      : Object.entries(best.params)
          .map(([key, value]) => `${key}=${value}`)
          .join(' ');
  return renderPage({
    title: `Optimize · ${input.strategy}`,
    subtitle,
    body: `<section class="panel">${heatmap}</section>
<section class="panel"><div class="panel-head"><h2>${escapeHtml(rules.objective.metric)} against ${axis.label}</h2><span class="hint">one point per ranked trial (trials on one spot drawn once); the best in red</span></div>${scatterSvg(points, ranking.rows[0] === undefined ? undefined : points[ranking.rows[0]], axis, rules.objective.metric)}</section>
<section class="panel"><div class="panel-head"><h2>Best trial's equity</h2><span class="hint">${escapeHtml(bestText)}</span></div><div id="equity-chart" class="chart equity"></div></section>`,
    data: {
      names,
      values,
      trials: { params: columns, objective },
      best: bestPositions,
      higherIsBetter: rules.objective.direction === 'max',
      bestEquity: input.bestEquity,
    },
    script: SCRIPT,
  });
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

function finiteOrNull(value: number | null): number | null {
  return value !== null && Number.isFinite(value) ? value : null;
}

type Point = { readonly objective: number | null; readonly other: number };

/** The scatter's horizontal axis: a metric, its label, and the word its points' titles use. */
interface Axis {
  readonly metric: 'maxDrawdown' | 'totalReturn';
  readonly label: string;
  readonly short: string;
}
const DRAWDOWN_AXIS: Axis = { metric: 'maxDrawdown', label: 'max drawdown', short: 'drawdown' };
const TOTAL_RETURN_AXIS: Axis = { metric: 'totalReturn', label: 'total return', short: 'total return' };

/** Drawn on the server: a plain SVG scatter needs no chart library. */
function scatterSvg(trials: readonly Point[], best: Point | undefined, axis: Axis, objective: string): string {
  const points = trials.filter((trial): trial is Point & { objective: number } => trial.objective !== null);
  if (points.length === 0) return '<p class="muted">No ranked trials.</p>';
  const [width, height, pad] = [720, 320, 48];
  const xs = points.map((point) => point.other);
  const ys = points.map((point) => point.objective);
  const [xLow, xHigh] = extent(xs);
  const [yLow, yHigh] = extent(ys);
  const x = (value: number): number => pad + ((value - xLow) / (xHigh - xLow || 1)) * (width - 2 * pad);
  const y = (value: number): number => height - pad - ((value - yLow) / (yHigh - yLow || 1)) * (height - 2 * pad);
  // A big grid has many trials on one spot of the chart: each spot is drawn once (the best's on top).
  const spots = new Map<string, string>();
  for (const point of points) {
    const [cx, cy] = [x(point.other).toFixed(1), y(point.objective).toFixed(1)];
    const key = `${cx} ${cy}`;
    if (point !== best && spots.has(key)) continue;
    spots.delete(key);
    spots.set(
      key,
      `<circle cx="${cx}" cy="${cy}" r="4"${point === best ? ' class="best"' : ''}><title>${axis.short} ${point.other.toFixed(4)}, ${objective} ${point.objective.toFixed(4)}</title></circle>`,
    );
  }
  const circles = [...spots.values()].join('');
  return `<svg class="scatter" viewBox="0 0 ${width} ${height}" width="100%" role="img">
<line x1="${pad}" y1="${height - pad}" x2="${width - pad}" y2="${height - pad}" stroke="#999"/><line x1="${pad}" y1="${pad}" x2="${pad}" y2="${height - pad}" stroke="#999"/>
<text x="${width / 2}" y="${height - 12}" text-anchor="middle" font-size="12">${axis.label} (${xLow.toFixed(3)} … ${xHigh.toFixed(3)})</text>
<text x="14" y="${height / 2}" font-size="12" transform="rotate(-90 14 ${height / 2})" text-anchor="middle">${objective} (${yLow.toFixed(3)} … ${yHigh.toFixed(3)})</text>
${circles}</svg>`;
}
