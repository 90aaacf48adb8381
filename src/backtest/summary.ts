// The terminal summary of a run: a header line, the metrics in two aligned columns, the last trades.
import { isIntraday } from '../domain/period.js';
import { formatCount, formatLocal, formatMoney, formatPercent, type Tone, toneOf } from './report/format.js';
import { metricRows } from './report/metric-rows.js';
import type { BacktestResult } from './result.js';

export interface SummaryOptions {
  /** ANSI colours for gains and losses; see colorEnabled. */
  readonly color: boolean;
  /** How many of the latest trades to list (default 5). */
  readonly lastTrades?: number;
}

const ANSI: Readonly<Record<Tone, string>> = { positive: '\u001b[32m', negative: '\u001b[31m', neutral: '' };
const BOLD = '\u001b[1m';
const DIM = '\u001b[2m';
const RESET = '\u001b[0m';

/** Colour only for a terminal, and never when NO_COLOR is set or TERM is "dumb". */
export function colorEnabled(stream: { readonly isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && (env.NO_COLOR ?? '') === '' && env.TERM !== 'dumb';
}

export function formatSummary(result: BacktestResult, options: SummaryOptions): string {
  const paint = (text: string, style: string): string => (options.color && style !== '' ? `${style}${text}${RESET}` : text);
  const intraday = isIntraday(result.period);
  const span = result.start === null ? 'no bars' : `${formatLocal(result.start, intraday)} → ${formatLocal(result.end, intraday)}`;
  const lines = [`${paint(`Backtest ${result.strategy}`, BOLD)}  ${result.symbols.join(', ')}  ${result.period}  ${span}`, ''];

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
  if (result.openPositions.length > 0) {
    lines.push('', 'Open at the end (valued at the last close):');
    for (const position of result.openPositions) {
      const pnl = Number(position.unrealizedPnl);
      lines.push(
        `  ${position.symbol} ${position.side} ${position.quantity} @ ${position.averagePrice}, mark ${position.markPrice}, ${paint(formatMoney(pnl), ANSI[toneOf(pnl)])}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

function tradeLines(result: BacktestResult, count: number, intraday: boolean, paint: (text: string, style: string) => string): string[] {
  const trades = result.trades;
  if (trades.length === 0) return ['No closed trades.'];
  const shown = trades.slice(-count);
  const headers = ['Symbol', 'Side', 'Qty', 'Entry', 'Price', 'Exit', 'Price', 'PnL', 'Return', 'Bars'];
  const numeric = [false, false, true, false, true, false, true, true, true, true];
  const rows = shown.map((trade) => ({
    tone: toneOf(Number(trade.pnl)),
    cells: [
      trade.symbol,
      trade.side,
      trade.quantity,
      formatLocal(trade.entryTime, intraday),
      trade.entryPrice,
      formatLocal(trade.exitTime, intraday),
      trade.exitPrice,
      formatMoney(Number(trade.pnl)),
      formatPercent(trade.return, true),
      formatCount(trade.barsHeld),
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
