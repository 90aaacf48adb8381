// A strategy that logs a warning on every bar that closes above 1400, for the tests of how a backtest tells them.
import { defineStrategy } from '../../../../src/strategy/index.js';

export default defineStrategy({
  name: 'warns',
  params: {},
  symbols: ['SPX.US'],
  period: 'day',
  onCandle(candle, ctx) {
    if (candle.close > 1400) ctx.log.warn({ symbol: candle.symbol, close: candle.close }, 'close above 1400');
    return undefined;
  },
});
