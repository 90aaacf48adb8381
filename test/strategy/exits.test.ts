import { describe, expect, it } from 'vitest';
import type { Candle } from '../../src/domain/candle.js';
import { InvalidInputError } from '../../src/domain/errors.js';
import { exitReached } from '../../src/strategy/exits.js';
import { createIntentHelpers } from '../../src/strategy/intents.js';
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
});
