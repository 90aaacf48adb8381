// The end-of-run printout on stdout: counts, strategy states, positions and PnL, and what reconciliation found
// (orders at the broker that are not ours). --json prints the same as one JSON object.
import type { FixedPoint } from '../../domain/fixed-point.js';
import { localTime } from '../../backtest/report/local-time.js';
import { timeZoneOf } from '../../domain/market-hours.js';
import { marketOf } from '../../domain/symbol.js';
import type { SessionReport } from '../../runtime/session-report.js';
import { formatDuration } from '../../schedule/duration.js';
import { barText, describeFailure, type StrategyFailure } from '../../strategy/failure.js';
import { formatTable, printJson } from '../output.js';

export function printRunSummary(report: SessionReport, json: boolean): void {
  if (json) printJson(summaryJson(report));
  else process.stdout.write(`${formatRunSummary(report)}\n`);
}

export function summaryJson(report: SessionReport): Record<string, unknown> {
  const { summary } = report;
  return {
    mode: report.mode,
    elapsedMs: report.elapsedMs,
    intents: summary.intents,
    orders: summary.orders,
    fills: summary.fills,
    denials: summary.denials,
    denialsByCode: report.denialsByCode,
    openOrders: summary.openOrders,
    strategies: summary.strategies.map(({ name, source, state, error, failure }) => ({
      name,
      source,
      state,
      error,
      ...(failure === undefined ? {} : failureJson(failure)),
    })),
    positions: summary.positions,
    pnl: summary.pnl,
    reconciliation: report.findings,
  };
}

export function formatRunSummary(report: SessionReport): string {
  const { summary } = report;
  const denials = Object.entries(report.denialsByCode).map(([code, count]) => `${code} ${count}`);
  const lines = [
    `Run summary (${report.mode}, ${formatDuration(report.elapsedMs)})`,
    `  strategies  ${summary.strategies.map((strategy) => `${strategy.name}: ${strategy.state}`).join(', ')}`,
    ...summary.strategies.flatMap(({ name, source, failure }) =>
      failure === undefined
        ? []
        : [
            `    ${describeFailure(name, source, failure.error, failure.location, failure.bar === undefined ? undefined : barText(failure.bar))}`,
          ],
    ),
    `  intents     ${summary.intents}`,
    `  orders      ${summary.orders}${summary.openOrders > 0 ? ` (${summary.openOrders} still open)` : ''}`,
    `  fills       ${summary.fills}`,
    `  denials     ${summary.denials}${denials.length === 0 ? '' : ` (${denials.join(', ')})`}`,
  ];
  if (summary.positions.length === 0) lines.push('  positions   none');
  else {
    const table = formatTable(
      ['SYMBOL', 'QUANTITY', 'AVG COST', 'LAST', 'UNREALIZED', 'REALIZED'],
      summary.positions.map((position) => [
        position.symbol,
        position.quantity.toFixed(),
        money(position.averageCost),
        position.lastPrice?.toFixed() ?? '',
        money(position.unrealizedPnl),
        money(position.realizedPnl),
      ]),
    );
    lines.push('', ...table.split('\n').map((line) => `  ${line}`));
  }
  for (const entry of summary.pnl)
    lines.push(`  PnL ${entry.currency}: realized ${money(entry.realized)}, unrealized ${money(entry.unrealized)}`);
  if (report.findings.length > 0) {
    lines.push('', `  Reconciliation found ${report.findings.length} difference(s) with the broker:`);
    for (const finding of report.findings) lines.push(`    ${finding.kind}: ${finding.message}`);
  }
  return lines.join('\n');
}

/** Where in the strategy's file, and the bar (its start in market-local ISO time), for scripts. */
function failureJson(failure: StrategyFailure): Record<string, unknown> {
  const { location, bar } = failure;
  return {
    location: location ?? null,
    bar: bar === undefined ? null : { ...bar, time: localTime(timeZoneOf(marketOf(bar.symbol))).iso(bar.time) },
  };
}

function money(value: FixedPoint | undefined): string {
  return value === undefined ? '' : value.toFixed(2);
}
