import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/clock/virtual-clock.js';
import { parseSymbol } from '../../../src/domain/symbol.js';
import { commissionRate } from '../../../src/sim/venue/fees.js';
import { Venue } from '../../../src/sim/venue/venue.js';
import { Price, Quantity } from '../../../src/domain/index.js';

const SYMBOL = parseSymbol('AAPL.US');

// A venue priced at `price` holding `held` shares (bought at that price), with the given cash and margin factor.
function venueWith(feeless: 'none' | 'zero-rate', cash: number, price: number, held: number, im: string): Venue {
  const clock = new VirtualClock(Date.UTC(2024, 0, 2, 15));
  const venue = new Venue({
    clock,
    settings: { cash: { USD: String(cash) }, marginRatios: { default: { im, mm: im, fm: im } } },
    ...(feeless === 'zero-rate' ? { feeModel: commissionRate(0) } : {}),
  });
  venue.onTick(SYMBOL, price, 1e12, clock.now());
  if (held > 0) {
    venue.submit({ symbol: SYMBOL, side: 'Buy', orderType: 'MO', quantity: Quantity.of(held), timeInForce: 'GTC' });
    clock.advanceBy(1000);
    venue.onTick(SYMBOL, price, 1e12, clock.now());
  }
  return venue;
}

describe('buy limit without fees', () => {
  it('is the same whole division the search finds with a fee model that charges nothing', () => {
    const price = fc.integer({ min: 1, max: 500_000 }).map((cents) => cents / 100);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000_000 }),
        price,
        fc.integer({ min: 0, max: 50 }),
        fc.constantFrom('1', '0.5', '0.25'),
        fc.option(price),
        (cash, mark, held, im, limit) => {
          const closedForm = venueWith('none', cash, mark, held, im);
          const searched = venueWith('zero-rate', cash, mark, held, im);
          for (const side of ['Buy', 'Sell'] as const) {
            const query =
              limit === null
                ? { symbol: SYMBOL, side, orderType: 'MO' as const }
                : { symbol: SYMBOL, side, orderType: 'LO' as const, price: Price.of(limit) };
            const [a, b] = [closedForm.buyLimit(query), searched.buyLimit(query)];
            expect([a.cashMaxQty.toFixed(), a.marginMaxQty.toFixed()]).toEqual([b.cashMaxQty.toFixed(), b.marginMaxQty.toFixed()]);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('buys as many whole shares as the cash pays for', () => {
    const venue = venueWith('none', 100_000, 397.7419, 0, '1');

    expect(venue.buyLimit({ symbol: SYMBOL, side: 'Buy', orderType: 'MO' }).cashMaxQty.toFixed()).toBe('251');
  });
});
