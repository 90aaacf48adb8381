// A strategy that buys one share of whichever symbol's bar comes, every bar, warmed up on five bars: parity over
// many symbols, each warmed up and subscribed to before the paper run's replay starts.
import { defineStrategy } from '../../../src/strategy/index.js';

export default defineStrategy({
  name: 'every-symbol',
  symbols: ['AAPL.US'],
  period: 'day',
  warmup: 5,
  onCandle: (candle, ctx) => ctx.buy(1, { symbol: candle.symbol, reason: `${candle.symbol} ${candle.close}` }),
});
