import { afterEach, describe, expect, it } from 'vitest';
import type { Quote } from '../../../src/domain/quote.js';
import { FaultInjector, parseFaultPlan } from '../../../src/sim/venue/index.js';
import { HK } from '../../support/sim/candles.js';
import { startSimHarness, type SimHarness } from '../../support/sim/harness.js';
import { serverHolds } from '../../support/sim/server-holds.js';

let harness: SimHarness | undefined;

afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function pushedSequences(rate: number, seed: number): Promise<number[]> {
  await harness?.close();
  harness = await startSimHarness({ faults: { pushDuplicateRate: rate }, seed });
  const client = await harness.quoteClient();
  const received: Quote[] = [];
  const subscription = client.quotes([HK]).subscribe((quote) => received.push(quote));
  await serverHolds(client, HK);
  for (let count = 0; count < 30; count++) harness.stepUntil((tick) => tick.symbol === HK);
  // Responses are never faulted: once this answer is in, every push sent before it has arrived.
  await client.quote([HK]);
  subscription.unsubscribe();
  return received.map((quote) => quote.sequence);
}

describe('duplicated pushes', () => {
  it('delivers every push twice at rate 1, in order', async () => {
    const sequences = await pushedSequences(1, 1);
    expect(sequences).toEqual(Array.from({ length: 30 }, (_, index) => [index + 1, index + 1]).flat());
  });

  it('delivers a seeded share of pushes twice, the same ones for the same seed', async () => {
    const first = await pushedSequences(0.3, 7);
    const repeats = first.length - new Set(first).size;
    expect(repeats).toBeGreaterThan(0);
    expect(repeats).toBeLessThan(30);
    expect([...new Set(first)]).toEqual(Array.from({ length: 30 }, (_, index) => index + 1));
    expect(await pushedSequences(0.3, 7)).toEqual(first);
  });

  it('restores a fault state saved before the knob existed, leaving its stream at the seed', () => {
    const injector = new FaultInjector(parseFaultPlan({ pushDuplicateRate: 0.5 }), 3);
    const fresh = new FaultInjector(parseFaultPlan({ pushDuplicateRate: 0.5 }), 3);
    const { 'push-duplicate': _dropped, ...older } = injector.getState();

    injector.setState(older);

    expect(Array.from({ length: 8 }, () => injector.duplicatePush())).toEqual(Array.from({ length: 8 }, () => fresh.duplicatePush()));
  });
});
