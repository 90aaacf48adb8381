// The honest strategy on each symbol of the run: SMA crossovers per symbol, warm-up covering the slow average.
import { map, merge } from 'rxjs';
import { crossover, defineStrategy } from '../../../src/strategy/index.js';

export default defineStrategy({
  name: 'honest-each',
  params: { fast: 3, slow: 8 },
  symbols: ['AAPL.US', 'MSFT.US'],
  warmup: (params) => params.slow + 1,
  run: (ctx) =>
    merge(
      ...ctx.symbols.map((symbol) =>
        ctx.candles(symbol).pipe(
          crossover(ctx.params.fast, ctx.params.slow),
          map((cross) => (cross === 'up' ? ctx.buy(10, { symbol }) : ctx.close({ symbol }))),
        ),
      ),
    ),
});
