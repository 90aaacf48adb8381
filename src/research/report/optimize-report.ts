// The `trader optimize --report` page: a heatmap of the objective over any two parameters (the others held
// at the best trial's values), a scatter of objective against max drawdown (total return when drawdown is the
// objective), and the best trial's equity.
import { escapeHtml } from '../../backtest/report/inline.js';
import type { OptimizeResult } from '../optimize.js';
import type { ParamValue } from '../../strategy/params.js';
import { exclusionReason, type RankingRules, rankedOutcomes } from '../ranking.js';
import { searchedParams } from '../report-rows.js';
import { HEATMAP_SCRIPT } from './heatmap-script.js';
import { EQUITY_CHART_SCRIPT, renderPage } from './page.js';
import { type ScatterAxis, scatterSvg } from './scatter.js';

export interface OptimizeReportInput {
  readonly strategy: string;
  readonly result: OptimizeResult;
  readonly rules: RankingRules;
  /** The best trial's equity, chart time in seconds (market-local wall time read as UTC). */
  readonly bestEquity: readonly { readonly time: number; readonly value: number }[];
}

const SCRIPT = `${EQUITY_CHART_SCRIPT}
var data = JSON.parse(document.getElementById('report-data').textContent);
${HEATMAP_SCRIPT}
if (data.bestEquity.length > 0) drawEquity('equity-chart', data.bestEquity);
document.body.setAttribute('data-rendered', 'true');
`;

export async function renderOptimizeReport(input: OptimizeReportInput): Promise<string> {
  const { result, rules } = input;
  const { outcomes, ranking } = result;
  const names = searchedParams(result);
  // Combinations the strategy's paramsSchema refused never ran, but they are holes the heatmap shows: their
  // values as the trials' (a number param's "5" is 5).
  const refused = result.plan.skipped.map(({ combo }) =>
    Object.fromEntries(names.map((name) => [name, typedLike(outcomes.param(0, name)!, combo[name] ?? '')])),
  );
  const paramOf = (row: number, name: string): ParamValue =>
    row < outcomes.length ? outcomes.param(row, name)! : refused[row - outcomes.length]![name]!;
  const rows = outcomes.length + refused.length;
  const values = Object.fromEntries(
    names.map((name) => [
      name,
      [...new Set(Array.from({ length: rows }, (_, row) => paramOf(row, name)))].sort((a, b) =>
        typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b)),
      ),
    ]),
  );
  const [best] = rankedOutcomes(outcomes, ranking, 1);
  const rankedRows = new Uint8Array(outcomes.length);
  for (const row of ranking.rows) rankedRows[row] = 1;
  const objective = Array.from({ length: rows }, (_, row) =>
    row < outcomes.length && rankedRows[row] === 1 ? finiteOrNull(outcomes.metric(row, rules.objective.metric)) : null,
  );
  // Why each trial left a hole: an index into `reasons` (-1: ranked).
  const reasons: string[] = [];
  const reasonAt = new Map<string, number>();
  const reasonIndex = (reason: string): number => {
    if (!reasonAt.has(reason)) reasonAt.set(reason, reasons.push(reason) - 1);
    return reasonAt.get(reason)!;
  };
  const reason = Array.from({ length: rows }, (_, row) => {
    if (row >= outcomes.length) return reasonIndex(`refused by the strategy: ${result.plan.skipped[row - outcomes.length]!.reason}`);
    const why = rankedRows[row] === 1 ? null : exclusionReason(outcomes, row, rules);
    return why === null ? -1 : reasonIndex(`left out: ${why}`);
  });
  // Columns for the page: each searched param as the position of its value in `values` (a big grid's page
  // would be several times larger as one object per trial).
  const positions = (name: string): number[] => {
    const at = new Map(values[name]!.map((value, position) => [value, position]));
    return Array.from({ length: rows }, (_, row) => at.get(paramOf(row, name))!);
  };
  const columns = Object.fromEntries(names.map((name) => [name, positions(name)]));
  const bestPositions =
    ranking.rows[0] === undefined ? null : Object.fromEntries(names.map((name) => [name, columns[name]![ranking.rows[0]!]!]));
  // Against max drawdown, or against total return when drawdown is the objective (a diagonal otherwise).
  const axis = rules.objective.metric === 'maxDrawdown' ? TOTAL_RETURN_AXIS : DRAWDOWN_AXIS;
  const points = Array.from({ length: outcomes.length }, (_, row) => ({
    objective: objective[row]!,
    other: outcomes.metric(row, axis.metric) ?? 0,
    row,
  }));
  const paramsText = (row: number): string => names.map((name) => `${name}=${outcomes.param(row, name)}`).join(' ');
  const options = (selected: number): string =>
    names
      .map((name, index) => `<option value="${escapeHtml(name)}"${index === selected ? ' selected' : ''}>${escapeHtml(name)}</option>`)
      .join('');
  // Over two params of the user's choosing, or along the one searched param (one row).
  const [heading, controls] =
    names.length >= 2
      ? [
          'by two parameters',
          `<label class="hint control" title="columns; picking the rows' parameter swaps the two">x <select id="heat-x">${options(0)}</select></label> <label class="hint control" title="rows; picking the columns' parameter swaps the two">y <select id="heat-y">${options(1)}</select></label> `,
        ]
      : [`by ${escapeHtml(names[0] ?? '')}`, ''];
  const heatmap =
    names.length >= 1
      ? `<div class="panel-head"><h2>${escapeHtml(rules.objective.metric)} ${heading}</h2><span id="heat-held" class="hint">other parameters at the best trial's values</span>
${controls}<span id="heat-bins" class="hint"></span></div>
<div class="table-scroll heat-scroll"><table id="heatmap" class="heatmap"></table></div><div id="heat-print" class="heat-print"></div><div id="heat-legend" class="legend"></div><p class="hint heat-holes"><span class="swatch left-out">—</span> trials ran, none ranked (a constraint, no figure, the strategy threw) · <span class="swatch refused"></span> refused by the strategy's paramsSchema · <span class="swatch"></span> not run<span class="screen-only"> · hover a cell for its trial and why</span></p>`
      : '<p class="muted">No parameter took more than one value, so there is no heatmap.</p>';
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
<section class="panel"><div class="panel-head"><h2>${escapeHtml(rules.objective.metric)} against ${axis.label}</h2><span class="hint">one point per ranked trial (trials on one spot drawn once<span class="screen-only">, its params on hover</span>); the best in red</span></div>${scatterSvg(points, ranking.rows[0] === undefined ? undefined : points[ranking.rows[0]], axis, rules.objective.metric, paramsText)}</section>
<section class="panel"><div class="panel-head"><h2>Best trial's equity</h2><span class="hint">${escapeHtml(bestText)}</span></div><div id="equity-chart" class="chart equity"></div></section>`,
    data: {
      names,
      values,
      trials: { params: columns, objective, reason },
      reasons,
      metric: rules.objective.metric,
      best: bestPositions,
      higherIsBetter: rules.objective.direction === 'max',
      bestEquity: input.bestEquity,
    },
    script: SCRIPT,
  });
}

/** A refused combination's value text as the trials' values of that param are: a number, a flag or text. */
function typedLike(sample: ParamValue, text: string): ParamValue {
  if (typeof sample === 'number') {
    const number = Number(text);
    return Number.isFinite(number) ? number : text;
  }
  if (typeof sample === 'boolean' && /^(true|false)$/i.test(text.trim())) return text.trim().toLowerCase() === 'true';
  return text;
}

function finiteOrNull(value: number | null): number | null {
  return value !== null && Number.isFinite(value) ? value : null;
}

const DRAWDOWN_AXIS: ScatterAxis = { metric: 'maxDrawdown', label: 'max drawdown', short: 'drawdown' };
const TOTAL_RETURN_AXIS: ScatterAxis = { metric: 'totalReturn', label: 'total return', short: 'total return' };
