// A short backtest run while the backtest snapshot is built: a snapshot keeps the bytecode of the functions
// that ran, so a process started from it does not compile the loader, the walk, the order path and the
// result's writers on their first calls (it would otherwise, at every start). It goes through the functions
// `trader backtest` calls, on a CSV file and an SMA crossover that buys and closes (the summary made, not
// printed), and leaves nothing behind. Nothing in it may make an Intl object: a snapshot cannot hold one.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { map } from 'rxjs';
import { loadBacktestData } from '../../backtest/data.js';
import { runBacktest } from '../../backtest/engine.js';
import { resultDocument, resultJsonChunks } from '../../backtest/report/result-builder.js';
import { formatSummary } from '../../backtest/summary.js';
import { writeChunksToFile } from '../../files/chunked-write.js';
import { timeZoneOf } from '../../domain/market-hours.js';
import { marketOf, parseSymbol } from '../../domain/symbol.js';
import { ZoneRules } from '../../domain/time-zone.js';
import { defineStrategy } from '../../strategy/define.js';
import { crossover } from '../../strategy/operators/crossover.js';
import { prepareStrategy } from '../../strategy/prepare.js';

/** A US symbol: its rows are New York times. */
const SYMBOL = parseSymbol('WARM.US');

/** Calendar days of data (weekdays only make rows). */
const DAYS = 840;

const warmUpStrategy = defineStrategy({
  name: 'snapshot-warm-up',
  params: { fast: 5, slow: 20 },
  symbols: [SYMBOL],
  run: (ctx) =>
    ctx.candles().pipe(
      crossover(ctx.params.fast, ctx.params.slow),
      map((cross) => (cross === 'up' ? ctx.buy(100, { reason: 'up' }) : ctx.close({ reason: 'down' }))),
    ),
});

/**
 * Runs it; the number of fills it made (the order path ran if there are some). Without New York's seeded
 * rules or a writable temporary folder it does not run (0): the snapshot is then built without it, as good,
 * only slower to start.
 */
export async function warmUpBacktest(): Promise<number> {
  // Without New York's table (zone-tables.js could not make one) reading the rows would make an Intl formatter,
  // and node cannot build a snapshot that holds one.
  if (!ZoneRules.isSeeded(timeZoneOf(marketOf(SYMBOL)))) return 0;
  let folder: string;
  try {
    folder = mkdtempSync(join(tmpdir(), 'trader-snapshot-warm-up-'));
  } catch {
    return 0;
  }
  try {
    const file = join(folder, `${SYMBOL}.csv`);
    writeFileSync(file, candleRows());
    const strategy = prepareStrategy(warmUpStrategy);
    const data = await loadBacktestData(file, { symbols: strategy.symbols });
    const run = await runBacktest({ strategies: [strategy], data, cash: '1000000' });
    const document = resultDocument(run.record);
    formatSummary({ ...document, trades: document.trades.toArray() }, { color: false });
    writeChunksToFile(join(folder, 'result.json'), resultJsonChunks(document));
    return run.record.fills.length;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Daily rows of a price that waves around 100 (crossings both ways), the layout of the bundled files. */
function candleRows(): string {
  const lines = ['date,open,high,low,close,volume'];
  for (let day = 0; day < DAYS; day += 1) {
    const time = new Date(Date.UTC(2001, 0, 1) + day * 86_400_000);
    if (time.getUTCDay() === 0 || time.getUTCDay() === 6) continue;
    const date = time.toISOString().slice(0, 10);
    const close = (100 + 10 * Math.sin(day / 9) + (day % 7) / 4).toFixed(2);
    lines.push(`${date},${close},${(Number(close) + 1).toFixed(2)},${(Number(close) - 1).toFixed(2)},${close},${1_000_000 + day}`);
  }
  return `${lines.join('\n')}\n`;
}
