// A strategy that throws on its `at`-th bar (1-based), for the tests of how a failed run is reported.
import { defineStrategy } from '../../../../src/strategy/index.js';

export default defineStrategy({
  name: 'throws',
  params: { at: 100 },
  symbols: ['SPX.US'],
  period: 'day',
  init: () => ({ bars: 0 }),
  onCandle(_candle, ctx, state) {
    state.bars += 1;
    if (state.bars === ctx.params.at) throw new Error(`boom at bar ${state.bars}`);
    return undefined;
  },
});
