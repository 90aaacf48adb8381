// A strategy that watches the bars and never decides, for the parity check's "nothing compared".
import { filter, map } from 'rxjs';
import { defineStrategy } from '../../../src/strategy/index.js';

export default defineStrategy({
  name: 'quiet',
  symbols: ['AAPL.US'],
  run: (ctx) =>
    ctx.candles().pipe(
      filter((candle) => candle.close < 0),
      map(() => ctx.buy(1)),
    ),
});
