// A strategy whose intents the risk layer denies: a sell while flat on its 5th bar, a buy of a symbol the
// venue does not know on its 6th, and a buy it cannot pay for on its 7th.
import { defineStrategy } from '../../../../src/strategy/index.js';

export default defineStrategy({
  name: 'denied',
  params: {},
  symbols: ['SPX.US'],
  period: 'day',
  init: () => ({ bars: 0 }),
  onCandle(_candle, ctx, state) {
    state.bars += 1;
    if (state.bars === 5) return ctx.sell(10);
    if (state.bars === 6) return ctx.buy(10, { symbol: 'NOPE.US' });
    if (state.bars === 7) return ctx.buy(1_000_000);
    return undefined;
  },
});
