// Bars per second through strategy + runtime (risk, executor, book) with an in-memory stub broker that
// fills market orders at once: the part of a backtest this repository's runtime owns. Prints measured figures.
import { VirtualClock } from '../src/clock/virtual-clock.js';
import { parseSymbol, type Candle } from '../src/domain/index.js';
import { createRuntime } from '../src/runtime/index.js';
import { prepareStrategy } from '../src/strategy/index.js';
import smaCrossover from '../strategies/sma-crossover.js';
import { StubBroker } from '../test/support/execution/stub-broker.js';
import { SubjectMarketData } from '../test/support/execution/subject-market-data.js';

const MINUTE_MS = 60_000;

// A seeded random walk (a cross every ~25 bars: far more orders than a real series), or a steady rise
// (seed 0: no cross, so no intents at all) to show the per-bar cost alone.
function makeBars(symbolText: string, count: number, seed: number): Candle[] {
  const symbol = parseSymbol(symbolText);
  const bars: Candle[] = new Array(count);
  let price = 100;
  let state = seed;
  for (let index = 0; index < count; index += 1) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    const open = price;
    price = seed === 0 ? price + 0.001 : Math.max(1, price * (1 + (state / 2_147_483_648 - 0.5) * 0.01));
    bars[index] = {
      symbol,
      period: '1m',
      time: index * MINUTE_MS,
      open,
      high: Math.max(open, price),
      low: Math.min(open, price),
      close: price,
      volume: 1000,
    };
  }
  return bars;
}

async function run(label: string, symbols: readonly string[], barsPerSymbol: number, walk = true): Promise<void> {
  const series = symbols.map((symbol, index) => makeBars(symbol, barsPerSymbol, walk ? index + 1 : 0));
  const clock = new VirtualClock(0);
  const broker = new StubBroker(clock, { cash: '1e12' });
  const marketData = new SubjectMarketData();
  const strategies = symbols.map((symbol) => prepareStrategy(smaCrossover, { symbols: [symbol], period: '1m' }));
  const runtime = createRuntime({ clock, marketData, broker, strategies, reconcileIntervalMs: 0 });
  await runtime.start();
  const feeds = series.map((bars) => marketData.candleFeed(bars[0]!.symbol, '1m'));
  let awaited = 0;
  const started = process.hrtime.bigint();
  for (let index = 0; index < barsPerSymbol; index += 1) {
    for (let symbol = 0; symbol < series.length; symbol += 1) {
      const bar = series[symbol]![index]!;
      clock.advanceTo(bar.time + MINUTE_MS);
      broker.fillPrice = bar.open;
      feeds[symbol]!.next(bar);
      if (runtime.busy) {
        awaited += 1;
        await runtime.settled();
      }
    }
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const summary = await runtime.stop();
  const bars = barsPerSymbol * symbols.length;
  console.log(
    `${label}: ${bars.toLocaleString('en-US')} bars in ${seconds.toFixed(3)} s = ${Math.round(bars / seconds).toLocaleString('en-US')} bars/s ` +
      `(${summary.orders} orders, ${summary.fills} fills, ${awaited} bars awaited settled())`,
  );
}

export default async function main(): Promise<void> {
  await run('sma-crossover, 1 symbol × 1,000,000 bars, steady rise (no intents)', ['AAPL.US'], 1_000_000, false);
  await run('sma-crossover, 1 symbol × 1,000,000 bars', ['AAPL.US'], 1_000_000);
  await run(
    'sma-crossover, 100 symbols × 10,000 bars',
    Array.from({ length: 100 }, (_, index) => `S${index}.US`),
    10_000,
  );
}
