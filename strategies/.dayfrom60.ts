// Honest: 60m strategy that decides on day bars built from the 60m data.
import { map, pairwise, filter } from 'rxjs';
import { defineStrategy } from 'longport-trader';
export default defineStrategy({
  name: 'dayfrom60', symbols: ['SPY.US'], period: '60m', params: {},
  run: (ctx) => ctx.candles(ctx.symbol, 'day').pipe(
    pairwise(),
    map(([a, b]) => (b.close > a.close ? ctx.target(10) : ctx.target(0))),
  ),
});
