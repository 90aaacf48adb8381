// sma-crossover's per-bar work with every cross dropped: the allocation bench's run without orders, whose
// bytes a trial are taken from sma-crossover's to leave what its orders allocate.
import { filter, map } from 'rxjs';
import { crossover, defineStrategy } from '../../src/strategy/index.js';

export default defineStrategy({
  name: 'never-orders',
  description: "sma-crossover's crossover of closes, every cross dropped.",
  params: { fast: 10, slow: 30, quantity: 100 },
  symbols: ['SPX.US'],
  period: 'day',
  warmup: (params) => params.slow + 1,
  run: (ctx) =>
    ctx.candles().pipe(
      crossover(ctx.params.fast, ctx.params.slow),
      filter(() => false),
      map(() => ctx.close()),
    ),
});
