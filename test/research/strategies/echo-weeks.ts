// A strategy that decides on every week bar built from the run's day bars, its reason the week as it saw
// it: parity then compares the week bars a backtest (resampled) and a paper run (built from ticks) make.
import { map } from 'rxjs';
import type { Candle } from '../../../src/domain/candle.js';
import { defineStrategy } from '../../../src/strategy/index.js';

const seen = (bar: Candle): string => [new Date(bar.time).toISOString(), bar.open, bar.high, bar.low, bar.close, bar.volume].join(' ');

export default defineStrategy({
  name: 'echo-weeks',
  symbols: ['AAPL.US'],
  period: 'day',
  run: (ctx) => ctx.candles(ctx.symbol, 'week').pipe(map((week) => ctx.buy(1, { reason: seen(week) }))),
});
