// Dishonest on purpose: flips a coin on every bar, so no two runs agree.
import { filter, map } from 'rxjs';
import { defineStrategy } from '../../../src/strategy/index.js';

export default defineStrategy({
  name: 'coin-flip',
  params: {},
  symbols: ['AAPL.US'],
  run: (ctx) =>
    ctx.candles().pipe(
      filter(() => Math.random() < 0.3),
      map(() => ctx.buy(1)),
    ),
});
