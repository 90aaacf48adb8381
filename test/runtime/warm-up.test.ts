// Warm-ups in the runtime: a strategy sees history bars before live ones, decides nothing on them, and starts
// cold (with a warning) when the history cannot be had.
import { SMA } from 'trading-signals';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/clock/virtual-clock.js';
import type { Candle } from '../../src/domain/index.js';
import type { Runtime } from '../../src/runtime/index.js';
import { createRuntime } from '../../src/runtime/index.js';
import { defineStrategy, prepareStrategy } from '../../src/strategy/index.js';
import { START } from '../support/execution/runtime-setup.js';
import { StubBroker } from '../support/execution/stub-broker.js';
import { HistoryMarketData } from '../support/execution/history-market-data.js';
import { dailyCandles } from '../support/execution/subject-market-data.js';
import { captureLogger } from '../support/http/client-harness.js';

// Buys one share on every bar its 5-bar SMA is ready on, naming the bar: shows when the indicator is warm.
const smaBuyer = defineStrategy({
  name: 'sma-buyer',
  symbols: ['AAPL.US'],
  warmup: 5,
  init: () => ({ sma: new SMA(5), seen: [] as number[] }),
  onCandle(candle, ctx, state) {
    state.seen.push(candle.close);
    const average = state.sma.add(candle.close);
    return average === null ? undefined : ctx.buy(1, { reason: `bar ${candle.close} sma ${average}` });
  },
});

// Twelve daily closes 1…12: history is 1…5 (or 1…6), live continues from there.
const BARS = dailyCandles('AAPL.US', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);

let running: Runtime | undefined;

afterEach(async () => {
  await running?.stop();
  running = undefined;
});

function setup(marketData: HistoryMarketData) {
  const clock = new VirtualClock(START);
  const broker = new StubBroker(clock);
  const log = captureLogger();
  const reasons: string[] = [];
  const runtime = createRuntime({
    reconcileIntervalMs: 0,
    clock,
    broker,
    marketData,
    strategies: [prepareStrategy(smaBuyer)],
    logger: log.logger,
  });
  runtime.events.subscribe((event) => {
    if (event.type === 'intent') reasons.push(event.intent.reason ?? '');
  });
  running = runtime;
  return { runtime, broker, log, reasons };
}

async function pushLive(marketData: HistoryMarketData, runtime: Runtime, bars: readonly Candle[]): Promise<void> {
  for (const bar of bars) {
    marketData.pushCandle(bar);
    await runtime.settled();
  }
}

describe('strategy warm-up', () => {
  it('plays the history first, so the indicator is warm at the first live bar, and drops intents made on history', async () => {
    const marketData = new HistoryMarketData();
    marketData.serve(BARS.slice(0, 5));
    const { runtime, broker, log, reasons } = setup(marketData);

    await runtime.start();
    await pushLive(marketData, runtime, BARS.slice(5, 7));

    expect(marketData.requests).toEqual([{ symbol: BARS[0]!.symbol, period: 'day', count: 5 }]);
    // History bar 5 made the SMA ready and a buy: dropped, so the first intent is the first live bar's.
    expect(reasons).toEqual(['bar 6 sma 4', 'bar 7 sma 5']);
    expect(broker.submitted).toHaveLength(2);
    expect(log.text()).toContain('warmed up on 5 bars of history');
    expect(log.text()).toContain('dropped an intent made on a history bar');
  });

  it('holds live bars that come while history loads, and drops the ones history already covered', async () => {
    const marketData = new HistoryMarketData();
    marketData.serveLater(BARS.slice(0, 6));
    const { runtime, reasons } = setup(marketData);
    const started = runtime.start();
    await new Promise((resolve) => setImmediate(resolve));

    // Bar 6 is both the last history bar and a live bar; bar 7 comes before history arrives.
    marketData.pushCandle(BARS[5]!);
    marketData.pushCandle(BARS[6]!);
    marketData.releaseHistory();
    await started;
    await runtime.settled();
    await pushLive(marketData, runtime, [BARS[7]!]);

    expect(reasons).toEqual(['bar 7 sma 5', 'bar 8 sma 6']);
  });

  it('starts cold with a warning when the history cannot be had', async () => {
    const marketData = new HistoryMarketData();
    marketData.fail(new Error('quote connection closed'));
    const { runtime, log, reasons } = setup(marketData);

    await runtime.start();
    await pushLive(marketData, runtime, BARS.slice(0, 5));

    const warning = log
      .text()
      .split('\n')
      .find((line) => line.includes('history unavailable'));
    expect(warning).toBeDefined();
    expect(JSON.parse(warning!)).toMatchObject({
      level: 40,
      strategy: 'sma-buyer',
      msg: 'history unavailable: quote connection closed; starting cold',
    });
    // Cold: the SMA needs five live bars before the first decision.
    expect(reasons).toEqual(['bar 5 sma 3']);
    expect(runtime.summary().strategies.map((strategy) => strategy.state)).toEqual(['running']);
  });

  it('names the bar a warmed-up strategy failed on, counting the history bars it was handed', async () => {
    const failsOnSeven = defineStrategy({
      name: 'fails-on-seven',
      symbols: ['AAPL.US'],
      warmup: 5,
      onCandle(candle) {
        if (candle.close === 7) throw new Error('seven');
        return undefined;
      },
    });
    const marketData = new HistoryMarketData();
    marketData.serve(BARS.slice(0, 5));
    const clock = new VirtualClock(START);
    running = createRuntime({
      reconcileIntervalMs: 0,
      clock,
      broker: new StubBroker(clock),
      marketData,
      strategies: [prepareStrategy(failsOnSeven)],
    });

    await running.start();
    await pushLive(marketData, running, BARS.slice(5, 8));

    // Five history bars (index 0-4), then live 6 (index 5) and 7 (index 6).
    expect(running.summary().strategies[0]?.failure?.bar).toEqual({
      symbol: BARS[6]!.symbol,
      period: 'day',
      time: BARS[6]!.time,
      index: 6,
    });
  });
});
