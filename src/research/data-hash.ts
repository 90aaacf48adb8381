// The content hash of loaded candle data (symbols, period and every bar's numbers): a queue worker that
// loads the data from its own path must arrive at the submitter's hash before it runs a trial.
import { createHash } from 'node:crypto';
import type { BacktestData } from '../backtest/data.js';

export function dataHash(data: BacktestData): string {
  const hash = createHash('sha256');
  hash.update(`${data.period}\u0000${data.currency}\u0000`);
  for (const series of data.series) {
    const columns = series.columns;
    hash.update(`${series.symbol}\u0000${columns.length}\u0000`);
    for (const column of [columns.time, columns.open, columns.high, columns.low, columns.close, columns.volume]) {
      const values = Float64Array.from(column.subarray(0, columns.length));
      hash.update(new Uint8Array(values.buffer));
    }
  }
  return `sha256:${hash.digest('hex')}`;
}
