// A strategy for schedule tests: on its first quote it buys `quantity` once per run (at market, or as a
// limit order at `limit` when it is above zero, which rests when far below the market), then completes
// (a cron run ends once its order is done). `failOnQuote` makes it throw instead: a crash.
import { map, take } from 'rxjs';
import { defineStrategy } from '../../../../src/strategy/index.js';

export default defineStrategy({
  name: 'buy-on-quote',
  params: { quantity: 1, limit: 0, failOnQuote: false },
  symbols: ['AAPL.US'],
  period: '1m',
  run: (ctx) =>
    ctx.quotes().pipe(
      take(1),
      map(() => {
        if (ctx.params.failOnQuote) throw new Error('strategy threw on its first quote');
        return ctx.buy(ctx.params.quantity, { reason: 'one order per fire', ...(ctx.params.limit > 0 ? { price: ctx.params.limit } : {}) });
      }),
    ),
});
