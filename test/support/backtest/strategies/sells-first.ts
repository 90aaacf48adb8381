// A strategy that sells `quantity` on its first bar while flat: a short where shorting is on, a denial where not.
import { defineStrategy } from '../../../../src/strategy/index.js';

export default defineStrategy({
  name: 'sells-first',
  params: { quantity: 10 },
  symbols: ['SPX.US'],
  period: 'day',
  init: () => ({ sold: false }),
  onCandle(_candle, ctx, state) {
    if (state.sold) return undefined;
    state.sold = true;
    return ctx.sell(ctx.params.quantity);
  },
});
