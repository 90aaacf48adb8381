// The content hash of loaded candle data (symbols, period and every bar's numbers): a queue worker that
// loads the data from its own path must arrive at the submitter's hash before it runs a trial.
import { createHash } from 'node:crypto';
import type { BacktestData } from '../backtest/data.js';

export function dataHash(data: BacktestData): string {
  const hash = createHash('sha256');
  hash.update(`${data.period}\u0000${data.currency}\u0000`);
  for (const series of data.series) {
    hash.update(`${series.symbol}\u0000${series.candles.length}\u0000`);
    const numbers = new Float64Array(series.candles.length * 6);
    series.candles.forEach((candle, index) => {
      numbers.set([candle.time, candle.open, candle.high, candle.low, candle.close, candle.volume], index * 6);
    });
    hash.update(new Uint8Array(numbers.buffer));
  }
  return `sha256:${hash.digest('hex')}`;
}
