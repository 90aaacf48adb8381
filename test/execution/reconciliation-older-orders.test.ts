import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/clock/virtual-clock.js';
import { parseSymbol } from '../../src/domain/index.js';
import type { Runtime } from '../../src/runtime/index.js';
import { manualStrategy } from '../support/execution/manual-strategy.js';
import { START, testRuntime } from '../support/execution/runtime-setup.js';
import { StubBroker } from '../support/execution/stub-broker.js';

const AAPL = parseSymbol('AAPL.US');

const runtimes: Runtime[] = [];

afterEach(async () => {
  for (const runtime of runtimes.splice(0)) await runtime.stop();
});

describe("periodic reconciliation of orders missing from today's list", () => {
  it("books the fill of an earlier day's order whose push was lost exactly once, next to the broker's position", async () => {
    const clock = new VirtualClock(START);
    const broker = new StubBroker(clock);
    const manual = manualStrategy('trader');
    const setup = testRuntime([manual.strategy], { clock, broker });
    runtimes.push(setup.runtime);
    await setup.runtime.start();
    manual.emit((ctx) => ctx.buy(100, { price: 10 }));
    await setup.runtime.settled();
    const [order] = broker.allOrders();
    broker.holdPushes = true;
    broker.fill(order!.orderId, 100, 10);
    broker.held.splice(0);
    broker.passDay();

    await setup.runtime.reconcileNow();
    await setup.runtime.reconcileNow();

    expect(setup.ofType('fill').map((event) => [event.fill.quantity.toFixed(), event.position.quantity.toFixed()])).toEqual([
      ['100', '100'],
    ]);
    expect(setup.runtime.positions.quantity(AAPL).toFixed()).toBe('100');
    expect(setup.ofType('reconciliation-mismatch')).toEqual([]);
  });
});
