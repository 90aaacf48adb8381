import { describe, expect, it } from 'vitest';
import { buildResult, formatResultJson, resultDocument, resultJsonChunks } from '../../../src/backtest/report/result-builder.js';
import { backtestResultSchema } from '../../../src/backtest/result.js';
import { parseSymbol } from '../../../src/domain/symbol.js';
import { barsFromCloses, DAY_MS, simulateRun, SPY } from '../../support/backtest/fixtures.js';

const HK = parseSymbol('700.HK');
/** 2024-01-02T00:00:00+08:00: daily HK bars are stamped at Hong Kong midnight. */
const HK_DAY_ZERO = Date.UTC(2024, 0, 1, 16);

function roundTrip() {
  const bars = barsFromCloses([10, 11, 12, 11, 13]);
  return simulateRun(
    new Map([[SPY, bars]]),
    [
      { bar: 1, side: 'Buy', quantity: 100 },
      { bar: 3, side: 'Sell', quantity: 100 },
    ],
    { initialCash: 10_000, commissionRate: '0.001', strategy: 'sma-crossover' },
  );
}

describe('buildResult', () => {
  it('writes exact fills and trades with market-local times', () => {
    const result = buildResult({ ...roundTrip(), settings: { commission: 0.001, fill: 'open' } });

    expect(result).toMatchObject({
      version: 1,
      strategy: 'sma-crossover',
      symbols: ['SPY.US'],
      period: 'day',
      currency: 'USD',
      initialCash: '10000',
      timeZone: 'America/New_York',
      start: '2024-01-02T00:00:00-05:00',
      end: '2024-01-06T00:00:00-05:00',
      settings: { commission: 0.001, fill: 'open' },
    });
    expect(result.fills.map(({ side, quantity, price, commission, time }) => ({ side, quantity, price, commission, time }))).toEqual([
      { side: 'Buy', quantity: '100', price: '10', commission: '1', time: '2024-01-03T00:00:00-05:00' },
      { side: 'Sell', quantity: '100', price: '12', commission: '1.2', time: '2024-01-05T00:00:00-05:00' },
    ]);
    expect(result.trades).toEqual([
      {
        symbol: 'SPY.US',
        side: 'Long',
        quantity: '100',
        entryTime: '2024-01-03T00:00:00-05:00',
        entryPrice: '10',
        exitTime: '2024-01-05T00:00:00-05:00',
        exitPrice: '12',
        commission: '2.2',
        dividends: '0',
        borrowFees: '0',
        // (12 − 10) × 100 − 2.2
        pnl: '197.8',
        // 197.8 / (10 × 100)
        return: 0.1978,
        barsHeld: 2,
        entryTag: null,
        exitTag: null,
      },
    ]);
    expect(result.openPositions).toEqual([]);
    expect(result.metrics).toMatchObject({
      closedTrades: 1,
      winningTrades: 1,
      finalEquity: 10_197.8,
      maxDrawdownPeak: '2024-01-04T00:00:00-05:00',
    });
  });

  it('writes prices with more than ten decimal places as they are, not rounded', () => {
    // A price as small as some coins', 15 places: the open the buy fills at, and the one it is sold at.
    const bars = barsFromCloses([1, 1, 1, 1]).map((bar, index) => {
      const price = ['0.000011631853918', '0.000011631853918', '0.000012854467151', '0.000012854467151'][index]!;
      return { ...bar, open: Number(price), high: Number(price), low: Number(price), close: Number(price) };
    });
    const record = simulateRun(
      new Map([[SPY, bars]]),
      [
        { bar: 1, side: 'Buy', quantity: 100 },
        { bar: 2, side: 'Sell', quantity: 100 },
      ],
      { initialCash: 10_000 },
    );
    const result = buildResult(record);
    expect(result.fills.map((fill) => fill.price)).toEqual(['0.000011631853918', '0.000012854467151']);
    expect(result.trades[0]).toMatchObject({ entryPrice: '0.000011631853918', exitPrice: '0.000012854467151', pnl: '0.0001222613233' });
  });

  it('writes the average price of an open position exactly, not rounded to ten places', () => {
    // Two buys of 100 at 0.000011631853918 and 0.000012854467151: the average is 0.0000122431605345 (16 places).
    const prices = ['0.000011631853918', '0.000011631853918', '0.000012854467151', '0.000012854467151'];
    const bars = barsFromCloses([1, 1, 1, 1]).map((bar, index) => {
      const price = Number(prices[index]!);
      return { ...bar, open: price, high: price, low: price, close: price };
    });
    const record = simulateRun(
      new Map([[SPY, bars]]),
      [
        { bar: 1, side: 'Buy', quantity: 100 },
        { bar: 2, side: 'Buy', quantity: 100 },
      ],
      { initialCash: 10_000 },
    );
    const result = buildResult(record);
    expect(result.fills.map((fill) => fill.price)).toEqual(['0.000011631853918', '0.000012854467151']);
    expect(result.openPositions[0]).toMatchObject({ quantity: '200', averagePrice: '0.0000122431605345' });
  });

  it('values a position left open at the last close, net of its entry commission', () => {
    // buy 10 at bar 2's open 11 (commission 1 % of 110 = 1.1); last close 14: (14 − 11) × 10 − 1.1 = 28.9
    const record = simulateRun(
      new Map([[HK, barsFromCloses([10, 11, 12, 14], { symbol: HK, start: HK_DAY_ZERO })]]),
      [{ bar: 2, side: 'Buy', quantity: 10 }],
      {
        initialCash: 1000,
        commissionRate: '0.01',
      },
    );
    const result = buildResult(record);
    expect(result.openPositions).toEqual([
      {
        symbol: '700.HK',
        side: 'Long',
        quantity: '10',
        averagePrice: '11',
        markPrice: '14',
        dividends: '0',
        borrowFees: '0',
        unrealizedPnl: '28.9',
      },
    ]);
    expect(result.fills[0]!.time).toBe('2024-01-04T00:00:00+08:00');
    expect(result.timeZone).toBe('Asia/Hong_Kong');
    // Σ trade pnl (none) + unrealised = final equity − initial cash
    expect(result.metrics.finalEquity - 1000).toBeCloseTo(28.9, 9);
  });

  it('validates against the published schema, also after a trip through JSON text', () => {
    const bars = new Map([
      [SPY, barsFromCloses([10, 11, 12, 11, 13, 12])],
      [HK, barsFromCloses([300, 310, 305, 320, 330, 310], { symbol: HK })],
    ]);
    const record = simulateRun(
      bars,
      [
        { bar: 1, side: 'Buy', quantity: 100 },
        { bar: 2, side: 'Sell', quantity: 150, symbol: HK },
        { bar: 3, side: 'Sell', quantity: 300 },
        { bar: 5, side: 'Buy', quantity: 200 },
      ],
      { commissionRate: '0.0005' },
    );
    const result = buildResult(record);

    expect(backtestResultSchema.parse(JSON.parse(formatResultJson(result)))).toEqual(result);
    expect([...resultJsonChunks(result)].join('')).toBe(formatResultJson(result));
    // Its rows made as they are written: the same text.
    expect([...resultJsonChunks(resultDocument(record))].join('')).toBe(formatResultJson(result));
    expect(result.trades.map((trade) => [trade.symbol, trade.side, trade.quantity])).toEqual([
      ['SPY.US', 'Long', '100'],
      ['SPY.US', 'Short', '200'],
    ]);
    expect(result.openPositions.map((position) => [position.symbol, position.side, position.quantity])).toEqual([
      ['700.HK', 'Short', '150'],
    ]);
  });

  it('rejects a document that lost a required metric or gained an unknown one', () => {
    const result = buildResult(roundTrip());
    const { sharpe: _dropped, ...withoutSharpe } = result.metrics;
    expect(backtestResultSchema.safeParse({ ...result, metrics: withoutSharpe }).success).toBe(false);
    expect(backtestResultSchema.safeParse({ ...result, extra: 1 }).success).toBe(false);
  });

  it('writes profit factor as null, not Infinity, when nothing lost', () => {
    const text = formatResultJson(buildResult(roundTrip()));
    expect(JSON.parse(text).metrics.profitFactor).toBeNull();
    expect(text.endsWith('}\n')).toBe(true);
  });

  it('keeps times of later bars one day apart across the run', () => {
    const result = buildResult(roundTrip());
    expect(Date.parse(result.end!) - Date.parse(result.start!)).toBe(4 * DAY_MS);
  });
});
