import { describe, expect, it } from 'vitest';
import { tradeStats } from '../../../src/backtest/metrics/trade-stats.js';
import { pairTrades } from '../../../src/backtest/metrics/trades.js';
import { DAY_MS, makeFill } from '../../support/backtest/fixtures.js';

describe('trade statistics', () => {
  it('counts wins and losses, sums them exactly and divides them', () => {
    // trades: +197.8, −52, +98, 0 (breakeven counts as neither)
    const ledger = pairTrades([
      makeFill('Buy', '100', '10', 0, { commission: '1' }),
      makeFill('Sell', '100', '12', DAY_MS, { commission: '1.2' }),
      makeFill('Buy', '10', '50', 2 * DAY_MS, { commission: '1' }),
      makeFill('Sell', '30', '45', 3 * DAY_MS, { commission: '3' }),
      makeFill('Buy', '20', '40', 4 * DAY_MS),
      makeFill('Buy', '5', '20', 5 * DAY_MS),
      makeFill('Sell', '5', '20', 6 * DAY_MS),
    ]);
    expect(ledger.closed.map((trade) => trade.pnl.toNumber())).toEqual([197.8, -52, 98, 0]);
    expect(tradeStats(ledger.closed)).toEqual({
      closedTrades: 4,
      winningTrades: 2,
      losingTrades: 1,
      winRate: 0.5,
      grossProfit: 295.8,
      grossLoss: 52,
      // 295.8 / 52 = 5.6884615384615384…
      profitFactor: expect.closeTo(5.688461538461538, 12),
      // (295.8 − 52) / 4
      averageTrade: 60.95,
      bestTrade: 197.8,
      worstTrade: -52,
    });
  });

  it('has no profit factor without a losing trade, and no averages without trades', () => {
    const winner = pairTrades([makeFill('Buy', '1', '10', 0), makeFill('Sell', '1', '11', DAY_MS)]).closed;
    expect(tradeStats(winner)).toMatchObject({ winRate: 1, profitFactor: null, grossLoss: 0 });
    expect(tradeStats([])).toEqual({
      closedTrades: 0,
      winningTrades: 0,
      losingTrades: 0,
      winRate: null,
      grossProfit: 0,
      grossLoss: 0,
      profitFactor: null,
      averageTrade: null,
      bestTrade: null,
      worstTrade: null,
    });
  });
});
