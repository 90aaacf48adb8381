import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../src/domain/errors.js';
import { defineStrategy, prepareStrategy } from '../../src/strategy/index.js';
import breakout from '../../strategies/breakout.js';
import dca from '../../strategies/dca.js';
import rsiMeanReversion from '../../strategies/rsi-mean-reversion.js';
import smaCrossover from '../../strategies/sma-crossover.js';

const quiet = (warmup: number | ((params: { bars: number }) => number)) =>
  defineStrategy({ name: 'quiet', symbols: ['AAPL.US'], params: { bars: 4 }, warmup, onCandle: () => undefined });

describe('strategy warm-up setting', () => {
  it('is 0 when a strategy asks for none', () => {
    expect(prepareStrategy(defineStrategy({ name: 'plain', symbols: ['AAPL.US'], onCandle: () => undefined })).warmup).toBe(0);
  });

  it('is computed from the params after --param overrides', () => {
    expect(
      prepareStrategy(
        quiet((params) => params.bars * 2),
        { params: { bars: 6 } },
      ).warmup,
    ).toBe(12);
  });

  it('reports a warm-up that is not a whole number of bars as a bad setting naming the strategy', () => {
    expect(() => prepareStrategy(quiet(-1))).toThrow(InvalidInputError);
    expect(() => prepareStrategy(quiet(() => 2.5))).toThrow('strategy quiet: warmup must be a whole number of bars ≥ 0, got 2.5');
  });

  it('reports a warm-up function that throws', () => {
    expect(() =>
      prepareStrategy(
        quiet(() => {
          throw new Error('no bars for you');
        }),
      ),
    ).toThrow('strategy quiet: warmup: no bars for you');
  });

  it('covers the indicators of the bundled strategies', () => {
    expect(prepareStrategy(smaCrossover, { params: { slow: 50 } }).warmup).toBe(51);
    // Wilder's smoothing (RSI, ATR) settles over twenty periods.
    expect(prepareStrategy(rsiMeanReversion, { params: { period: 10 } }).warmup).toBe(201);
    expect(prepareStrategy(breakout, { params: { lookback: 20, atrPeriod: 30 } }).warmup).toBe(601);
    expect(prepareStrategy(breakout, { params: { lookback: 700, atrPeriod: 30 } }).warmup).toBe(701);
    expect(prepareStrategy(dca).warmup).toBe(0);
  });
});
