// `trader run` (paper, paced) against `trader backtest` on the same data, through the real binary: the paper
// run decides each day bar at the close (16:00 New York) and its market orders fill at the next day's open,
// at the backtest's prices, however fast the replay plays, because the replay waits at each bar's end
// until the run has acted on it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { timeZoneOf } from '../../src/domain/market-hours.js';
import { marketOf, parseSymbol, type SecuritySymbol } from '../../src/domain/symbol.js';
import { runTrader } from '../support/http/run-trader.js';
import { AAPL, wavingDays } from '../support/run/candles.js';
import { removeTempFolders, tempFolder } from '../support/run/paper-harness.js';
import { spawnRun } from '../support/run/spawn-run.js';
import { writeCandleFolder } from '../support/sim/candles.js';
import { sqliteRows } from '../support/sqlite-rows.js';

afterEach(removeTempFolders);

const MSFT = parseSymbol('MSFT.US');
// The end-to-end bench's strategy (an SMA crossover on each symbol of the run), with short averages.
const STRATEGY = ['bench/support/sma-every-symbol.ts', '--param', 'fast=2', '--param', 'slow=5', '--param', 'quantity=10'];

/** Local date and time of an instant in a symbol's market, "2024-01-03 09:30:00". */
function local(symbol: SecuritySymbol, time: number): string {
  return new Date(time).toLocaleString('sv-SE', { timeZone: timeZoneOf(marketOf(symbol)) });
}

describe('trader run and trader backtest (binary)', () => {
  for (const symbols of [[AAPL], [AAPL, MSFT]]) {
    it(`fills a paper run's market orders at the next day's open, where the backtest fills them: ${symbols.join(', ')}`, async () => {
      const aapl = wavingDays(40);
      // Another wave over the same days: MSFT crosses on other days than AAPL.
      const msft = wavingDays(47, MSFT)
        .slice(7)
        .map((bar, index) => ({ ...bar, time: aapl[index]!.time }));
      const data = await writeCandleFolder([aapl, msft].slice(0, symbols.length));
      const folder = await tempFolder();
      const journal = join(folder, 'journal.sqlite');
      const common = [...STRATEGY, '--symbols', symbols.join(','), '--data', data];

      const backtest = await runTrader(['backtest', ...common, '--json', join(folder, 'backtest.json'), '--quiet'], {});
      expect(backtest.code).toBe(0);
      const run = spawnRun([...common, '--speed', '2000000', '--journal', journal, '--json-logs']);
      await run.waitForLog('replay finished', 60_000);
      expect(await run.signal('SIGINT')).toEqual({ code: 0, signal: null });

      const expected = (
        JSON.parse(await readFile(join(folder, 'backtest.json'), 'utf8')) as {
          fills: { symbol: string; side: string; quantity: string; price: string; time: string }[];
        }
      ).fills.map((fill) => `${fill.time.slice(0, 10)} 09:30:00 ${fill.symbol} ${fill.side} ${fill.quantity} @ ${fill.price}`);
      const fills = sqliteRows<{ symbol: SecuritySymbol; side: string; quantity: string; price: string; time: number }>(
        journal,
        'SELECT symbol, side, quantity, price, time FROM fills ORDER BY time, rowid',
      ).map((fill) => `${local(fill.symbol, fill.time)} ${fill.symbol} ${fill.side} ${fill.quantity} @ ${fill.price}`);
      expect(new Set(fills.map((fill) => fill.split(' ')[2]))).toEqual(new Set(symbols));
      expect(fills.length).toBeGreaterThanOrEqual(3 * symbols.length);
      expect(fills).toEqual(expected);
      const decided = sqliteRows<{ symbol: SecuritySymbol; time: number }>(journal, 'SELECT symbol, time FROM intents');
      expect(decided.length).toBeGreaterThanOrEqual(fills.length);
      expect(decided.filter((intent) => !local(intent.symbol, intent.time).endsWith(' 16:00:00'))).toEqual([]);
    }, 120_000);
  }
});
