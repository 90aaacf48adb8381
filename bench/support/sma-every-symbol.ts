// The end-to-end bench's strategy: sma-crossover's rule (buy on a cross above, close on a cross below) on
// every symbol of the run, so a universe of 500 symbols trades all of them.
import { map, merge } from 'rxjs';
import { crossover, defineStrategy } from '../../src/strategy/index.js';

export default defineStrategy({
  name: 'sma-every-symbol',
  description: 'sma-crossover on each symbol of the run.',
  params: { fast: 10, slow: 30, quantity: 10 },
  symbols: ['SPX.US'],
  period: 'day',
  // The slow SMA's bars, plus one for the previous spread a cross is measured against.
  warmup: (params) => params.slow + 1,
  run: (ctx) =>
    merge(
      ...ctx.symbols.map((symbol) =>
        ctx.candles(symbol).pipe(
          crossover(ctx.params.fast, ctx.params.slow),
          map((cross) => (cross === 'up' ? ctx.buy(ctx.params.quantity, { symbol }) : ctx.close({ symbol }))),
        ),
      ),
    ),
});
