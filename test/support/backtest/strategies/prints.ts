// A strategy that prints with console.log on its first bar, for the test that stdout carrying JSON stays clean.
import { defineStrategy } from '../../../../src/strategy/index.js';

export default defineStrategy({
  name: 'prints',
  params: {},
  symbols: ['SPX.US'],
  period: 'day',
  init: () => ({ printed: false }),
  onCandle(candle, _ctx, state) {
    if (!state.printed) console.log(`first close ${candle.close}`);
    state.printed = true;
    return undefined;
  },
});
