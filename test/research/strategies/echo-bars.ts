// A strategy that decides on every bar, its reason the bar as it saw it: parity then compares the bars a
// backtest and a paper run show a strategy.
import { map } from 'rxjs';
import type { Candle } from '../../../src/domain/candle.js';
import { defineStrategy } from '../../../src/strategy/index.js';

const seen = (bar: Candle): string => [new Date(bar.time).toISOString(), bar.open, bar.high, bar.low, bar.close, bar.volume].join(' ');

export default defineStrategy({
  name: 'echo-bars',
  symbols: ['AAPL.US'],
  period: '60m',
  run: (ctx) => ctx.candles().pipe(map((candle) => ctx.buy(1, { reason: seen(candle) }))),
});
