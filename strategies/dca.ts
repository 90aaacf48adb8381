// Dollar-cost averaging: buy about `amount` worth (whole shares, at the last close) of each symbol every `everyDays` days of bar time.
import { defineStrategy } from 'longport-trader';

const DAY_MS = 86_400_000;

export default defineStrategy({
  name: 'dca',
  description: 'Buys a fixed cash amount of each symbol at its first bar and then every N days (bar time, so backtests and live agree).',
  params: { amount: 1000, everyDays: 30 },
  symbols: ['SPX.US'],
  period: 'day',
  // No indicators: a warm-up would only shift its schedule onto history bars, whose purchases are dropped.
  warmup: 0,
  init: () => ({ nextBuyAt: new Map<string, number>() }),
  onCandle(candle, ctx, state) {
    const due = state.nextBuyAt.get(candle.symbol);
    if (due !== undefined && candle.time < due) return undefined;
    state.nextBuyAt.set(candle.symbol, candle.time + ctx.params.everyDays * DAY_MS);
    const quantity = Math.floor(ctx.params.amount / candle.close);
    if (quantity < 1) {
      ctx.log.warn(
        { symbol: candle.symbol, close: candle.close, amount: ctx.params.amount },
        'amount buys less than one share; skipping this purchase',
      );
      return undefined;
    }
    return ctx.buy(quantity, { symbol: candle.symbol, reason: `DCA ${ctx.params.amount} at ${candle.close}` });
  },
});
