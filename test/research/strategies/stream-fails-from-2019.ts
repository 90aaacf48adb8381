// SMA crossover whose stream throws on every bar from 2019 on: a walk-forward test window reaching 2019 fails.
import { map, tap } from 'rxjs';
import { crossover, defineStrategy } from '../../../src/strategy/index.js';

const FROM_2019 = Date.UTC(2019, 0, 1);

export default defineStrategy({
  name: 'stream-fails-from-2019',
  params: { fast: 5, slow: 20, quantity: 10 },
  symbols: ['SPX.US'],
  warmup: (params) => params.slow + 1,
  run: (ctx) =>
    ctx.candles().pipe(
      tap((candle) => {
        if (candle.time >= FROM_2019) throw new Error('no bars after 2018');
      }),
      crossover(ctx.params.fast, ctx.params.slow),
      map((cross) => (cross === 'up' ? ctx.buy(ctx.params.quantity) : ctx.close())),
    ),
});
