import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, Fixed, Money, Quantity, decimalOf, localDate } from '../../src/domain/index.js';
import { FRESH_EQUITY_WATCH, exposureChange, observeEquity, openingOf, type EquityWatch, type RiskLimits } from '../../src/risk/index.js';

// The risk layer's shortcuts (no Intl per observation, a multiplication instead of a division) against the
// plain formulas they replace, computed in decimal.js.

const ZERO = new Decimal(0);

const money = fc.integer({ min: -2_000_000_00, max: 2_000_000_00 }).map((cents) => new Decimal(cents).dividedBy(100));
const quantities = fc.oneof(
  fc.constant(ZERO),
  fc.integer({ min: -500, max: 500 }).map((value) => new Decimal(value)),
  fc.integer({ min: 1, max: 9999 }).map((value) => new Decimal(value).dividedBy(8)),
);

describe('risk fast paths', () => {
  it('trip the kill switches exactly when the plain formulas do, for any run of net assets', () => {
    const limits = fc.record({
      dailyLossLimit: fc.option(
        fc.integer({ min: 1, max: 5_000_000 }).map((value) => Fixed.of(value)),
        { nil: undefined },
      ),
      maxDrawdown: fc.option(
        fc.integer({ min: 1, max: 9_999 }).map((value) => Fixed.of(value / 10_000)),
        { nil: undefined },
      ),
    });
    const start = Date.UTC(2024, 2, 1);
    const steps = fc.array(fc.tuple(fc.integer({ min: 0, max: 40 * 3_600_000 }), money), { minLength: 1, maxLength: 40 });
    fc.assert(
      fc.property(limits, steps, fc.constantFrom('America/New_York', 'Asia/Hong_Kong', 'Australia/Sydney'), (chosen, path, zone) => {
        const riskLimits = Object.fromEntries(Object.entries(chosen).filter(([, value]) => value !== undefined)) as RiskLimits;
        let fast: EquityWatch = FRESH_EQUITY_WATCH;
        let plain: PlainWatch = FRESH_PLAIN;
        let time = start;
        for (const [gap, netAssets] of path) {
          time += gap;
          fast = observeEquity(fast, Money.of(netAssets.toFixed(), 'HKD'), time, zone, riskLimits);
          plain = observePlain(plain, netAssets, time, zone, riskLimits);
          expect(fast.dailyTrip === undefined).toBe(plain.dailyTrip === undefined);
          // The trip reports the drawdown to 10 places.
          expect(fast.drawdownTrip?.loss.toString()).toBe(plain.drawdownTrip?.loss.toDecimalPlaces(10).toFixed());
          expect(fast.peak?.toString()).toBe(plain.peak.toFixed());
          if (riskLimits.dailyLossLimit !== undefined) expect(fast.day).toBe(plain.day);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('keeps the local day across a daylight-saving change at midnight, minute by minute', () => {
    // São Paulo left daylight saving at 2019-02-17 00:00, back to 2019-02-16 23:00.
    const limits: RiskLimits = { dailyLossLimit: Fixed.of(1) };
    let watch: EquityWatch = FRESH_EQUITY_WATCH;
    for (let time = Date.UTC(2019, 1, 16, 20); time < Date.UTC(2019, 1, 17, 8); time += 60_000) {
      watch = observeEquity(watch, Money.of(100, 'BRL'), time, 'America/Sao_Paulo', limits);
      expect(watch.day).toBe(localDate(time, 'America/Sao_Paulo'));
    }
  });

  it('starts a new local day on the 23-hour day of a spring-forward change', () => {
    // London: 2024-03-31 01:00 GMT became 02:00 BST, so 23 h after 00:30 GMT it is already 1 April.
    const limits: RiskLimits = { dailyLossLimit: Fixed.of(1) };
    const first = Date.UTC(2024, 2, 31, 0, 30);
    const early = observeEquity(FRESH_EQUITY_WATCH, Money.of(100, 'GBP'), first, 'Europe/London', limits);
    const next = observeEquity(early, Money.of(100, 'GBP'), first + 23 * 3_600_000, 'Europe/London', limits);
    expect([early.day, next.day]).toEqual(['2024-03-31', '2024-04-01']);
  });

  it('splits an order into its reducing and opening parts as Decimal.min does (openingOf the same opening)', () => {
    fc.assert(
      fc.property(
        quantities,
        fc.constantFrom('Buy' as const, 'Sell' as const),
        quantities.filter((quantity) => quantity.gt(0)),
        (position, side, quantity) => {
          const opposes = side === 'Buy' ? position.isNegative() : position.gt(0);
          const reducing = opposes ? Decimal.min(position.abs(), quantity) : ZERO;
          const change = exposureChange(Quantity.of(position.toFixed()), side, Quantity.of(quantity.toFixed()));
          expect(decimalOf(change.reducing).eq(reducing)).toBe(true);
          expect(decimalOf(change.opening).eq(opposes ? quantity.minus(reducing) : quantity)).toBe(true);
          // openingOf is the same opening, at the same places.
          const opening = openingOf(Quantity.of(position.toFixed()), side, Quantity.of(quantity.toFixed()));
          expect([opening.raw, opening.precision]).toEqual([change.opening.raw, change.opening.precision]);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

interface PlainWatch {
  readonly peak: Decimal;
  readonly day: string;
  readonly dayStart: Decimal;
  readonly dailyTrip: Decimal | undefined;
  readonly drawdownTrip: { readonly loss: Decimal } | undefined;
}

const FRESH_PLAIN: PlainWatch = { peak: new Decimal(-Infinity), day: '', dayStart: ZERO, dailyTrip: undefined, drawdownTrip: undefined };

// The kill switches as first written: Intl's local date on every call, and the exact division every time.
function observePlain(watch: PlainWatch, netAssets: Decimal, time: number, zone: string, limits: RiskLimits): PlainWatch {
  const day = localDate(time, zone);
  const newDay = day !== watch.day;
  const dayStart = newDay ? netAssets : watch.dayStart;
  const peak = netAssets.gt(watch.peak) ? netAssets : watch.peak;
  let dailyTrip = newDay ? undefined : watch.dailyTrip;
  if (dailyTrip === undefined && limits.dailyLossLimit !== undefined && dayStart.minus(netAssets).gte(decimalOf(limits.dailyLossLimit)))
    dailyTrip = dayStart.minus(netAssets);
  let drawdownTrip = watch.drawdownTrip;
  if (drawdownTrip === undefined && limits.maxDrawdown !== undefined && peak.gt(0)) {
    const loss = peak.minus(netAssets).dividedBy(peak);
    if (loss.gte(decimalOf(limits.maxDrawdown))) drawdownTrip = { loss };
  }
  return { peak, day, dayStart, dailyTrip, drawdownTrip };
}
