// The operators that read only closes (sma, crossover, ema, rsi) take a backtest feed's bars in bar form
// (columns and an index, no Candle per bar) and any other stream as Candles. One suite runs both sources
// with the same bars: the Candle stream is the reference.
import fc from 'fast-check';
import { from, map, type Observable, type OperatorFunction, toArray, lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { BarFeed } from '../../src/backtest/bar-feed.js';
import { barStreamOf } from '../../src/domain/bar-stream.js';
import type { Candle } from '../../src/domain/candle.js';
import { columnsOf } from '../../src/feeds/history/candle-columns.js';
import { crossover, ema, rsi, sma, type Price } from '../../src/strategy/index.js';
import { dailyCandles as flatCandles } from '../support/execution/subject-market-data.js';

/** Daily candles with these closes, each field of a bar different (an operator reading the wrong one shows). */
function dailyCandles(symbol: string, closes: readonly number[]): Candle[] {
  return flatCandles(symbol, closes).map((candle, index) => ({
    ...candle,
    open: candle.close + 0.5,
    high: candle.close + 1 + index,
    low: candle.close / 2,
  }));
}

interface Source {
  readonly name: string;
  /** Subscribes through `operator` (and `after`), plays the candles, and gives what came out, or the error. */
  run<T>(candles: readonly Candle[], operator: OperatorFunction<Price, T>, after?: OperatorFunction<T, T>): Promise<T[] | Error>;
}

const settle = <T>(stream: Observable<T>): Promise<T[] | Error> =>
  lastValueFrom(stream.pipe(toArray())).catch((error: unknown) => error as Error);

const candleStream: Source = {
  name: 'a stream of Candles (the reference)',
  run: (candles, operator, after) => settle(from(candles).pipe(operator, after ?? ((same) => same))),
};

const barFeed: Source = {
  name: "a backtest feed's bar form",
  run: (candles, operator, after) => {
    const feed = new BarFeed();
    const result = settle(feed.pipe(operator, after ?? ((same) => same)));
    if (candles.length > 0) {
      const columns = columnsOf(candles, { symbol: candles[0]!.symbol, period: 'day', source: 'test' });
      for (let index = 0; index < columns.length; index += 1) feed.push(columns, index);
    }
    feed.complete();
    return result;
  },
};

const closesOf = fc.array(
  fc.integer({ min: 1, max: 40 }).map((tenths) => tenths / 10),
  { maxLength: 80 },
);

describe.each([candleStream, barFeed])('operators over closes, from %s', (source) => {
  it('crossover and sma give what they give over Candles, for any closes', async () => {
    await fc.assert(
      fc.asyncProperty(closesOf, fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 6 }), async (closes, fast, extra) => {
        const candles = dailyCandles('SPX.US', closes);
        expect(await source.run(candles, crossover(fast, fast + extra))).toEqual(
          await candleStream.run(candles, crossover(fast, fast + extra)),
        );
        expect(await source.run(candles, sma(fast))).toEqual(await candleStream.run(candles, sma(fast)));
      }),
      { numRuns: 60 },
    );
  });

  it('ema and rsi emit the same stable values', async () => {
    const candles = dailyCandles('SPX.US', [10, 11, 12, 11, 13, 14, 12.5, 12, 15]);

    expect(await source.run(candles, ema(3))).toEqual(await candleStream.run(candles, ema(3)));
    expect(await source.run(candles, rsi(3))).toEqual(await candleStream.run(candles, rsi(3)));
    expect(await source.run(candles, rsi(3))).toHaveLength(6);
  });

  it('sends what the code after the operator throws down the stream as its error', async () => {
    const candles = dailyCandles('SPX.US', [5, 4, 3, 4, 5, 6, 5, 3, 2]);
    const refuse = map<string, string>((cross) => {
      throw new Error(`refused ${cross}`);
    });

    expect(await source.run(candles, crossover(2, 3), refuse)).toEqual(new Error('refused up'));
  });
});

describe('a backtest feed', () => {
  it('hands each bar to its subscribers in the order they subscribed, whichever form they take', () => {
    const feed = new BarFeed();
    const seen: string[] = [];
    feed.subscribe((candle) => seen.push(`candle ${candle.close}`));
    feed.pipe(sma(1)).subscribe((mean) => seen.push(`bars ${mean}`));
    feed.subscribe((candle) => seen.push(`candle again ${candle.close}`));
    const columns = columnsOf(dailyCandles('SPX.US', [7, 8]), {
      symbol: dailyCandles('SPX.US', [7])[0]!.symbol,
      period: 'day',
      source: 'test',
    });

    feed.push(columns, 0);
    feed.push(columns, 1);

    expect(seen).toEqual(['candle 7', 'bars 7', 'candle again 7', 'candle 8', 'bars 8', 'candle again 8']);
  });

  it('makes one Candle per bar for all its Candle subscribers, and none when only bar sinks listen', () => {
    const feed = new BarFeed();
    const columns = columnsOf(dailyCandles('SPX.US', [7]), {
      symbol: dailyCandles('SPX.US', [7])[0]!.symbol,
      period: 'day',
      source: 'test',
    });
    const sinks = feed.pipe(sma(1)).subscribe();
    let made = 0;
    const counting = new Proxy(columns, {
      get: (target, field, receiver) => {
        if (field === 'open') made += 1;
        return Reflect.get(target, field, receiver);
      },
    });

    feed.push(counting, 0);
    expect(made).toBe(0);
    const candles: Candle[] = [];
    feed.subscribe((candle) => candles.push(candle));
    feed.subscribe((candle) => candles.push(candle));
    feed.push(counting, 0);
    expect(made).toBe(1);
    expect(candles[0]).toBe(candles[1]);
    sinks.unsubscribe();
  });

  it('drops a bar sink when its subscriber unsubscribes, and tells late subscribers it has ended', async () => {
    const feed = new BarFeed();
    const subscription = feed.pipe(crossover(1, 2)).subscribe();
    expect(feed.observed).toBe(true);
    subscription.unsubscribe();
    expect(feed.observed).toBe(false);

    feed.complete();
    expect(await lastValueFrom(feed.pipe(sma(2), toArray()))).toEqual([]);
  });

  it('is a bar stream; a stream piped through another operator is not', () => {
    const feed = new BarFeed();

    expect(barStreamOf(feed)).toBe(feed);
    expect(barStreamOf(feed.pipe(map((candle) => candle)))).toBeUndefined();
  });
});
