import { firstValueFrom, from, toArray, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { WMA } from 'trading-signals';
import { atr, closeOf, crossover, donchian, ema, indicator, rsi, sma } from '../../src/strategy/index.js';
import { dailyCandles } from '../support/execution/subject-market-data.js';

const collect = <T>(source: Observable<T>): Promise<T[]> => firstValueFrom(source.pipe(toArray()));

describe('crossover', () => {
  it('emits up and down only on crosses of the fast SMA over the slow one', async () => {
    // fast 2 / slow 3 of closes: below from bar 2, above at bar 4, below at bar 7.
    const closes = [5, 4, 3, 4, 5, 6, 5, 3, 2];

    expect(await collect(from(dailyCandles('SPX.US', closes)).pipe(crossover(2, 3)))).toEqual(['up', 'down']);
  });

  it('does not emit for the first stable bar, nor when averages touch and part the same way', async () => {
    // fast 1 / slow 2: 2 > 1.5 above; 2 = 2 equal (no side); 3 > 2.5 still above: no cross at all.
    expect(await collect(from([1, 2, 2, 3]).pipe(crossover(1, 2)))).toEqual([]);
  });

  it('refuses a fast period that is not shorter than the slow one', () => {
    expect(() => crossover(5, 5)).toThrow(/fast \(5\) must be shorter than slow \(5\)/);
    expect(() => crossover(0, 5)).toThrow(/positive whole number/);
  });

  it('keeps separate averages per subscription', async () => {
    const crosses = from([5, 4, 3, 4, 5]).pipe(crossover(2, 3));

    expect(await collect(crosses)).toEqual(['up']);
    expect(await collect(crosses)).toEqual(['up']);
  });
});

describe('errors inside operators', () => {
  it('reach the stream as errors, as RxJS operators send them (not as unhandled errors)', async () => {
    const broken = indicator(
      () => new WMA(2),
      (value: number) => {
        if (value > 2) throw new Error(`cannot take ${value}`);
        return value;
      },
    );
    for (const operator of [broken, sma(2), crossover(1, 2)] as const) {
      const values = from([1, 2, 3, null as unknown as number]);
      await expect(collect(values.pipe(operator as never))).rejects.toThrow(/cannot take 3|Cannot read properties of null/);
    }
  });
});

describe('indicator operators', () => {
  it('sma emits the average of the last n closes once n have arrived', async () => {
    expect(await collect(from(dailyCandles('SPX.US', [1, 2, 3, 4, 5])).pipe(sma(3)))).toEqual([2, 3, 4]);
  });

  it('ema, rsi, atr and donchian emit only stable values', async () => {
    const candles = dailyCandles('SPX.US', [10, 11, 12, 11, 13, 14]);

    expect(await collect(from(candles).pipe(ema(3)))).toHaveLength(4);
    const strength = await collect(from(candles).pipe(rsi(3)));
    expect(strength.length).toBeGreaterThan(0);
    expect(strength.every((value) => value >= 0 && value <= 100)).toBe(true);
    expect((await collect(from(candles).pipe(atr(2)))).every((value) => value > 0)).toBe(true);
    expect(await collect(from(candles).pipe(donchian(3)))).toEqual([
      { upper: 12, middle: 11, lower: 10 },
      { upper: 12, middle: 11.5, lower: 11 },
      { upper: 13, middle: 12, lower: 11 },
      { upper: 14, middle: 12.5, lower: 11 },
    ]);
  });

  it('wraps any trading-signals indicator', async () => {
    const weighted = await collect(from([1, 2, 3]).pipe(indicator(() => new WMA(3), closeOf)));

    expect(weighted).toHaveLength(1);
    expect(weighted[0]).toBeCloseTo((1 * 1 + 2 * 2 + 3 * 3) / 6, 10);
  });
});
