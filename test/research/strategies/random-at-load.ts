// Dishonest on purpose: draws its order size once, when the module loads, so every run in one process agrees
// but no two processes do.
import { map } from 'rxjs';
import { defineStrategy } from '../../../src/strategy/index.js';

const size = 1 + Math.floor(Math.random() * 1_000_000);

export default defineStrategy({
  name: 'random-at-load',
  params: {},
  symbols: ['SPX.US'],
  run: (ctx) => ctx.candles().pipe(map(() => ctx.buy(size))),
});
