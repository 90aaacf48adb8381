import { describe, expect, it } from 'vitest';
import { barLocator } from '../../../src/backtest/metrics/bar-index.js';
import { computeMetrics } from '../../../src/backtest/metrics/compute.js';
import { pairTrades } from '../../../src/backtest/metrics/trades.js';
import type { BacktestRecord } from '../../../src/backtest/result.js';
import { parseSymbol } from '../../../src/domain/symbol.js';
import { barsFromCloses, DAY_MS, recordWithEquity, simulateRun, SPY, US_DAY_ZERO } from '../../support/backtest/fixtures.js';

const isoDay = (epochMs: number): string => new Date(epochMs).toISOString().slice(0, 10);

function metricsOf(record: BacktestRecord) {
  const ledger = pairTrades(record.fills);
  const locate = barLocator(record.bars);
  const barsHeld = ledger.closed.map((trade) => locate(trade.symbol, trade.exitTime) - locate(trade.symbol, trade.entryTime));
  return computeMetrics({ record, ledger, barsHeld, formatTime: isoDay });
}

describe('computeMetrics', () => {
  it('measures a hand-checked round trip', () => {
    // closes 10, 11, 12, 11, 13 (each bar opens at the previous close); buy 100 at bar 1's open (10),
    // sell 100 at bar 3's open (12), commission 0.1 % of value: 1 and 1.2.
    // equity at the closes: 10000; 8999 + 100 × 11 = 10099; 8999 + 1200 = 10199; 8999 + 1200 − 1.2 = 10197.8; 10197.8
    const bars = barsFromCloses([10, 11, 12, 11, 13]);
    const record = simulateRun(
      new Map([[SPY, bars]]),
      [
        { bar: 1, side: 'Buy', quantity: 100 },
        { bar: 3, side: 'Sell', quantity: 100 },
      ],
      { initialCash: 10_000, commissionRate: '0.001' },
    );
    expect(Array.from(record.equity.equity)).toEqual([10_000, 10_099, 10_199, 10_197.8, 10_197.8]);

    const metrics = metricsOf(record);

    expect(metrics).toMatchObject({
      bars: 5,
      fills: 2,
      closedTrades: 1,
      winningTrades: 1,
      losingTrades: 0,
      winRate: 1,
      finalEquity: 10_197.8,
      // 10197.8 / 10000 − 1
      totalReturn: expect.closeTo(0.01978, 12),
      // peak 10199 (bar 2) → 10197.8 (bar 3): 1.2 / 10199; not recovered, 2 bars to the last one
      maxDrawdown: expect.closeTo(1.2 / 10_199, 15),
      maxDrawdownPeak: isoDay(US_DAY_ZERO + 2 * DAY_MS),
      maxDrawdownTrough: isoDay(US_DAY_ZERO + 3 * DAY_MS),
      maxDrawdownRecovery: null,
      maxDrawdownBars: 2,
      profitFactor: null,
      grossProfit: 197.8,
      // a position is open at the close of bars 1 and 2 of 5
      exposure: 0.4,
      averageTrade: 197.8,
      bestTrade: 197.8,
      worstTrade: 197.8,
      averageBarsHeld: 2,
      totalCommission: 2.2,
      periodsPerYear: 252,
      riskFreeRate: 0,
    });
    // 4 days between first and last bar: 1.01978^(365.25/4) − 1
    expect(metrics.cagr).toBeCloseTo(1.01978 ** (365.25 / 4) - 1, 10);
    expect(metrics.sharpe).toBeGreaterThan(0);
    expect(metrics.sortino).toBeGreaterThan(0);
  });

  it('counts bars over every symbol and bar times once; the drawdown is measured in bar times', () => {
    // Two symbols on the same 4 days: 8 bars, 4 bar times. Long 100 of the first from day 1's open (10);
    // equity 10000, 10000 + 100 × (12 − 10), then a fall to 100 × (8 − 10) below the start, not recovered.
    const first = barsFromCloses([10, 12, 8, 9]);
    const second = barsFromCloses([50, 51, 52, 53], { symbol: parseSymbol('700.HK') });
    const record = simulateRun(
      new Map([
        [SPY, first],
        [parseSymbol('700.HK'), second],
      ]),
      [{ bar: 1, side: 'Buy', quantity: 100 }],
      { initialCash: 10_000 },
    );

    const metrics = metricsOf(record);

    expect([metrics.bars, metrics.barTimes]).toEqual([8, 4]);
    // Peak at the second bar time, still below it at the fourth: 2 bar times, not 4 bars.
    expect([metrics.maxDrawdownPeak, metrics.maxDrawdownBars]).toEqual([isoDay(first[1]!.time), 2]);
  });

  it('reports a run without trades as flat with nulls where a figure is undefined', () => {
    const metrics = metricsOf(recordWithEquity([100, 100, 100], { initialCash: 100 }));
    expect(metrics).toMatchObject({
      closedTrades: 0,
      winRate: null,
      finalEquity: 100,
      totalReturn: 0,
      cagr: 0,
      sharpe: null,
      sortino: null,
      maxDrawdown: 0,
      maxDrawdownPeak: null,
      maxDrawdownTrough: null,
      maxDrawdownRecovery: null,
      maxDrawdownBars: 0,
      profitFactor: null,
      exposure: 0,
      averageTrade: null,
      averageBarsHeld: null,
      totalCommission: 0,
    });
  });

  it('handles a single bar: no CAGR span and no ratios', () => {
    const metrics = metricsOf(recordWithEquity([105], { initialCash: 100, exposed: [true] }));
    expect(metrics).toMatchObject({
      bars: 1,
      finalEquity: 105,
      totalReturn: expect.closeTo(0.05, 12),
      cagr: null,
      sharpe: null,
      sortino: null,
      exposure: 1,
    });
  });

  it('handles a run with no bars at all', () => {
    const record: BacktestRecord = { ...recordWithEquity([]), bars: new Map() };
    const metrics = metricsOf(record);
    expect(metrics).toMatchObject({ bars: 0, finalEquity: 100, totalReturn: 0, cagr: null, maxDrawdown: 0, exposure: 0 });
  });

  it("counts an intraday run's trading days in its market's zone (SPY.US: New York dates)", () => {
    // 16 hourly bars of one US day with extended hours, 04:00–19:00 New York in January = 09:00–00:00 UTC:
    // one New York date (252 × 16 bars a year), where UTC dates would count two.
    const equity = Array.from({ length: 16 }, (_, bar) => 100 + (bar % 3));
    const record = recordWithEquity(equity, { period: '60m', stepMs: 3_600_000, start: Date.UTC(2024, 0, 2, 9) });
    expect(metricsOf(record).periodsPerYear).toBe(4_032);
  });

  it('takes the risk-free rate and the annualisation from the options', () => {
    const record = recordWithEquity([110, 99, 108.9], { initialCash: 100 });
    const ledger = pairTrades([]);
    const metrics = computeMetrics({ record, ledger, barsHeld: [], formatTime: isoDay }, { riskFreeRate: 0.04, periodsPerYear: 4 });
    // as in returns.test.ts: (1/30 − (1.04^¼ − 1)) × √75 × √4
    expect(metrics.sharpe).toBeCloseTo((1 / 30 - (1.04 ** 0.25 - 1)) * Math.sqrt(75) * 2, 10);
    expect(metrics).toMatchObject({ riskFreeRate: 0.04, periodsPerYear: 4 });
  });
});

describe('barLocator', () => {
  it('finds the bar a time falls in, by symbol', () => {
    const locate = barLocator(new Map([[SPY, barsFromCloses([1, 2, 3])]]));
    expect(locate(SPY, US_DAY_ZERO)).toBe(0);
    expect(locate(SPY, US_DAY_ZERO + DAY_MS + 3_600_000)).toBe(1);
    expect(locate(SPY, US_DAY_ZERO + 10 * DAY_MS)).toBe(2);
    expect(locate(SPY, US_DAY_ZERO - DAY_MS)).toBe(0);
  });
});
