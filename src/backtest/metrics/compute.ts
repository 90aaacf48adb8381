// All statistics of a run in one object (the JSON `metrics`), from the equity curve and the trade ledger.
import { Money } from '../../domain/money.js';
import type { BacktestRecord, Metrics, MetricsOptions } from '../result.js';
import { runTimeZone } from '../run-zone.js';
import { compoundAnnualGrowth, periodsPerYear, yearsBetween } from './annualization.js';
import { maxDrawdown } from './drawdown.js';
import { barReturns, sharpeRatio, sortinoRatio } from './returns.js';
import { tradeStats } from './trade-stats.js';
import type { TradeLedger } from './trades.js';

export interface MetricsInput {
  readonly record: BacktestRecord;
  readonly ledger: TradeLedger;
  /** Bars held of each closed trade, in ledger order. */
  readonly barsHeld: readonly number[];
  /** How the run's times are written (drawdown peak, trough, recovery). */
  readonly formatTime: (epochMs: number) => string;
  /** barReturns of the equity curve over the initial cash, when the caller has made them already. */
  readonly returns?: Float64Array;
}

export function computeMetrics(input: MetricsInput, options: MetricsOptions = {}): Metrics {
  const { record, ledger, barsHeld, formatTime } = input;
  const { times, equity, exposed } = record.equity;
  const points = equity.length;
  const initial = record.initialCash.toNumber();
  const exact = record.finalEquity;
  const finalEquity = points === 0 ? initial : exact === undefined ? equity[points - 1]! : exact.toNumber();
  // From the exact gain when there is one: final / initial − 1 in floats loses the digits of a small gain.
  const gain = points === 0 || exact === undefined ? finalEquity - initial : exact.minus(record.initialCash).toNumber();
  const perYear = options.periodsPerYear ?? periodsPerYear(record.period, times, runTimeZone(record));
  const riskFreeRate = options.riskFreeRate ?? 0;
  const returns = input.returns ?? barReturns(equity, initial);
  const drawdown = maxDrawdown(equity, initial);
  const timeAt = (index: number | undefined): string | null =>
    index === undefined || points === 0 ? null : formatTime(times[Math.max(0, index)]!);

  let bars = 0;
  for (const candles of record.bars.values()) bars += candles.length;
  let exposedPoints = 0;
  for (let index = 0; index < points; index += 1) if (exposed[index]) exposedPoints += 1;
  const commission = record.fills.reduce((sum, fill) => sum.plus(fill.commission), Money.zero(record.currency));
  const trades = tradeStats(ledger.closed);

  return {
    bars,
    barTimes: points,
    fills: record.fills.length,
    closedTrades: trades.closedTrades,
    winningTrades: trades.winningTrades,
    losingTrades: trades.losingTrades,
    winRate: trades.winRate,
    finalEquity,
    totalReturn: initial === 0 ? 0 : gain / initial,
    cagr: points === 0 ? null : compoundAnnualGrowth(initial, finalEquity, yearsBetween(times[0]!, times[points - 1]!)),
    sharpe: sharpeRatio(returns, perYear, riskFreeRate),
    sortino: sortinoRatio(returns, perYear, riskFreeRate),
    maxDrawdown: drawdown?.depth ?? 0,
    maxDrawdownPeak: timeAt(drawdown?.peakIndex),
    maxDrawdownTrough: timeAt(drawdown?.troughIndex),
    maxDrawdownRecovery: timeAt(drawdown?.recoveryIndex),
    maxDrawdownBars: drawdown === undefined ? 0 : (drawdown.recoveryIndex ?? points - 1) - Math.max(0, drawdown.peakIndex),
    profitFactor: trades.profitFactor,
    grossProfit: trades.grossProfit,
    grossLoss: trades.grossLoss,
    exposure: points === 0 ? 0 : exposedPoints / points,
    averageTrade: trades.averageTrade,
    bestTrade: trades.bestTrade,
    worstTrade: trades.worstTrade,
    averageBarsHeld: barsHeld.length === 0 ? null : barsHeld.reduce((sum, held) => sum + held, 0) / barsHeld.length,
    totalCommission: commission.toNumber(),
    periodsPerYear: perYear,
    riskFreeRate,
  };
}
