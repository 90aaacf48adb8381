import { EMPTY, Subject, firstValueFrom, of, toArray } from 'rxjs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { VirtualClock } from '../../src/clock/virtual-clock.js';
import { clockScheduler } from '../../src/clock/scheduler.js';
import { Money, Quantity, type Candle, type OrderIntent } from '../../src/domain/index.js';
import { createIntentHelpers, defineStrategy, type StrategyContext } from '../../src/strategy/index.js';
import { dailyCandles } from '../support/execution/subject-market-data.js';

// A context over one candle Subject, enough to run a definition without the runtime.
function contextFor<P>(params: P, candles: Subject<Candle>): StrategyContext<P> {
  const clock = new VirtualClock(0);
  const symbol = dailyCandles('SPX.US', [1])[0]!.symbol;
  const log = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
  return {
    name: 'test',
    symbols: [symbol],
    symbol,
    period: 'day',
    params,
    warmingUp: false,
    candles: () => candles.asObservable(),
    quotes: () => EMPTY,
    orderUpdates: EMPTY,
    denials: EMPTY,
    positions: { quantity: () => Quantity.ZERO, get: () => undefined, all: () => [], unrealizedPnl: () => Money.zero('USD') },
    account: { balance: () => undefined, cash: () => Money.zero('USD'), buyPower: () => Money.zero('USD') },
    clock,
    scheduler: clockScheduler(clock),
    log,
    ...createIntentHelpers(symbol),
    lastPrice: () => undefined,
    lotSize: () => 1,
    equity: () => Money.zero('USD'),
    targetPercent: () => {
      throw new Error('no sizing in this context');
    },
    buyValue: () => {
      throw new Error('no sizing in this context');
    },
    sellValue: () => {
      throw new Error('no sizing in this context');
    },
  };
}

describe('defineStrategy', () => {
  it('types params from the defaults, widened (fast: 10 → number)', () => {
    const definition = defineStrategy({
      name: 'typed',
      params: { fast: 10, label: 'a', short: false },
      run: (ctx) => {
        expectTypeOf(ctx.params).toEqualTypeOf<{ readonly fast: number; readonly label: string; readonly short: boolean }>();
        // @ts-expect-error: a misspelt param is an editor error
        void ctx.params.fats;
        return EMPTY;
      },
    });
    expect(definition.defaults).toEqual({ fast: 10, label: 'a', short: false });
  });

  it('types the per-run state of the callback form from init', () => {
    defineStrategy({
      name: 'stateful',
      params: { step: 1 },
      init: () => ({ count: 0 }),
      onCandle: (_candle, _ctx, state) => {
        expectTypeOf(state).toEqualTypeOf<{ count: number }>();
        return undefined;
      },
    });
  });

  it('turns onCandle results (nothing, one intent, a list) into the intent stream, in order', async () => {
    const definition = defineStrategy({
      name: 'callback',
      params: { quantity: 5 },
      onCandle: (candle, ctx) => {
        if (candle.close === 1) return undefined;
        if (candle.close === 2) return ctx.buy(ctx.params.quantity);
        return [ctx.sell(1), ctx.close()];
      },
    });
    const candles = new Subject<Candle>();
    const collected = firstValueFrom(definition.run(contextFor({ quantity: 5 }, candles)).pipe(toArray()));

    for (const candle of dailyCandles('SPX.US', [1, 2, 3])) candles.next(candle);
    candles.complete();

    const intents = await collected;
    expect(intents.map((intent) => intent.kind)).toEqual(['order', 'order', 'close']);
    expect(intents[0]).toMatchObject({ side: 'Buy', symbol: 'SPX.US' });
    expect((intents[0] as Extract<OrderIntent, { kind: 'order' }>).quantity.toFixed()).toBe('5');
  });

  it('gives every run its own state from init', async () => {
    const definition = defineStrategy({
      name: 'counter',
      init: () => ({ seen: 0 }),
      onCandle: (_candle, ctx, state) => {
        state.seen += 1;
        return state.seen === 2 ? ctx.buy(1) : undefined;
      },
    });
    for (let run = 0; run < 2; run += 1) {
      const candles = new Subject<Candle>();
      const collected = firstValueFrom(definition.run(contextFor({}, candles)).pipe(toArray()));
      for (const candle of dailyCandles('SPX.US', [1, 2, 3])) candles.next(candle);
      candles.complete();
      expect(await collected).toHaveLength(1);
    }
  });

  it('fails the stream when onCandle throws', async () => {
    const definition = defineStrategy({
      name: 'thrower',
      onCandle: () => {
        throw new Error('boom');
      },
    });
    const candles = new Subject<Candle>();
    const result = firstValueFrom(definition.run(contextFor({}, candles)));

    candles.next(dailyCandles('SPX.US', [1])[0]!);

    await expect(result).rejects.toThrow('boom');
  });

  it('keeps an Rx strategy as written', async () => {
    const definition = defineStrategy({ name: 'rx', run: (ctx) => of(ctx.buy(2)) });

    const intents = await firstValueFrom(definition.run(contextFor({}, new Subject())).pipe(toArray()));

    expect(intents).toHaveLength(1);
  });
});

describe('intent helpers', () => {
  const helpers = createIntentHelpers(dailyCandles('SPX.US', [1])[0]!.symbol);

  it('builds orders on the default symbol with exact decimals', () => {
    const intent = helpers.buy(0.1, { price: '12.35', reason: 'test' });

    expect(intent).toMatchObject({ kind: 'order', symbol: 'SPX.US', side: 'Buy', reason: 'test' });
    expect(intent.kind === 'order' && intent.quantity.toFixed()).toBe('0.1');
    expect(intent.kind === 'order' && intent.price?.toFixed()).toBe('12.35');
  });

  it('normalises another symbol', () => {
    expect(helpers.close({ symbol: '0700.hk' })).toEqual({ kind: 'close', symbol: '700.HK' });
  });

  it('refuses a non-positive quantity', () => {
    expect(() => helpers.sell(0)).toThrow(/sell quantity must be positive/);
    expect(() => helpers.buy(Number.NaN)).toThrow(/not a finite number/);
  });

  it('builds target and cancel intents', () => {
    const target = helpers.target(-50);
    expect(target.kind === 'target' && target.quantity.toFixed()).toBe('-50');
    expect(helpers.cancel()).toEqual({ kind: 'cancel' });
    expect(helpers.cancel('AAPL.US', 'end of day')).toEqual({ kind: 'cancel', symbol: 'AAPL.US', reason: 'end of day' });
  });
});
