// Dishonest on purpose: remembers every bar's close at module level, so a later run knows tomorrow's close
// and buys before a rise (the future leaking between runs, as a shared cache or a precomputed file does).
import { filter, map } from 'rxjs';
import { defineStrategy } from '../../../src/strategy/index.js';

const closes = new Map<number, number>();
const times: number[] = [];

export default defineStrategy({
  name: 'peeking',
  params: {},
  symbols: ['AAPL.US'],
  run: (ctx) =>
    ctx.candles().pipe(
      map((candle) => {
        if (!closes.has(candle.time)) times.push(candle.time);
        closes.set(candle.time, candle.close);
        const next = times[times.indexOf(candle.time) + 1];
        return next !== undefined && closes.get(next)! > candle.close;
      }),
      filter((rise) => rise),
      map(() => ctx.buy(1, { reason: 'tomorrow is higher' })),
    ),
});
