// Sizes a target on every bar, history bars included (no ctx.warmingUp guard, as the README's callback
// example has none): a decision on a warm-up bar is dropped, and sizing it must not fail for want of a price.
import { defineStrategy } from '../../../../src/strategy/index.js';

export default defineStrategy({
  name: 'targets-always',
  symbols: ['SPX.US'],
  period: 'day',
  warmup: 10,
  onCandle: (candle, ctx) => ctx.targetPercent(0.1, { symbol: candle.symbol }),
});
