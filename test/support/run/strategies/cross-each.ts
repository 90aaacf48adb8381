// A strategy for paper/backtest comparisons: an SMA crossover on each of its symbols, buying `quantity` at
// market on a cross up and closing the position on a cross down.
import { map, merge } from 'rxjs';
import { crossover } from '../../../../src/strategy/operators/index.js';
import { defineStrategy } from '../../../../src/strategy/index.js';

export default defineStrategy({
  name: 'cross-each',
  params: { fast: 2, slow: 5, quantity: 10 },
  symbols: ['AAPL.US'],
  period: 'day',
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
