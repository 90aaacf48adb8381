// Dishonest by accident: its cooldown lives in the module, so a second run in the same process (as optimize's
// trials run one after another) starts with the first run's last decision still in it.
import { filter, map } from 'rxjs';
import { crossover, defineStrategy } from '../../../src/strategy/index.js';

const DAY_MS = 86_400_000;
let lastBuy = Number.NEGATIVE_INFINITY;

export default defineStrategy({
  name: 'module-cooldown',
  params: { fast: 3, slow: 8 },
  symbols: ['AAPL.US'],
  warmup: (params) => params.slow + 1,
  run: (ctx) =>
    ctx.candles().pipe(
      crossover(ctx.params.fast, ctx.params.slow),
      filter((cross) => cross !== 'up' || ctx.clock.now() - lastBuy > 5 * DAY_MS),
      map((cross) => {
        if (cross !== 'up') return ctx.close();
        lastBuy = ctx.clock.now();
        return ctx.buy(10);
      }),
    ),
});
