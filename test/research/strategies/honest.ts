// An honest strategy for the check tests: SMA crossover with a warm-up that covers its slow average.
import { map } from 'rxjs';
import { crossover, defineStrategy } from '../../../src/strategy/index.js';

export default defineStrategy({
  name: 'honest',
  params: { fast: 3, slow: 8 },
  symbols: ['AAPL.US'],
  warmup: (params) => params.slow + 1,
  run: (ctx) =>
    ctx.candles().pipe(
      crossover(ctx.params.fast, ctx.params.slow),
      map((cross) => (cross === 'up' ? ctx.buy(10) : ctx.close())),
    ),
});
