// Runs strategies through the real runtime on hand-made candles, with the stub broker filling market orders
// at each bar's close, and collects what happened.
import { VirtualClock } from '../../../src/clock/virtual-clock.js';
import type { Candle } from '../../../src/domain/index.js';
import type { RuntimeEvent } from '../../../src/execution/events.js';
import type { RiskLimits } from '../../../src/risk/config.js';
import { createRuntime, type Runtime, type RuntimeSummary } from '../../../src/runtime/index.js';
import type { Journal } from '../../../src/store/journal.js';
import type { PreparedStrategy } from '../../../src/strategy/prepare.js';
import { StubBroker } from './stub-broker.js';
import { SubjectMarketData } from './subject-market-data.js';

export interface HarnessOptions {
  readonly risk?: RiskLimits;
  readonly journal?: Journal;
  readonly cash?: number;
  /** Whether market orders fill at once (at the bar's close). Default true. */
  readonly fill?: boolean;
}

export interface HarnessRun {
  readonly events: readonly RuntimeEvent[];
  readonly broker: StubBroker;
  readonly runtime: Runtime;
  readonly summary: RuntimeSummary;
  /** Submitted orders as "Buy 100 SPX.US @bar 3" lines, for exact assertions. */
  readonly orders: readonly string[];
}

export async function runOnCandles(
  strategies: readonly PreparedStrategy[],
  candles: readonly Candle[],
  options: HarnessOptions = {},
): Promise<HarnessRun> {
  const clock = new VirtualClock(candles[0]?.time ?? 0);
  const broker = new StubBroker(clock, { cash: options.cash ?? 1_000_000 });
  const marketData = new SubjectMarketData();
  const runtime = createRuntime({
    clock,
    marketData,
    broker,
    strategies,
    reconcileIntervalMs: 0,
    ...(options.risk === undefined ? {} : { risk: options.risk }),
    ...(options.journal === undefined ? {} : { journal: options.journal }),
  });
  const events: RuntimeEvent[] = [];
  const orders: string[] = [];
  let bar = -1;
  runtime.events.subscribe((event) => {
    events.push(event);
    if (event.type === 'order-submitted')
      orders.push(`${event.request.side} ${event.request.quantity.toFixed()} ${event.request.symbol} @bar ${bar}`);
  });
  await runtime.start();
  for (const candle of candles) {
    bar += 1;
    clock.advanceTo(candle.time);
    broker.fillPrice = options.fill === false ? undefined : candle.close;
    marketData.pushCandle(candle);
    if (runtime.busy) await runtime.settled();
  }
  const summary = await runtime.stop();
  return { events, broker, runtime, summary, orders };
}
