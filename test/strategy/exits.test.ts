import { EMPTY, NEVER, Subject, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Candle } from '../../src/domain/candle.js';
import { InvalidInputError } from '../../src/domain/errors.js';
import { Fixed, Price, Quantity, positionAt, type OrderIntent, type Position } from '../../src/domain/index.js';
import { exitReached } from '../../src/strategy/exit-levels.js';
import { withExits, type ExitKeeper, type HeldExits } from '../../src/strategy/exits.js';
import { createIntentHelpers } from '../../src/strategy/intents.js';
import { VirtualClock } from '../../src/clock/virtual-clock.js';
import { AAPL, backtest, dayBar, scripted } from '../support/backtest/scripted.js';

/** Daily bars from (open, high, low, close) rows, one trading day apart. */
function bars(rows: readonly (readonly [number, number, number, number])[]): Candle[] {
  const days = ['02', '03', '04', '05', '08', '09', '10', '11', '12', '16', '17', '18'];
  return rows.map(([open, high, low, close], index) => dayBar(AAPL, `2024-01-${days[index]!}`, open, high, low, close));
}

const fillsOf = (run: Awaited<ReturnType<typeof backtest>>): string[] =>
  run.events.flatMap((event) =>
    event.type === 'fill'
      ? [`${event.fill.side} ${event.fill.quantity.toFixed()} @ ${event.fill.price.toFixed()} ${event.tag ?? '-'}`]
      : [],
  );

/** withExits over hand-fed bars and a position the test sets, with every keeper call written down. */
function exitsHarness(intents: Observable<OrderIntent>, restored?: ReadonlyMap<typeof AAPL, HeldExits>) {
  const helpers = createIntentHelpers(AAPL);
  const bars = new Subject<Candle>();
  const state: { position: Position | undefined; entryWorks: boolean } = { position: undefined, entryWorks: false };
  const calls: string[] = [];
  const keeper: ExitKeeper = {
    kept: (symbol, held) =>
      calls.push(`kept ${symbol} ${held.direction ?? '-'} ${held.best}${held.fired === undefined ? '' : ` ${held.fired}`}`),
    dropped: (symbol, why) => calls.push(`dropped ${symbol}: ${why}`),
  };
  const out: OrderIntent[] = [];
  let completed = false;
  // Each bar closes a day after the one before (entries come in between, at the last bar's close).
  const clock = new VirtualClock(0);
  const context = {
    clock,
    close: helpers.close,
    cancel: helpers.cancel,
    denials: NEVER,
    positions: { get: () => state.position },
    addingOrderWorks: () => state.entryWorks,
  };
  withExits(intents, context, () => bars, {
    keeper,
    ...(restored === undefined ? {} : { restored }),
  }).subscribe({ next: (intent) => out.push(intent), complete: () => (completed = true) });
  return {
    helpers,
    calls,
    out,
    completed: () => completed,
    hold: (quantity: number, cost: number) => (state.position = positionAt(AAPL, Quantity.of(quantity), Price.of(cost))),
    entryWorks: (works: boolean) => (state.entryWorks = works),
    bar: (high: number, low: number) => {
      clock.advanceBy(86_400_000);
      bars.next(dayBar(AAPL, '2024-01-03', low, high, low, high));
    },
  };
}

describe('exits attached to an entry', () => {
  it('closes at the next open after a bar reaches the stop-loss, tagged stop-loss', async () => {
    const data = bars([
      [10, 10.5, 9.8, 10],
      [10, 10.4, 9.6, 10.1], // entry fills at 10; stop at 9.5 not reached (low 9.6)
      [10, 10.2, 9.4, 9.6], // low 9.4 ≤ 9.5: close sent at this close
      [9.3, 9.5, 9, 9.2], // fills at the open
      [9, 9.1, 8, 8.5],
    ]);
    const strategy = scripted([AAPL], { 0: (ctx) => ctx.buy(100, { tag: 'entry', exits: { stopLoss: { percent: 0.05 } } }) });

    const run = await backtest([data], [strategy]);

    expect(fillsOf(run)).toEqual(['Buy 100 @ 10 entry', 'Sell 100 @ 9.3 stop-loss']);
  });

  it('with --fill close, does not check an entry against the range of the bar it filled at the close of (that range came first)', async () => {
    const data = bars([
      [10, 10.2, 9.9, 10], // first entry, filled at this close (10): exits armed and watching
      [10, 10.3, 9.9, 10.1], // the strategy closes it itself at 10.1
      [10.1, 12, 9, 10], // re-entry filled at this close, 10: the bar's 12 and 9 came before it
      [10, 10.4, 9.8, 10.2], // neither the take-profit at 11 nor the stop at 9.5 is reached
      [10.2, 11.2, 10.1, 11], // take-profit reached: closed at this close
      [11, 11.5, 10.8, 11.2],
    ]);
    const exits = { stopLoss: { percent: 0.05 }, takeProfit: { percent: 0.1 } };
    const strategy = scripted([AAPL], {
      0: (ctx) => ctx.buy(100, { tag: 'entry', exits }),
      1: (ctx) => ctx.close({ tag: 'own' }),
      2: (ctx) => ctx.buy(100, { tag: 'entry', exits }),
    });

    const run = await backtest([data], [strategy], { venue: { fillModel: 'close' } });

    expect(fillsOf(run)).toEqual(['Buy 100 @ 10 entry', 'Sell 100 @ 10.1 own', 'Buy 100 @ 10 entry', 'Sell 100 @ 11 take-profit']);
  });

  it('takes profit at an amount above the average cost, and trails the highest high by a percentage', async () => {
    const data = bars([
      [10, 10.5, 9.8, 10],
      [10, 11, 9.9, 10.8],
      [11, 12.1, 10.9, 12], // high 12.1 ≥ 10 + 2: take-profit
      [12.2, 12.5, 12, 12.4],
      [12.4, 13, 12.3, 12.9], // re-entry fills at 12.4; highs 13, then 14
      [13, 14, 12.9, 13.8],
      [13.5, 13.6, 12.5, 12.7], // low 12.5 ≤ 14 × 0.9 = 12.6: trailing stop
      [12.6, 12.8, 12.4, 12.5],
    ]);
    const strategy = scripted([AAPL], {
      0: (ctx) => ctx.buy(10, { exits: { takeProfit: { amount: 2 }, stopLoss: { percent: 0.2 } } }),
      3: (ctx) => ctx.buy(10, { tag: 'again', exits: { trailingStop: { percent: 0.1 } } }),
    });

    const run = await backtest([data], [strategy]);

    expect(fillsOf(run)).toEqual(['Buy 10 @ 10 -', 'Sell 10 @ 12.2 take-profit', 'Buy 10 @ 12.4 again', 'Sell 10 @ 12.6 trailing-stop']);
  });

  it('drops the exits when the strategy closes the position itself, so a later plain entry is not stopped out', async () => {
    const data = bars([
      [10, 10.5, 9.8, 10],
      [10, 10.4, 9.9, 10.1],
      [10, 10.2, 9.8, 9.9], // the strategy closes (signal)
      [9.9, 10, 9.7, 9.8], // fills at 9.9
      [9.8, 9.9, 9.5, 9.6], // plain entry sent at bar 3's close fills here at 9.8
      [9, 9.1, 8, 8.5], // far below the old stop: nothing happens
      [8.5, 8.6, 8, 8.2],
    ]);
    const strategy = scripted([AAPL], {
      0: (ctx) => ctx.buy(100, { exits: { stopLoss: { percent: 0.05 } } }),
      2: (ctx) => ctx.close({ tag: 'signal' }),
      3: (ctx) => ctx.buy(50),
    });

    const run = await backtest([data], [strategy]);

    expect(fillsOf(run)).toEqual(['Buy 100 @ 10 -', 'Sell 100 @ 9.9 signal', 'Buy 50 @ 9.8 -']);
    expect(run.record.fills).toHaveLength(3);
  });

  it('mirrors the levels for a short position', () => {
    const bar = dayBar(AAPL, '2024-01-02', 100, 106, 94, 100);
    expect(exitReached({ stopLoss: { percent: 0.05 } }, -1, 100, 100, bar)).toEqual({ tag: 'stop-loss', level: 105 });
    expect(exitReached({ takeProfit: { amount: 5 } }, -1, 100, 100, bar)).toEqual({ tag: 'take-profit', level: 95 });
    expect(exitReached({ trailingStop: { amount: 3 } }, -1, 100, 102, { ...bar, high: 104.9 })).toBeUndefined();
    // Both reached in one bar: the stop is assumed first (the worse case).
    expect(exitReached({ stopLoss: { amount: 5 }, takeProfit: { amount: 5 } }, 1, 100, 100, bar)?.tag).toBe('stop-loss');
  });

  it('refuses an exit that is not one positive percent or amount, naming it', () => {
    const { buy } = createIntentHelpers(AAPL);
    expect(() => buy(1, { exits: { stopLoss: { percent: -0.05 } } })).toThrow(/exits\.stopLoss must be \{ percent: number > 0 \}/);
    expect(() => buy(1, { exits: { trailingStop: { percent: 5 } } })).toThrow(
      /exits\.trailingStop\.percent is a fraction \(0\.05 = 5 %\), got 5/,
    );
    expect(() => buy(1, { exits: { takeProfit: { percent: 0.1, amount: 2 } } })).toThrow(InvalidInputError);
    expect(buy(1, { exits: { takeProfit: { amount: 2 } } })).toMatchObject({ exits: { takeProfit: { amount: 2 } } });
  });

  it('leaves the exits as they were when an entry that came with new ones is denied, and arms none for an entry denied while flat', async () => {
    const data = bars([
      [10, 10.5, 9.8, 10],
      [10, 10.4, 9.9, 10.1], // 10 fill at 10: stop at 9.5
      [10.1, 10.2, 9.9, 10], // adding 100 with a 50 % stop is denied (notional over 500)
      [10, 10.1, 9.4, 9.6], // the first stop still holds: low 9.4 ≤ 9.5
      [9.55, 9.6, 9.5, 9.55], // closed at the open
      [9.55, 9.6, 9.5, 9.55], // flat: an entry of 100 with a 1 % stop is denied
      [9.5, 9.6, 9.45, 9.5], // a plain entry of 10
      [9.5, 9.6, 9.45, 9.5], // fills at 9.5
      [9, 9.1, 5, 8], // far below: the denied entry's stop does not take over the plain one
      [8, 8.1, 7.9, 8],
    ]);
    const strategy = scripted([AAPL], {
      0: (ctx) => ctx.buy(10, { tag: 'entry', exits: { stopLoss: { percent: 0.05 } } }),
      2: (ctx) => ctx.buy(100, { tag: 'add', exits: { stopLoss: { percent: 0.5 } } }),
      5: (ctx) => ctx.buy(100, { tag: 'denied', exits: { stopLoss: { percent: 0.01 } } }),
      6: (ctx) => ctx.buy(10, { tag: 'plain' }),
    });

    const run = await backtest([data], [strategy], { risk: { maxOrderNotional: Fixed.of(500) } });

    expect(run.events.filter((event) => event.type === 'denial')).toHaveLength(2);
    expect(fillsOf(run)).toEqual(['Buy 10 @ 10 entry', 'Sell 10 @ 9.55 stop-loss', 'Buy 10 @ 9.5 plain']);
  });

  it('drops the exits when one order reverses the position, so the new short is not stopped out by the long ones', async () => {
    const data = bars([
      [10, 10.5, 9.8, 10],
      [10, 10.4, 9.9, 10.1], // entry fills at 10 (stop of the long at 9.5)
      [10.1, 10.2, 9.9, 10], // target −100 sent: long to short in one order
      [10, 10.1, 9.9, 10], // fills at 10: short 100
      [10.4, 11, 10.3, 10.9], // 10 % above the short's cost: the long's 5 % would stop a short here
      [10.9, 11, 10.8, 10.9],
    ]);
    const strategy = scripted([AAPL], {
      0: (ctx) => ctx.buy(100, { exits: { stopLoss: { percent: 0.05 } } }),
      2: (ctx) => ctx.target(-100, { tag: 'reverse' }),
    });

    const run = await backtest([data], [strategy], { venue: { shortSelling: true } });

    expect(fillsOf(run)).toEqual(['Buy 100 @ 10 -', 'Sell 200 @ 10 reverse']);
  });

  it('tells its keeper of arming, of the position first seen open, of a new best price under a trailing stop and of the close, and of nothing else', () => {
    const intents = new Subject<OrderIntent>();
    const run = exitsHarness(intents);

    intents.next(run.helpers.buy(100, { exits: { trailingStop: { amount: 1 } } }));
    run.bar(10.2, 9.9); // not filled yet
    run.hold(100, 10);
    run.bar(10.2, 9.9); // seen open at 10; the high 10.2 is a new best
    run.bar(10.1, 9.6); // nothing new
    run.bar(10.5, 10); // new best 10.5
    run.hold(0, 0);
    run.bar(10.4, 10.1); // closed by the strategy

    expect(run.calls).toEqual([
      'kept AAPL.US - NaN',
      'kept AAPL.US 1 10',
      'kept AAPL.US 1 10.2',
      'kept AAPL.US 1 10.5',
      'dropped AAPL.US: the position closed',
    ]);
    expect(run.out).toHaveLength(1);
  });

  it('does not write a moving best price when the exits have no trailing stop', () => {
    const intents = new Subject<OrderIntent>();
    const run = exitsHarness(intents);

    intents.next(run.helpers.buy(100, { exits: { stopLoss: { percent: 0.1 } } }));
    run.hold(100, 10);
    run.bar(10.2, 9.9);
    run.bar(10.8, 10.1);

    expect(run.calls).toEqual(['kept AAPL.US - NaN', 'kept AAPL.US 1 10']);
  });

  it('re-arms restored exits before any bar: the trailing stop follows the restored best price, and they outlive the strategy stream', () => {
    const restored = new Map([
      [AAPL, { exits: { trailingStop: { percent: 0.1 } }, direction: 1, best: 12, fired: undefined } satisfies HeldExits],
    ]);
    const run = exitsHarness(EMPTY, restored);
    run.hold(100, 10);

    run.bar(11.5, 10.9); // 12 × 0.9 = 10.8 not reached (from the average cost it would be 9)
    expect(run.out).toEqual([]);
    run.bar(11, 10.7);

    expect(run.out).toMatchObject([
      { kind: 'close', symbol: AAPL, tag: 'trailing-stop', reason: 'trailing-stop at 10.8 (average cost 10)' },
    ]);
    expect(run.completed()).toBe(false);
    run.hold(0, 0);
    run.bar(10.9, 10.6);
    expect(run.calls).toEqual(['kept AAPL.US 1 12 trailing-stop', 'dropped AAPL.US: the position closed']);
    expect(run.completed()).toBe(true);
  });

  it('drops restored exits whose long position is found short, and keeps a restored entry waiting while flat', () => {
    const restored = new Map([
      [AAPL, { exits: { stopLoss: { percent: 0.05 } }, direction: 1, best: 10, fired: undefined } satisfies HeldExits],
    ]);
    const run = exitsHarness(new Subject<OrderIntent>(), restored);
    run.hold(-100, 10);
    run.bar(11, 10); // a short's adverse move; the long's stop does not apply
    expect(run.out).toEqual([]);
    expect(run.calls).toEqual(['dropped AAPL.US: the position reversed']);

    const waiting = exitsHarness(
      EMPTY,
      new Map([[AAPL, { exits: { stopLoss: { percent: 0.05 } }, direction: undefined, best: Number.NaN, fired: undefined }]]),
    );
    waiting.bar(10, 9); // flat: the entry has not filled
    waiting.hold(100, 10);
    waiting.bar(10, 9.4);
    expect(waiting.out).toMatchObject([{ kind: 'close', tag: 'stop-loss' }]);
    expect(waiting.calls).toEqual(['kept AAPL.US 1 10', 'kept AAPL.US 1 10 stop-loss']);
  });

  it('cancels the rest of a partly filled entry before closing, and closes again on later bars while the position stays open', () => {
    const intents = new Subject<OrderIntent>();
    const run = exitsHarness(intents);
    intents.next(run.helpers.buy(100, { exits: { stopLoss: { percent: 0.05 } } }));
    run.hold(40, 10);
    run.entryWorks(true);

    run.bar(10.1, 9.4);
    // The close could not go out (say it was denied while the cancel was unconfirmed); the price is back up.
    run.entryWorks(false);
    run.bar(9.9, 9.6);
    run.hold(0, 0);
    run.bar(9.9, 9.6);

    expect(run.out.slice(1).map((intent) => [intent.kind, intent.tag ?? '', intent.reason])).toEqual([
      ['cancel', '', 'stop-loss: the rest of the entry'],
      ['close', 'stop-loss', 'stop-loss at 9.5 (average cost 10)'],
      ['close', 'stop-loss', 'stop-loss reached earlier; the position is still open'],
    ]);
    expect(run.calls).toEqual([
      'kept AAPL.US - NaN',
      'kept AAPL.US 1 10',
      'kept AAPL.US 1 10.1 stop-loss',
      'dropped AAPL.US: the position closed',
    ]);
  });

  it('closes a partly filled entry by its stop in a backtest: the rest is cancelled, the filled part sold', async () => {
    const data = bars([
      [10, 10.5, 9.8, 10],
      [10, 10.4, 9.4, 9.6], // a bar of 40 shares: 40 of the 100 fill at 10; the low reaches the stop (9.5)
      [9.6, 9.7, 9.5, 9.6], // the 40 are sold at the open
      [9.55, 9.7, 9.5, 9.6],
    ]).map((bar, index) => (index === 1 ? { ...bar, volume: 40 } : bar));
    const strategy = scripted([AAPL], { 0: (ctx) => ctx.buy(100, { tag: 'entry', exits: { stopLoss: { percent: 0.05 } } }) });

    const run = await backtest([data], [strategy]);

    expect(fillsOf(run)).toEqual(['Buy 40 @ 10 entry', 'Sell 40 @ 9.6 stop-loss']);
    expect(run.events.filter((event) => event.type === 'denial')).toEqual([]);
  });
});
