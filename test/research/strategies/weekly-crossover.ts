// A crossover of 2- and 10-week averages on week bars (from the run's day bars), its warm-up a parameter:
// 11 weeks is what the averages need, fewer is dishonest.
import { map } from 'rxjs';
import { crossover, defineStrategy } from '../../../src/strategy/index.js';

export default defineStrategy({
  name: 'weekly-crossover',
  params: { warmup: 11 },
  symbols: ['AAPL.US'],
  period: 'week',
  warmup: (params) => params.warmup,
  run: (ctx) =>
    ctx.candles().pipe(
      crossover(2, 10),
      map((cross) => (cross === 'up' ? ctx.buy(10) : ctx.close())),
    ),
});
