// The metrics as labelled, formatted rows: one list, read by the terminal summary and the HTML table alike.
import { isIntraday } from '../../domain/period.js';
import type { ResultView } from '../result.js';
import { formatCount, formatLocal, formatMoney, formatPercent, formatRatio, type Tone, toneOf } from './format.js';

export interface MetricRow {
  /** The metric's key in the JSON `metrics`, for tests and anchors. */
  readonly key: string;
  readonly label: string;
  readonly value: string;
  /** Extra context in parentheses, e.g. the drawdown's dates; may be empty. */
  readonly detail: string;
  readonly tone: Tone;
}

export function metricRows(result: ResultView): MetricRow[] {
  const m = result.metrics;
  const intraday = isIntraday(result.dataPeriod);
  const date = (iso: string | null): string => formatLocal(iso, intraday);
  const row = (key: string, label: string, value: string, detail = '', tone: Tone = 'neutral'): MetricRow => ({
    key,
    label,
    value,
    detail,
    tone,
  });
  // With several symbols a bar time holds several bars: drawdown and exposure count bar times.
  const barUnit = m.bars === m.barTimes ? 'bars' : 'bar times';
  const drawdownDetail =
    m.maxDrawdownPeak === null
      ? ''
      : `peak ${date(m.maxDrawdownPeak)}, trough ${date(m.maxDrawdownTrough)}, ${m.maxDrawdownRecovery === null ? 'not recovered' : `recovered ${date(m.maxDrawdownRecovery)}`} (${formatCount(m.maxDrawdownBars)} ${barUnit})`;
  return [
    row(
      'finalEquity',
      'Final equity',
      `${formatMoney(m.finalEquity)} ${result.currency}`,
      `from ${formatMoney(Number(result.initialCash))}`,
      toneOf(m.finalEquity - Number(result.initialCash)),
    ),
    row('totalReturn', 'Total return', formatPercent(m.totalReturn, true), '', toneOf(m.totalReturn)),
    row('cagr', 'CAGR', formatPercent(m.cagr, true), '', toneOf(m.cagr)),
    row(
      'sharpe',
      'Sharpe',
      formatRatio(m.sharpe),
      m.riskFreeRate === 0 ? '' : `risk-free ${formatPercent(m.riskFreeRate)}`,
      toneOf(m.sharpe),
    ),
    row('sortino', 'Sortino', formatRatio(m.sortino), '', toneOf(m.sortino)),
    row(
      'maxDrawdown',
      'Max drawdown',
      formatPercent(m.maxDrawdown === 0 ? 0 : -m.maxDrawdown),
      drawdownDetail,
      m.maxDrawdown > 0 ? 'negative' : 'neutral',
    ),
    row(
      'closedTrades',
      'Closed trades',
      formatCount(m.closedTrades),
      `${formatCount(m.winningTrades)} won, ${formatCount(m.losingTrades)} lost`,
    ),
    row('winRate', 'Win rate', formatPercent(m.winRate)),
    row(
      'profitFactor',
      'Profit factor',
      formatRatio(m.profitFactor),
      m.profitFactor === null && m.winningTrades > 0 ? 'no losing trade' : '',
    ),
    row('averageTrade', 'Average trade', formatMoney(m.averageTrade), '', toneOf(m.averageTrade)),
    row('bestTrade', 'Best trade', formatMoney(m.bestTrade), '', toneOf(m.bestTrade)),
    row('worstTrade', 'Worst trade', formatMoney(m.worstTrade), '', toneOf(m.worstTrade)),
    row('averageBarsHeld', 'Average bars held', formatCount(m.averageBarsHeld)),
    row('exposure', 'Exposure', formatPercent(m.exposure), `of ${barUnit} with a position`),
    row('fills', 'Fills', formatCount(m.fills)),
    row('totalCommission', 'Commission', formatMoney(m.totalCommission)),
    row(
      'bars',
      'Bars',
      formatCount(m.bars),
      `${m.bars === m.barTimes ? '' : `${formatCount(m.barTimes)} bar times, `}${formatCount(m.periodsPerYear)} per year`,
    ),
  ];
}
