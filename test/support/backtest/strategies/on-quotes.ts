// A strategy that decides on quotes only: a backtest has none to give it, a paper run replays them.
import { map } from 'rxjs';
import { defineStrategy } from '../../../../src/strategy/index.js';

export default defineStrategy({
  name: 'on-quotes',
  params: {},
  symbols: ['SPX.US'],
  period: 'day',
  run: (ctx) => ctx.quotes().pipe(map((quote) => ctx.buy(1, { reason: `last ${quote.lastDone.toString()}` }))),
});
