import { describe, expect, it } from 'vitest';
import { prepareStrategy } from '../../src/strategy/index.js';
import breakout from '../../strategies/breakout.js';
import { VirtualClock } from '../../src/clock/virtual-clock.js';
import { createRuntime } from '../../src/runtime/index.js';
import { runOnCandles } from '../support/execution/harness.js';
import { HistoryMarketData } from '../support/execution/history-market-data.js';
import { START } from '../support/execution/runtime-setup.js';
import { StubBroker } from '../support/execution/stub-broker.js';
import { dailyCandles } from '../support/execution/subject-market-data.js';

// lookback 3, ATR(2), stop 1 ATR. Bar 4 closes at 11 above the previous 3-bar high 10.5: entry, stop
// 11 - 0.494 = 10.506. The stop trails the best close: 11.003 (bar 5), 11.502 (bar 6), 11.875 (bar 8).
// Bar 9 closes at 11.2 below it: exit. Bar 12 closes at 12.6 above the 3-bar high 11.2: entry again.
const CLOSES = [10, 10.5, 10, 10.4, 11, 11.5, 12, 11.8, 12.3, 11.2, 10.8, 11, 12.6];

describe('breakout strategy', () => {
  it('buys a close above the previous high and exits when a close falls below the trailing ATR stop', async () => {
    const strategy = prepareStrategy(breakout, { params: { lookback: 3, atrPeriod: 2, stopAtr: 1, quantity: 10 } });

    const run = await runOnCandles([strategy], dailyCandles('SPX.US', CLOSES));

    expect(run.orders).toEqual(['Buy 10 SPX.US @bar 4', 'Sell 10 SPX.US @bar 9', 'Buy 10 SPX.US @bar 12']);
  });

  it('keeps separate channels and stops per symbol', async () => {
    const strategy = prepareStrategy(breakout, {
      symbols: ['A.US', 'B.US'],
      params: { lookback: 3, atrPeriod: 2, stopAtr: 1, quantity: 10 },
    });
    const a = dailyCandles('A.US', CLOSES);
    const b = dailyCandles(
      'B.US',
      CLOSES.map(() => 50),
    );
    const interleaved = a.flatMap((candle, index) => [candle, b[index]!]);

    const run = await runOnCandles([strategy], interleaved);

    expect(run.orders).toEqual(['Buy 10 A.US @bar 8', 'Sell 10 A.US @bar 18', 'Buy 10 A.US @bar 24']);
  });
});

describe('breakout strategy warmed up from history', () => {
  it('learns its channel from history without taking on the trade of a history breakout', async () => {
    // History: 10, 10, 10, then 11 breaks out (an entry that is dropped, as every history decision is).
    // Live: 12 breaks above the 3-bar high 11 and must be bought; had the dropped entry left its stop
    // behind, the strategy would think it already held the position.
    const bars = dailyCandles('SPX.US', [10, 10, 10, 11, 12]);
    const marketData = new HistoryMarketData();
    marketData.serve(bars.slice(0, 4));
    const strategy = prepareStrategy(breakout, { params: { lookback: 3, atrPeriod: 2, stopAtr: 100, quantity: 10 } });
    const clock = new VirtualClock(START);
    const broker = new StubBroker(clock);
    const runtime = createRuntime({ reconcileIntervalMs: 0, clock, broker, marketData, strategies: [strategy] });

    await runtime.start();
    marketData.pushCandle(bars[4]!);
    await runtime.settled();
    await runtime.stop();

    // It asks for its whole warm-up (the ATR's settling, 41 bars) and learns from the 4 there are.
    expect(marketData.requests.map((request) => request.count)).toEqual([strategy.warmup]);
    expect(strategy.warmup).toBe(41);
    expect(broker.submitted.map((order) => `${order.side} ${order.quantity.toFixed()}`)).toEqual(['Buy 10']);
  });
});
