// A strategy for restart tests: on its first quote, buys `quantity` at market unless it already holds the
// symbol (after a restart the reconciled position says it does, so it never buys twice).
import { filter, map, take } from 'rxjs';
import { defineStrategy } from '../../../../src/strategy/index.js';

export default defineStrategy({
  name: 'buy-once',
  params: { quantity: 100 },
  symbols: ['AAPL.US'],
  period: '1m',
  run: (ctx) =>
    ctx.quotes().pipe(
      take(1),
      filter(() => ctx.positions.quantity().isZero()),
      map(() => ctx.buy(ctx.params.quantity, { reason: 'first quote while flat' })),
    ),
});
