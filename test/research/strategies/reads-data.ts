// Dishonest on purpose: reads the data file itself when loaded and buys before every rise of the next close.
// Cutting the history handed to it changes nothing (its file is whole), so only watching what it reads
// catches it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { filter, map } from 'rxjs';
import { defineStrategy } from '../../../src/strategy/index.js';

const nextClose = new Map<string, number>();
const rows = readFileSync(join(process.cwd(), 'backtest-data/SPX.US.csv'), 'utf8').trim().split('\n').slice(1);
for (let index = 0; index + 1 < rows.length; index += 1) nextClose.set(rows[index]!.split(',')[0]!, Number(rows[index + 1]!.split(',')[4]));

export default defineStrategy({
  name: 'reads-data',
  params: {},
  symbols: ['SPX.US'],
  run: (ctx) =>
    ctx.candles().pipe(
      filter((candle) => (nextClose.get(new Date(candle.time).toISOString().slice(0, 10)) ?? 0) > candle.close),
      map(() => ctx.buy(1, { reason: 'the file says tomorrow is higher' })),
    ),
});
