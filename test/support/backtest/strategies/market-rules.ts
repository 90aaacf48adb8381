// A strategy that meets the market's rules: an odd lot on its 2nd bar, a whole-lot buy on its 3rd, and a
// sell of twice the holding on its 5th (a short when the run allows it, else refused).
import { defineStrategy } from '../../../../src/strategy/index.js';

export default defineStrategy({
  name: 'market-rules',
  params: {},
  symbols: ['700.HK'],
  period: 'day',
  init: () => ({ bars: 0 }),
  onCandle(_candle, ctx, state) {
    state.bars += 1;
    if (state.bars === 2) return ctx.buy(150);
    if (state.bars === 3) return ctx.buy(200);
    if (state.bars === 5) return ctx.sell(400);
    return undefined;
  },
});
