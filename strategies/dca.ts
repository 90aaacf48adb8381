// Dollar-cost averaging: every `everyDays` days of bar time, put `amount` toward each symbol and buy the whole lots it pays for (shares in the US, board lots in Hong Kong); what a purchase cannot spend (less than a lot) carries to the next one.
import { z } from 'zod';
import { defineStrategy } from 'longport-trader';

const DAY_MS = 86_400_000;

export default defineStrategy({
  name: 'dca',
  description:
    'Puts a fixed cash amount toward each symbol at its first bar and then every N days (bar time, so backtests and live agree), buying the whole lots it pays for (shares in the US, board lots in Hong Kong); the rest carries over.',
  params: { amount: 1000, everyDays: 30 },
  paramsSchema: z.strictObject({ amount: z.number().positive(), everyDays: z.number().positive() }),
  symbols: ['SPX.US'],
  period: 'day',
  // No indicators, so no warm-up; history bars played anyway (a longer warm-up) leave the schedule alone.
  warmup: 0,
  init: () => ({ nextBuyAt: new Map<string, number>(), carried: new Map<string, number>() }),
  onCandle(candle, ctx, state) {
    if (ctx.warmingUp) return undefined;
    const due = state.nextBuyAt.get(candle.symbol);
    if (due !== undefined && candle.time < due) return undefined;
    state.nextBuyAt.set(candle.symbol, candle.time + ctx.params.everyDays * DAY_MS);
    // A lot dearer than the amount is bought every few purchases instead of never.
    const budget = ctx.params.amount + (state.carried.get(candle.symbol) ?? 0);
    const lot = ctx.lotSize(candle.symbol);
    const quantity = Math.floor(budget / (candle.close * lot)) * lot;
    state.carried.set(candle.symbol, budget - quantity * candle.close);
    if (quantity < 1) {
      ctx.log.debug({ symbol: candle.symbol, close: candle.close, lot, budget }, 'less than one lot so far; carried to the next purchase');
      return undefined;
    }
    return ctx.buy(quantity, { symbol: candle.symbol, reason: `DCA ${budget.toFixed(2)} at ${candle.close}` });
  },
});
