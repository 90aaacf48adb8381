// A strategy with no params whose code throws on its first bar: a failed trial with nothing to name it by.
import { map } from 'rxjs';
import { defineStrategy } from '../../../src/strategy/index.js';

export default defineStrategy({
  name: 'fails-without-params',
  params: {},
  symbols: ['AAPL.US'],
  warmup: 0,
  run: (ctx) =>
    ctx.candles().pipe(
      map(() => {
        throw new Error('no params, still fails');
      }),
    ),
});
