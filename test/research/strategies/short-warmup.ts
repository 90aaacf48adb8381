// Dishonest on purpose: declares a 2-bar warm-up but averages 20 bars, so its first decisions depend on
// where the data starts.
import { map } from 'rxjs';
import { crossover, defineStrategy } from '../../../src/strategy/index.js';

export default defineStrategy({
  name: 'short-warmup',
  params: {},
  symbols: ['AAPL.US'],
  warmup: 2,
  run: (ctx) =>
    ctx.candles().pipe(
      crossover(3, 20),
      map((cross) => (cross === 'up' ? ctx.buy(10) : ctx.close())),
    ),
});
