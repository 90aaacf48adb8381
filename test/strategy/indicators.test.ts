import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../src/domain/errors.js';
import { defineStrategy } from '../../src/strategy/define.js';
import { indicators } from '../../src/strategy/indicators.js';
import { atr, rsi, sma } from '../../src/strategy/operators/index.js';
import { prepareStrategy } from '../../src/strategy/prepare.js';
import { AAPL, backtest, dayBar } from '../support/backtest/scripted.js';

const CLOSES = [10, 11, 12, 11, 13, 14, 13, 15, 16, 15, 17, 18];
const BARS = CLOSES.map((close, index) =>
  dayBar(AAPL, `2024-01-${String(index + 2).padStart(2, '0')}`, close - 0.5, close + 1, close - 1, close),
);

describe('indicators for callback strategies', () => {
  it('gives no value until stable, then the same values as the RxJS operators', async () => {
    const average = indicators.sma(3);
    const strength = indicators.rsi(4);
    const range = indicators.atr(3);
    const averages: (number | undefined)[] = [];
    const strengths: number[] = [];
    const ranges: number[] = [];
    for (const bar of BARS) {
      averages.push(average.update(bar));
      if (strength.update(bar.close) !== undefined) strengths.push(strength.value!);
      if (range.update(bar) !== undefined) ranges.push(range.value!);
    }

    expect(averages.slice(0, 3)).toEqual([undefined, undefined, 11]);
    expect(average.ready).toBe(true);
    expect(average.count).toBe(CLOSES.length);
    expect(averages.slice(2)).toEqual(await lastValueFrom(from(BARS).pipe(sma(3), toArray())));
    expect(strengths).toEqual(await lastValueFrom(from(BARS).pipe(rsi(4), toArray())));
    expect(ranges).toEqual(await lastValueFrom(from(BARS).pipe(atr(3), toArray())));
    expect(strengths.length).toBeGreaterThan(0);
  });

  it('gives the exact mean of the window, as the sma operator does, so a close equal to it is not above it', async () => {
    // Summed as floats, 5.8, 5.6, 5.7 and 5.7 average to 5.699999999999999, below the last close of 5.7.
    const closes = [5.8, 5.6, 5.7, 5.7, 5.9];
    const average = indicators.sma(4);
    const averages = closes.map((close) => average.update(close));

    expect(averages[3]).toBe(5.7);
    expect(averages.slice(3)).toEqual(await lastValueFrom(from(closes).pipe(sma(4), toArray())));
  });

  it('gives MACD and Bollinger bands as objects', () => {
    const bands = indicators.bollinger(5);
    const macd = indicators.macd(3, 6, 2);
    for (const close of CLOSES) {
      bands.update(close);
      macd.update(close);
    }
    expect(bands.value!.lower).toBeLessThan(bands.value!.middle);
    // The mean of the last five closes: (15 + 16 + 15 + 17 + 18) / 5.
    expect(bands.value!.middle).toBeCloseTo(16.2, 10);
    expect(Object.keys(macd.value!).sort()).toEqual(['histogram', 'macd', 'signal']);
  });

  it('refuses an interval that is not a positive whole number', () => {
    expect(() => indicators.sma(0)).toThrow(InvalidInputError);
    expect(() => indicators.ema(2.5)).toThrow(/ema interval must be a positive whole number/);
  });

  it('drives a callback strategy without RxJS: kept in init state, updated per candle', async () => {
    const definition = defineStrategy({
      name: 'above-average',
      symbols: ['AAPL.US'],
      init: () => ({ average: indicators.sma(3) }),
      onCandle(candle, ctx, state) {
        const average = state.average.update(candle);
        if (average === undefined) return undefined;
        const held = !ctx.positions.quantity().isZero();
        if (candle.close > average && !held) return ctx.buy(10, { tag: 'above-sma' });
        if (candle.close < average && held) return ctx.close({ tag: 'below-sma' });
        return undefined;
      },
    });
    const run = await backtest([BARS], [prepareStrategy(definition, {}, 'above-average')]);

    // Bar 3 (close 12 > sma 11) buys; bar 4 (11 < 12) closes; bar 5 (13 > 12) buys again.
    expect(run.record.fills.slice(0, 3).map((fill) => [fill.side, fill.time])).toEqual([
      ['Buy', BARS[3]!.time],
      ['Sell', BARS[4]!.time],
      ['Buy', BARS[5]!.time],
    ]);
  });
});
