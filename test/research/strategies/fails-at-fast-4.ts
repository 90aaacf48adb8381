// SMA crossover whose code throws on its first cross when fast is 4: optimize must not rank those trials.
import { map } from 'rxjs';
import { crossover, defineStrategy } from '../../../src/strategy/index.js';

export default defineStrategy({
  name: 'fails-at-fast-4',
  params: { fast: 2, slow: 8, quantity: 10 },
  symbols: ['AAPL.US'],
  warmup: (params) => params.slow + 1,
  run: (ctx) =>
    ctx.candles().pipe(
      crossover(ctx.params.fast, ctx.params.slow),
      map((cross) => {
        if (ctx.params.fast === 4) throw new Error('no crosses at fast 4');
        return cross === 'up' ? ctx.buy(ctx.params.quantity) : ctx.close();
      }),
    ),
});
