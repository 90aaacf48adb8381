// Exits attached to an entry in paper mode, through the real simulator on 127.0.0.1: the same stop-loss
// and take-profit closes, with the same tags, as the backtest of the same bars.
import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../src/execution/events.js';
import { AAPL, backtest, dayBar, scripted } from '../support/backtest/scripted.js';
import { removeTempFolders, startPaperHarness, type PaperHarness } from '../support/run/paper-harness.js';

const DAYS = ['02', '03', '04', '05', '08', '09', '10', '11', '12', '16'];
const ROWS: readonly (readonly [number, number, number, number])[] = [
  [10, 10.5, 9.8, 10],
  [10, 10.4, 9.9, 10.1], // entry fills
  [10, 10.2, 9.4, 9.6], // low ≤ 9.5: stop-loss
  [9.6, 9.8, 9.5, 9.7], // the close fills; a new entry with a take-profit of 1 is sent
  [9.7, 10, 9.6, 9.9], // it fills
  [9.9, 11, 9.8, 10.9], // high ≥ entry + 1: take-profit
  [10.9, 11, 10.5, 10.8],
  [10.8, 11, 10.5, 10.6],
];
const BARS = ROWS.map(([open, high, low, close], index) => dayBar(AAPL, `2024-01-${DAYS[index]!}`, open, high, low, close));
const strategy = (): ReturnType<typeof scripted> =>
  scripted([AAPL], {
    0: (ctx) => ctx.buy(100, { tag: 'entry', exits: { stopLoss: { percent: 0.05 } } }),
    3: (ctx) => ctx.buy(50, { tag: 'again', exits: { takeProfit: { amount: 1 } } }),
  });

const tagsOf = (events: readonly RuntimeEvent[]): string[] =>
  events.flatMap((event) => (event.type === 'fill' ? [`${event.fill.side} ${event.fill.quantity.toFixed()} ${event.tag ?? '-'}`] : []));

let harness: PaperHarness | undefined;

afterEach(async () => {
  await harness?.stop();
  harness = undefined;
  await removeTempFolders();
});

describe('exits in paper mode', () => {
  it('closes by the stop-loss and the take-profit as the backtest does, tagged', async () => {
    const expected = ['Buy 100 entry', 'Sell 100 stop-loss', 'Buy 50 again', 'Sell 50 take-profit'];
    expect(tagsOf((await backtest([BARS], [strategy()])).events)).toEqual(expected);

    harness = await startPaperHarness({ strategies: [strategy()], candles: [BARS] });
    await harness.stepAll();

    expect(tagsOf(harness.events)).toEqual(expected);
  });
});
