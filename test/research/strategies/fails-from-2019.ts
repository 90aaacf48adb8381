// SMA crossover whose code throws on every bar from 2019 on: a walk-forward test window reaching 2019 fails.
import { filter, map } from 'rxjs';
import { defineStrategy } from '../../../src/strategy/index.js';
import { crossover } from '../../../src/strategy/index.js';

const FROM_2019 = Date.UTC(2019, 0, 1);

export default defineStrategy({
  name: 'fails-from-2019',
  params: { fast: 5, slow: 20, quantity: 10 },
  symbols: ['SPX.US'],
  warmup: (params) => params.slow + 1,
  run: (ctx) => {
    const candles = ctx.candles();
    candles.pipe(filter((candle) => candle.time >= FROM_2019)).subscribe(() => {
      throw new Error('no bars after 2018');
    });
    return candles.pipe(
      crossover(ctx.params.fast, ctx.params.slow),
      map((cross) => (cross === 'up' ? ctx.buy(ctx.params.quantity) : ctx.close())),
    );
  },
});
