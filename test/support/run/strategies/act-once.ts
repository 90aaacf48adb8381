// A strategy for restart tests: on its first quote, does what `--param action=` says once: `buy` the
// quantity while flat, `close` the position, or `none` (it only reconciles and watches).
import { filter, ignoreElements, map, take } from 'rxjs';
import { defineStrategy } from '../../../../src/strategy/index.js';

export default defineStrategy({
  name: 'act-once',
  params: { action: 'none', quantity: 10 },
  symbols: ['AAPL.US'],
  period: '1m',
  run: (ctx) => {
    if (ctx.params.action === 'none') return ctx.quotes().pipe(ignoreElements());
    return ctx.quotes().pipe(
      take(1),
      filter(() => ctx.params.action === 'close' || ctx.positions.quantity().isZero()),
      map(() =>
        ctx.params.action === 'close' ? ctx.close({ reason: 'told to close' }) : ctx.buy(ctx.params.quantity, { reason: 'told to buy' }),
      ),
    );
  },
});
