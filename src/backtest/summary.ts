// The terminal summary of a run: a header line, a failure if there was one, the metrics in two aligned
// columns, the last trades, what is still open, and what the strategies asked for (denials by code).
import { isIntraday } from '../domain/period.js';
import { describeFailure } from '../strategy/failure.js';
import {
  formatCount,
  formatLocal,
  formatMoney,
  formatPercent,
  periodText,
  symbolsText,
  type Tone,
  toneOf,
  tradeTags,
} from './report/format.js';
import { metricRows } from './report/metric-rows.js';
import { priceText } from './report/price-places.js';
import type { ResultView } from './result.js';

export interface SummaryOptions {
  /** ANSI colours for gains and losses; see colorEnabled. */
  readonly color: boolean;
  /** How many of the latest trades to list (default 5). */
  readonly lastTrades?: number;
  /** How many open positions to list (default 10). */
  readonly openPositions?: number;
}

const ANSI: Readonly<Record<Tone, string>> = { positive: '\u001b[32m', negative: '\u001b[31m', neutral: '' };
const BOLD = '\u001b[1m';
const DIM = '\u001b[2m';
const RESET = '\u001b[0m';

/** Colour only for a terminal, and never when NO_COLOR is set or TERM is "dumb". */
export function colorEnabled(stream: { readonly isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && (env.NO_COLOR ?? '') === '' && env.TERM !== 'dumb';
}

export function formatSummary(result: ResultView, options: SummaryOptions): string {
  const paint = (text: string, style: string): string => (options.color && style !== '' ? `${style}${text}${RESET}` : text);
  // Times are of data bars: an hour matters when the data is intraday, even for a daily strategy.
  const intraday = isIntraday(result.dataPeriod);
  const span = result.start === null ? 'no bars' : `${formatLocal(result.start, intraday)} → ${formatLocal(result.end, intraday)}`;
  const lines = [`${paint(`Backtest ${result.strategy}`, BOLD)}  ${symbolsText(result.symbols)}  ${periodText(result)}  ${span}`, ''];
  if (result.status === 'failed') {
    for (const failure of result.failures) lines.push(paint(`FAILED: ${failureLine(failure, intraday)}`, ANSI.negative));
    lines.push(paint('The run stopped at that bar: the figures below cover the bars before it.', DIM), '');
  }

  const rows = metricRows(result);
  const half = Math.ceil(rows.length / 2);
  const columns = [rows.slice(0, half), rows.slice(half)].map((column) => ({
    rows: column,
    labelWidth: Math.max(...column.map((row) => row.label.length)),
    valueWidth: Math.max(...column.map((row) => row.value.length)),
  }));
  const cell = (column: (typeof columns)[number], index: number): string => {
    const row = column.rows[index];
    return row === undefined
      ? ''
      : `${row.label.padEnd(column.labelWidth)}  ${paint(row.value.padStart(column.valueWidth), ANSI[row.tone])}`;
  };
  for (let index = 0; index < half; index += 1) lines.push(`  ${cell(columns[0]!, index)}    ${cell(columns[1]!, index)}`.trimEnd());
  const drawdown = rows.find((row) => row.key === 'maxDrawdown');
  if (drawdown !== undefined && drawdown.detail !== '') lines.push('', paint(`  Max drawdown: ${drawdown.detail}`, DIM));

  lines.push('', ...tradeLines(result, options.lastTrades ?? 5, intraday, paint));
  const open = result.openPositions;
  if (open.length > 0) {
    const most = options.openPositions ?? 10;
    // Many open positions: the largest by value at the last close, in the run's order.
    const listed =
      open.length <= most
        ? open
        : open
            .map((position, index) => ({ position, index, value: Math.abs(Number(position.markPrice) * Number(position.quantity)) }))
            .sort((a, b) => b.value - a.value || a.index - b.index)
            .slice(0, most)
            .sort((a, b) => a.index - b.index)
            .map(({ position }) => position);
    lines.push(
      '',
      listed.length === open.length
        ? 'Open at the end (valued at the last close):'
        : `Open at the end (valued at the last close), the ${listed.length} largest of ${formatCount(open.length)} (--json and --report list them all):`,
    );
    for (const position of listed) {
      const pnl = Number(position.unrealizedPnl);
      const price = (text: string): string => priceText(result, position.symbol, text);
      lines.push(
        `  ${position.symbol} ${position.side} ${position.quantity} @ ${price(position.averagePrice)}, mark ${price(position.markPrice)}, ${paint(formatMoney(pnl), ANSI[toneOf(pnl)])}`,
      );
    }
  }
  const tags = exitTagLines(result);
  if (tags.length > 0) lines.push('', ...tags);
  lines.push('', ...activityLines(result, intraday));
  return `${lines.join('\n')}\n`;
}

function failureLine(failure: ResultView['failures'][number], intraday: boolean): string {
  const bar = failure.bar === null ? null : { ...failure.bar, time: formatLocal(failure.bar.time, intraday) };
  return describeFailure(failure.strategy, failure.source, failure.error, failure.location, bar);
}

/** Intents, orders, fills and denials, then each denial code with its count and its first message. */
function activityLines(result: ResultView, intraday: boolean): string[] {
  const { intents, orders, fills, denials } = result.counts;
  const lines = [
    `Intents ${formatCount(intents)} · orders ${formatCount(orders)} · fills ${formatCount(fills)} · denied ${formatCount(denials)}`,
  ];
  const codes = Object.entries(result.denialsByCode).sort(([, a], [, b]) => b - a);
  if (codes.length === 0) return lines;
  const labels = codes.map(([code, count]) => `${code} ×${formatCount(count)}`);
  const width = Math.max(...labels.map((label) => label.length));
  lines.push('Denials by code (with the first of each):');
  codes.forEach(([code], index) => {
    const first = result.denials.find((denial) => denial.code === code);
    const example = first === undefined ? '' : `  ${formatLocal(first.time, intraday)} ${first.strategy}: ${first.message}`;
    lines.push(`  ${labels[index]!.padEnd(width)}${example}`.trimEnd());
  });
  return lines;
}

function tradeLines(result: ResultView, count: number, intraday: boolean, paint: (text: string, style: string) => string): string[] {
  const trades = result.trades;
  if (trades.length === 0) return ['No closed trades.'];
  const shown = trades.slice(-count);
  const tagged = trades.some((trade) => trade.entryTag !== null || trade.exitTag !== null);
  const headers = ['Symbol', 'Side', 'Qty', 'Entry', 'Price', 'Exit', 'Price', 'PnL', 'Return', 'Bars', ...(tagged ? ['Tags'] : [])];
  const numeric = [false, false, true, false, true, false, true, true, true, true, false];
  const rows = shown.map((trade) => ({
    tone: toneOf(Number(trade.pnl)),
    cells: [
      trade.symbol,
      trade.side,
      trade.quantity,
      formatLocal(trade.entryTime, intraday),
      priceText(result, trade.symbol, trade.entryPrice),
      formatLocal(trade.exitTime, intraday),
      priceText(result, trade.symbol, trade.exitPrice),
      formatMoney(Number(trade.pnl)),
      formatPercent(trade.return, true),
      formatCount(trade.barsHeld),
      ...(tagged ? [tradeTags(trade)] : []),
    ],
  }));
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => row.cells[column]!.length)));
  const align = (text: string, column: number): string => (numeric[column] ? text.padStart(widths[column]!) : text.padEnd(widths[column]!));
  const title =
    shown.length === trades.length ? `Trades (${trades.length})` : `Last ${shown.length} of ${formatCount(trades.length)} trades`;
  return [
    title,
    `  ${headers.map(align).join('  ')}`.trimEnd(),
    ...rows.map((row) => {
      const text = row.cells.map(align);
      text[7] = paint(text[7]!, ANSI[row.tone]);
      text[8] = paint(text[8]!, ANSI[row.tone]);
      return `  ${text.join('  ')}`.trimEnd();
    }),
  ];
}

/** Closed trades per exit tag with their net PnL (a stop-loss exit told from a signal exit); none when untagged. */
function exitTagLines(result: ResultView): string[] {
  const byTag = new Map<string, { trades: number; pnl: number }>();
  for (const trade of result.trades) {
    if (trade.exitTag === null && trade.entryTag === null) continue;
    const tag = trade.exitTag ?? '(untagged)';
    const entry = byTag.get(tag) ?? { trades: 0, pnl: 0 };
    entry.trades += 1;
    entry.pnl += Number(trade.pnl);
    byTag.set(tag, entry);
  }
  if (byTag.size === 0) return [];
  const width = Math.max(...[...byTag.keys()].map((tag) => tag.length));
  return [
    'Exits by tag:',
    ...[...byTag].map(
      ([tag, { trades, pnl }]) => `  ${tag.padEnd(width)}  ${formatCount(trades)} trade${trades === 1 ? '' : 's'}, ${formatMoney(pnl)}`,
    ),
  ];
}
