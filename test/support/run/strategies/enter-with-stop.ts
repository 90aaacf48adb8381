// A strategy for restart tests: on its first closed bar while flat, buys `quantity` at market with a stop-loss
// `stopLoss` (a fraction) below the average cost, which the runtime holds and closes by (tagged stop-loss).
// After a restart the reconciled position says it holds, so it never buys twice.
import { filter, map, take } from 'rxjs';
import { defineStrategy } from '../../../../src/strategy/index.js';

export default defineStrategy({
  name: 'enter-with-stop',
  params: { quantity: 100, stopLoss: 0.05 },
  symbols: ['AAPL.US'],
  period: 'day',
  run: (ctx) =>
    ctx.candles().pipe(
      take(1),
      filter(() => ctx.positions.quantity().isZero()),
      map(() => ctx.buy(ctx.params.quantity, { tag: 'entry', exits: { stopLoss: { percent: ctx.params.stopLoss } } })),
    ),
});
