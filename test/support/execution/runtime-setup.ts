// A runtime over the stub broker, subject market data and a virtual clock, with every event collected.
import { afterEach } from 'vitest';
import { VirtualClock } from '../../../src/clock/virtual-clock.js';
import type { RuntimeEvent } from '../../../src/execution/events.js';
import { createRuntime, type Runtime, type RuntimeOptions } from '../../../src/runtime/index.js';
import type { PreparedStrategy } from '../../../src/strategy/prepare.js';
import { StubBroker } from './stub-broker.js';
import { SubjectMarketData } from './subject-market-data.js';

export interface TestRuntime {
  readonly clock: VirtualClock;
  readonly broker: StubBroker;
  readonly marketData: SubjectMarketData;
  readonly runtime: Runtime;
  readonly events: RuntimeEvent[];
  ofType<T extends RuntimeEvent['type']>(type: T): Extract<RuntimeEvent, { type: T }>[];
}

export const START = Date.UTC(2024, 0, 10, 15, 0);

export function testRuntime(
  strategies: readonly PreparedStrategy[],
  options: Partial<Omit<RuntimeOptions, 'clock' | 'broker' | 'marketData' | 'strategies'>> & {
    readonly clock?: VirtualClock;
    readonly broker?: StubBroker;
  } = {},
): TestRuntime {
  const clock = options.clock ?? new VirtualClock(START);
  const broker = options.broker ?? new StubBroker(clock);
  const marketData = new SubjectMarketData();
  const runtime = createRuntime({ reconcileIntervalMs: 0, ...options, clock, broker, marketData, strategies });
  const events: RuntimeEvent[] = [];
  runtime.events.subscribe((event) => events.push(event));
  return {
    clock,
    broker,
    marketData,
    runtime,
    events,
    ofType: <T extends RuntimeEvent['type']>(type: T) =>
      events.filter((event): event is Extract<RuntimeEvent, { type: T }> => event.type === type),
  };
}

/**
 * Registers (for the calling test file) that the runtime a test started is stopped after it, and returns
 * the function that starts a setup's runtime.
 */
export function startsRuntimes(): (setup: TestRuntime) => Promise<TestRuntime> {
  let running: Runtime | undefined;
  afterEach(async () => {
    await running?.stop();
    running = undefined;
  });
  return async (setup) => {
    running = setup.runtime;
    await setup.runtime.start();
    return setup;
  };
}
