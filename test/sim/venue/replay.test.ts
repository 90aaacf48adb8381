import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/clock/virtual-clock.js';
import type { Candle } from '../../../src/domain/candle.js';
import type { Period } from '../../../src/domain/period.js';
import { MarketDays } from '../../../src/sim/venue/market-days.js';
import { MarketReplay, replayTicks, type ReplayGate, type ReplayTick } from '../../../src/sim/venue/index.js';
import { marketOf, parseSymbol } from '../../../src/domain/symbol.js';
import { barWindow } from '../../../src/feeds/live/bar-window.js';
import { dayBar, dayTime, HK, localTime, minuteBar, US } from './fixtures.js';

const barArbitrary = fc
  .record({
    low: fc.integer({ min: 100, max: 10_000 }),
    span: fc.integer({ min: 0, max: 500 }),
    openAt: fc.double({ min: 0, max: 1, noNaN: true }),
    closeAt: fc.double({ min: 0, max: 1, noNaN: true }),
    volume: fc.integer({ min: 0, max: 5_000_000 }),
    gapMinutes: fc.integer({ min: 1, max: 900 }),
  })
  .map(({ low, span, openAt, closeAt, volume, gapMinutes }) => {
    const price = (at: number) => (low + Math.round(at * span)) / 100;
    return { open: price(openAt), high: (low + span) / 100, low: low / 100, close: price(closeAt), volume, gapMinutes };
  });

function series(
  period: Period,
  bars: readonly { open: number; high: number; low: number; close: number; volume: number; gapMinutes: number }[],
): Candle[] {
  let time = period === 'day' ? dayTime(HK, '2024-01-02') : localTime(HK, '2024-01-02 09:30');
  return bars.map((bar) => {
    const candle: Candle = { symbol: HK, period, time, open: bar.open, high: bar.high, low: bar.low, close: bar.close, volume: bar.volume };
    time += period === 'day' ? 86_400_000 : bar.gapMinutes * 60_000;
    return candle;
  });
}

/** Bars rebuilt from ticks: open first, high max, low min, close last, volume from the cumulative day volume. */
function reaggregate(ticks: readonly ReplayTick[]): { open: number; high: number; low: number; close: number; volume: number }[] {
  const groups = new Map<number, ReplayTick[]>();
  for (const tick of ticks) groups.set(tick.barStart, [...(groups.get(tick.barStart) ?? []), tick]);
  const days = new MarketDays('HK');
  let previous: ReplayTick | undefined;
  return [...groups.values()].map((group) => {
    const last = group.at(-1)!;
    const sameDay = previous !== undefined && days.dayKey(previous.time) === days.dayKey(group[0]!.time);
    const volume = last.dayVolume - (sameDay ? previous!.dayVolume : 0);
    previous = last;
    const prices = group.map((tick) => tick.price);
    return { open: prices[0]!, high: Math.max(...prices), low: Math.min(...prices), close: prices.at(-1)!, volume };
  });
}

describe('market replay ticks', () => {
  it.each(['1m', 'day'] as const)('re-aggregate to exactly the %s candles they came from', (period) => {
    fc.assert(
      fc.property(fc.array(barArbitrary, { minLength: 1, maxLength: 40 }), (bars) => {
        const candles = series(period, bars);
        const ticks = [...replayTicks([candles])];
        expect(reaggregate(ticks)).toEqual(candles.map(({ open, high, low, close, volume }) => ({ open, high, low, close, volume })));
        for (const tick of ticks) {
          expect(tick.time).toBeGreaterThanOrEqual(tick.barStart);
          expect(tick.time).toBeLessThan(tick.barEnd);
        }
      }),
      { numRuns: 60 },
    );
  });

  it.each(['1m', 'day'] as const)("shows on each %s tick only the day's open, high and low printed so far", (period) => {
    fc.assert(
      fc.property(fc.array(barArbitrary, { minLength: 1, maxLength: 20 }), (bars) => {
        const days = new MarketDays('HK');
        let day = -1;
        let printed: number[] = [];
        for (const tick of replayTicks([series(period, bars)])) {
          if (days.dayKey(tick.time) !== day) {
            day = days.dayKey(tick.time);
            printed = [];
          }
          printed.push(tick.price);
          expect([tick.dayOpen, tick.dayHigh, tick.dayLow]).toEqual([printed[0], Math.max(...printed), Math.min(...printed)]);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('visits the low first on a rising bar and the high first on a falling one', () => {
    const rising = [...replayTicks([[minuteBar(HK, '2024-01-02 10:00', 10, 12, 9, 11)]])].map((tick) => tick.point);
    const falling = [...replayTicks([[minuteBar(HK, '2024-01-02 10:00', 11, 12, 9, 10)]])].map((tick) => tick.point);
    expect(rising).toEqual(['open', 'low', 'high', 'close']);
    expect(falling).toEqual(['open', 'high', 'low', 'close']);
  });

  it("visits the extremes in the venue's intrabar path order when given one (nearest-first: the one nearer the open)", () => {
    // Rising, but opening near its high: the venue's default path meets the high first.
    const bar = minuteBar(HK, '2024-01-02 10:00', 11.8, 12, 9, 11.9);
    const points = (path: 'nearest-first' | 'low-first') => [...replayTicks([[bar]], path)].map((tick) => tick.point);
    expect(points('nearest-first')).toEqual(['open', 'high', 'low', 'close']);
    expect(points('low-first')).toEqual(['open', 'low', 'high', 'close']);
  });

  it("places a day bar's ticks inside the regular sessions, skipping the lunch break", () => {
    const ticks = [...replayTicks([[dayBar(HK, '2024-01-02', 10, 12, 9, 11)]])];
    const days = new MarketDays('HK');
    expect(ticks.every((tick) => days.inSession(tick.time))).toBe(true);
    expect(ticks[0]!.time).toBe(localTime(HK, '2024-01-02 09:30'));
    expect(ticks[3]!.time).toBe(localTime(HK, '2024-01-02 16:00') - 1);
  });

  it("ends an intraday bar's ticks where the venue's bar ends: at the close, at the lunch break", () => {
    const hourBar = (symbol: typeof US, local: string): Candle => ({ ...minuteBar(symbol, local, 10, 12, 9, 11), period: '60m' });
    const cases = [
      { bar: hourBar(US, '2024-11-27 15:30'), end: '2024-11-27 16:00' },
      { bar: hourBar(HK, '2024-01-02 11:30'), end: '2024-01-02 12:00' },
      { bar: hourBar(US, '2024-11-27 10:30'), end: '2024-11-27 11:30' },
    ];
    for (const { bar, end } of cases) {
      const ticks = [...replayTicks([[bar]])];
      expect(ticks.map((tick) => tick.barEnd)).toEqual(Array(4).fill(localTime(bar.symbol, end)));
      expect(ticks[3]!.time).toBe(localTime(bar.symbol, end) - 1);
      // A live feed puts every tick in the venue's bar of the candle, so it builds the candle back.
      for (const tick of ticks) expect(barWindow(tick.time, '60m', marketOf(bar.symbol)).start).toBe(bar.time);
    }
  });

  it('accumulates volume over a market day and starts again the next day', () => {
    const candles = [
      minuteBar(HK, '2024-01-02 15:58', 10, 10, 10, 10, 400),
      minuteBar(HK, '2024-01-02 15:59', 10, 10, 10, 10, 600),
      minuteBar(HK, '2024-01-03 09:30', 10, 10, 10, 10, 100),
    ];
    const ends = [...replayTicks([candles])].filter((tick) => tick.point === 'close').map((tick) => tick.dayVolume);
    expect(ends).toEqual([400, 1000, 100]);
  });

  it('interleaves several symbols in time order', () => {
    const hk = [dayBar(HK, '2024-01-02', 10, 11, 9, 10.5), dayBar(HK, '2024-01-03', 10, 11, 9, 10.5)];
    const us = [dayBar(US, '2024-01-02', 150, 151, 149, 150)];
    const ticks = [...replayTicks([hk, us])];

    expect(ticks).toHaveLength(12);
    expect(ticks.map((tick) => tick.time)).toEqual([...ticks.map((tick) => tick.time)].sort((a, b) => a - b));
    expect(ticks.map((tick) => tick.symbol)).toEqual([...Array(4).fill(HK), ...Array(4).fill(US), ...Array(4).fill(HK)]);
  });
});

describe('MarketReplay pacing', () => {
  const candles = [
    minuteBar(HK, '2024-01-02 15:58', 10, 11, 9, 10.5),
    minuteBar(HK, '2024-01-02 15:59', 10.5, 11, 10, 10.8),
    minuteBar(HK, '2024-01-03 09:30', 10.8, 11, 10.7, 10.9),
  ];

  it('delivers ticks at speed × real time on the clock', () => {
    const clock = new VirtualClock(0);
    const replay = new MarketReplay({ series: [candles], clock, speed: 60 });
    const seen: ReplayTick[] = [];
    replay.onTick((tick) => seen.push(tick));

    replay.start();
    expect(seen).toHaveLength(1);
    // Ticks of a one-minute bar are 19,999.67 market ms apart: a third of a real second at speed 60.
    clock.advanceBy(333);
    expect(seen).toHaveLength(1);
    clock.advanceBy(1);
    expect(seen).toHaveLength(2);
    expect(replay.marketTime).toBe(seen[1]!.time);
  });

  it('skips the night between two trading days', () => {
    const clock = new VirtualClock(0);
    const replay = new MarketReplay({ series: [candles], clock, speed: 60 });
    const seen: ReplayTick[] = [];
    replay.onTick((tick) => seen.push(tick));

    replay.start();
    clock.advanceBy(2 * 1000 + 10);
    expect(seen).toHaveLength(9);
    expect(seen[8]!.time).toBe(localTime(HK, '2024-01-03 09:30'));
    clock.advanceBy(5000);
    expect(replay.done).toBe(true);
  });

  it('can be stepped by hand and stopped', () => {
    const clock = new VirtualClock(0);
    const replay = new MarketReplay({ series: [candles], clock, speed: 60 });
    expect(replay.step()!.point).toBe('open');
    expect(replay.step()!.point).toBe('low');
    replay.start();
    replay.stop();
    clock.advanceBy(60_000);
    expect(replay.marketTime).toBe(candles[0]!.time + Math.floor(59_999 / 3));
    expect(clock.pendingTimers).toBe(0);
  });
});

describe('MarketReplay gate', () => {
  // One-minute bars back to back: the second bar's open tick comes at the first bar's end.
  const candles = [minuteBar(HK, '2024-01-02 15:58', 10, 11, 9, 10.5), minuteBar(HK, '2024-01-02 15:59', 10.5, 11, 10, 10.8)];
  const start = candles[0]!.time;

  /** A gate that records what it was asked and holds the ticks that end a bar, and the end, until `release()`. */
  function holdingGate(): { asked: string[]; release(): void; gate: ReplayGate } {
    const asked: string[] = [];
    let release = (): void => undefined;
    const hold = (): Promise<void> => new Promise<void>((resolve) => (release = resolve));
    return {
      asked,
      release: () => release(),
      gate: {
        beforeTick: (next, endsBar) => {
          asked.push(`${next.symbol} ${next.point} +${next.time - start}${endsBar ? ' ends a bar' : ''}`);
          return endsBar ? hold() : undefined;
        },
        atEnd: (barsEnd) => {
          asked.push(`end, bars end +${barsEnd - start}`);
          return hold();
        },
      },
    };
  }

  it('asks before each paced tick, and holds one that ends a bar under way until the gate lets it go', async () => {
    const clock = new VirtualClock(0);
    const replay = new MarketReplay({ series: [candles], clock, speed: 60 });
    const seen: ReplayTick[] = [];
    replay.onTick((tick) => seen.push(tick));
    const { asked, release, gate } = holdingGate();
    replay.setGate(gate);

    replay.start();
    clock.advanceBy(1_000);
    expect(seen.map((tick) => tick.point)).toEqual(['open', 'low', 'high', 'close']);
    expect(asked).toEqual([`${HK} open +0`, `${HK} low +19999`, `${HK} high +39999`, `${HK} close +59999`, `${HK} open +60000 ends a bar`]);
    expect(replay.nextEndsBar).toBe(true);
    clock.advanceBy(60_000);
    expect(seen).toHaveLength(4);

    release();
    await Promise.resolve();
    expect(seen).toHaveLength(5);
    expect(replay.nextEndsBar).toBe(false);
    clock.advanceBy(60_000);
    expect(asked.filter((entry) => entry.endsWith('ends a bar'))).toHaveLength(1);
  });

  it('passes the end of the data through the gate, with the end of the last bars: done only once it lets go', async () => {
    const clock = new VirtualClock(0);
    const replay = new MarketReplay({ series: [candles], clock, speed: 60 });
    const ended: number[] = [];
    replay.onEnd(() => ended.push(replay.marketTime!));
    const { asked, release, gate } = holdingGate();
    replay.setGate(gate);
    replay.start();
    clock.advanceBy(1_000);
    release();
    await Promise.resolve();
    clock.advanceBy(60_000);

    expect(replay.exhausted).toBe(true);
    expect(asked.at(-1)).toBe('end, bars end +120000');
    expect(replay.done).toBe(false);
    expect(ended).toEqual([]);
    release();
    await Promise.resolve();
    await Promise.resolve();
    expect(replay.done).toBe(true);
    expect(ended).toEqual([start + 60_000 + 59_999]);
  });

  it('stepped by hand: next() gives undefined after the end passed the gate; step() passes the end by', async () => {
    const { asked, release, gate } = holdingGate();
    const stepped = new MarketReplay({ series: [candles], clock: new VirtualClock(0) });
    stepped.setGate(gate);
    for (let tick = 0; tick < 4; tick += 1) await stepped.next();
    const fifth = stepped.next();
    release();
    await fifth;
    for (let tick = 0; tick < 3; tick += 1) await stepped.next();
    expect(stepped.exhausted).toBe(true);
    const end = stepped.next();
    expect(asked.at(-1)).toBe('end, bars end +120000');
    expect(stepped.done).toBe(false);
    release();
    expect(await end).toBeUndefined();
    expect(stepped.done).toBe(true);

    const passing = new MarketReplay({ series: [candles], clock: new VirtualClock(0) });
    passing.setGate(holdingGate().gate);
    let ends = 0;
    passing.onEnd(() => (ends += 1));
    for (let tick = 0; tick < 8; tick += 1) passing.step();
    expect(passing.done).toBe(true);
    expect(passing.step()).toBeUndefined();
    expect(ends).toBe(1);
  });

  it('holds only the first of the ticks that come at the end of bars of several symbols; step() passes it by', async () => {
    const other = parseSymbol('5.HK');
    const replay = new MarketReplay({ series: [candles, candles.map((bar) => ({ ...bar, symbol: other }))], clock: new VirtualClock(0) });
    const { asked, release, gate } = holdingGate();
    replay.setGate(gate);
    for (let tick = 0; tick < 8; tick += 1) await replay.next();

    const held = replay.next();
    expect(asked.at(-1)).toBe(`${HK} open +60000 ends a bar`);
    release();
    expect((await held)?.symbol).toBe(HK);
    expect((await replay.next())?.symbol).toBe(other);
    expect(asked.at(-1)).toBe(`${other} open +60000`);

    for (let tick = 0; tick < 6; tick += 1) replay.step();
    expect(replay.done).toBe(true);
    expect(asked).toHaveLength(10);
  });
});
