// A strategy whose crossover reads ctx.candles() directly takes the backtest's bars in bar form (no Candle
// per bar); piping the candles through any other operator first makes it take Candles. Both must make the
// same run: the same intents (sized at the same last prices), fills and equity, and name the same bar
// when the strategy fails.
import { map, merge, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { parseSymbol } from '../../src/domain/symbol.js';
import type { OrderIntent } from '../../src/domain/intent.js';
import { crossover, defineStrategy, type StrategyContext } from '../../src/strategy/index.js';
import { prepareStrategy } from '../../src/strategy/prepare.js';
import { backtestData } from '../../src/backtest/data.js';
import { AAPL, backtest } from '../support/backtest/scripted.js';
import { randomWalk } from '../support/backtest/random-walk.js';

const MSFT = parseSymbol('MSFT.US');

type Form = 'bars' | 'candles';

/** Crossover on each symbol, sizing buys by value at the last price; `failOn`: throw on that cross. */
function crossEverySymbol(form: Form, failOn?: number) {
  return prepareStrategy(
    defineStrategy({
      name: `cross-${form}`,
      params: {},
      symbols: [AAPL, MSFT],
      period: 'day',
      // Played from the bars before a run's start, when it has them.
      warmup: 9,
      run: (ctx: StrategyContext<Record<string, never>>): Observable<OrderIntent> => {
        let crosses = 0;
        return merge(
          ...ctx.symbols.map((symbol) => {
            const candles = ctx.candles(symbol);
            const source = form === 'bars' ? candles : candles.pipe(map((candle) => candle));
            return source.pipe(
              crossover(3, 8),
              map((cross) => {
                crosses += 1;
                if (crosses === failOn) throw new Error('the strategy broke');
                const reason = `last ${ctx.lastPrice(symbol)?.toString()} / other ${ctx.lastPrice(symbol === AAPL ? MSFT : AAPL)?.toString()}`;
                return cross === 'up' ? ctx.buyValue(2_500, { symbol, reason }) : ctx.close({ symbol, reason });
              }),
            );
          }),
        );
      },
    }),
    {},
    `cross-${form}.ts`,
  );
}

const series = [randomWalk(AAPL, 7, 160), randomWalk(MSFT, 11, 160)];

describe('bar form and Candles make the same backtest', () => {
  it('the same intents at the same last prices, fills and equity', async () => {
    const [bars, candles] = await Promise.all((['bars', 'candles'] as const).map((form) => backtest(series, [crossEverySymbol(form)])));

    expect(bars!.intents.length).toBeGreaterThan(10);
    expect(bars!.intents.map(({ time, intent }) => ({ time, intent }))).toEqual(
      candles!.intents.map(({ time, intent }) => ({ time, intent })),
    );
    expect(bars!.record.fills).toEqual(candles!.record.fills);
    expect(bars!.record.equity).toEqual(candles!.record.equity);
  });

  it('the same decisions after a warm-up on the bars before the start (a run inside its data)', async () => {
    const cut = 70;
    const history = backtestData(
      series.map((bars) => ({ symbol: bars[0]!.symbol, period: 'day' as const, source: 'history', candles: bars.slice(0, cut) })),
    );
    const runs = await Promise.all(
      (['bars', 'candles'] as const).map((form) =>
        backtest(
          series.map((bars) => bars.slice(cut)),
          [crossEverySymbol(form)],
          { history },
        ),
      ),
    );
    const cold = await backtest(
      series.map((bars) => bars.slice(cut)),
      [crossEverySymbol('bars')],
    );

    const decisions = (run: (typeof runs)[number]) => run.intents.map(({ time, intent }) => ({ time, intent }));
    expect(decisions(runs[0]!)).toEqual(decisions(runs[1]!));
    expect(runs[0]!.record.fills).toEqual(runs[1]!.record.fills);
    // Warm, the first decision comes sooner than cold (crossover 3/8 needs 8 bars and one more).
    expect(runs[0]!.intents[0]!.time).toBeLessThan(cold.intents[0]!.time);
  });

  it('name the same bar when a warmed-up strategy fails, counting the history bars it was handed', async () => {
    const history = backtestData(
      series.map((bars) => ({ symbol: bars[0]!.symbol, period: 'day' as const, source: 'history', candles: bars.slice(0, 70) })),
    );
    const [bars, candles] = await Promise.all(
      (['bars', 'candles'] as const).map((form) =>
        backtest(
          series.map((one) => one.slice(70)),
          [crossEverySymbol(form, 3)],
          { history },
        ),
      ),
    );

    const failure = bars!.record.failures![0]!.failure;
    expect(failure.error).toMatch(/the strategy broke/);
    expect(failure.bar).toEqual(candles!.record.failures![0]!.failure.bar);
    expect(failure.bar!.index).toBeGreaterThanOrEqual(9);
  });

  it('name the same bar when the strategy fails', async () => {
    const [bars, candles] = await Promise.all((['bars', 'candles'] as const).map((form) => backtest(series, [crossEverySymbol(form, 4)])));

    const failure = bars!.record.failures![0]!.failure;
    expect(failure.error).toMatch(/the strategy broke/);
    expect(failure.bar).toEqual(candles!.record.failures![0]!.failure.bar);
    expect(failure.bar).toMatchObject({ period: 'day', index: expect.any(Number) as number });
    expect([AAPL, MSFT]).toContain(failure.bar!.symbol);
  });
});
