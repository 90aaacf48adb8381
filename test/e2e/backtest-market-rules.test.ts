// `trader backtest` on Hong Kong data with a securities file: the venue refuses an odd lot and sells beyond
// the holding unless --short, which opens a short that pays its borrow fee.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backtestResultSchema } from '../../src/backtest/result.js';
import { inBatches, runTrader, type TraderRun } from '../support/http/run-trader.js';

const STRATEGY = 'test/support/backtest/strategies/market-rules.ts';
let folder: string;
let plain: TraderRun;
let short: TraderRun;
let dividends: TraderRun;
let adjusted: TraderRun;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'backtest-rules-'));
  const rows = Array.from({ length: 8 }, (_, index) => `2024-01-${String(2 + index).padStart(2, '0')},350,352,348,350,1000000`);
  await writeFile(join(folder, '700.HK.csv'), `date,open,high,low,close,volume\n${rows.join('\n')}\n`);
  await writeFile(join(folder, 'securities.csv'), 'symbol,name,lot_size\n700.HK,Tencent,100\n');
  // The same prices with a Yahoo-style Dividends column: 2.5 a share goes ex on 2024-01-06.
  await mkdir(join(folder, 'yahoo'));
  const yahoo = rows.map((row, index) => `${row},${index === 4 ? '2.5' : '0'},0`);
  await writeFile(join(folder, 'yahoo', '700.HK.csv'), `date,open,high,low,close,volume,Dividends,Stock Splits\n${yahoo.join('\n')}\n`);
  const yahooRun =
    (name: string, ...more: string[]) =>
    () =>
      runTrader(['backtest', STRATEGY, '--data', join(folder, 'yahoo'), '--json', join(folder, `${name}.json`), '--quiet', ...more], {});
  [plain, short, dividends, adjusted] = (await inBatches(
    [
      () => runTrader(['backtest', STRATEGY, '--data', folder, '--json', join(folder, 'plain.json'), '--quiet'], {}),
      () =>
        runTrader(
          ['backtest', STRATEGY, '--data', folder, '--short', '--borrow-rate', '0.0365', '--json', join(folder, 'short.json'), '--quiet'],
          {},
        ),
      yahooRun('dividends'),
      yahooRun('adjusted', '--adjust', 'forward'),
    ],
    2,
  )) as [TraderRun, TraderRun, TraderRun, TraderRun];
}, 180_000);

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('market rules in a backtest', () => {
  it('refuses an order that is not whole board lots, and a sell beyond the holding without --short', async () => {
    expect(plain.code).toBe(0);
    const result = backtestResultSchema.parse(JSON.parse(await readFile(join(folder, 'plain.json'), 'utf8')));
    expect(result.denials.map((denial) => [denial.code, denial.message])).toEqual([
      ['REFUSED_BY_BROKER', expect.stringContaining('lot size: quantity 150 of 700.HK is not a whole number of board lots of 100')],
      ['SELL_EXCEEDS_POSITION', 'sell 400 700.HK: more than the position of 200 (the account cannot sell short)'],
    ]);
    expect(result.counts.fills).toBe(1);
  });

  it('opens a short with --short, reported as a short position, paying its borrow fee', async () => {
    expect(short.code).toBe(0);
    const result = backtestResultSchema.parse(JSON.parse(await readFile(join(folder, 'short.json'), 'utf8')));
    expect(result.denials.map((denial) => denial.code)).toEqual(['REFUSED_BY_BROKER']);
    expect(result.fills.map((fill) => [fill.side, fill.quantity])).toEqual([
      ['Buy', '200'],
      ['Sell', '400'],
    ]);
    // The sell closes the 200 held (a long trade) and opens a short of 200 that is still open at the end.
    expect(result.trades.map((trade) => [trade.side, trade.quantity, trade.pnl])).toEqual([['Long', '200', '0']]);
    expect(result.openPositions.map((position) => [position.side, position.quantity, position.averagePrice])).toEqual([
      ['Short', '200', '350'],
    ]);
    // Borrow fee: 200 × 350 × 0.0365 / 365 = 7 a day, for the 2 days from the fill on the 7th to the last bar on the 9th.
    expect(result.metrics.finalEquity).toBe(1_000_000 - 14);
  });

  it('pays the dividend of the Dividends column on its ex-date to the 200 shares held, unless --adjust forward', async () => {
    expect([dividends.code, adjusted.code]).toEqual([0, 0]);
    const paid = backtestResultSchema.parse(JSON.parse(await readFile(join(folder, 'dividends.json'), 'utf8')));
    const ignored = backtestResultSchema.parse(JSON.parse(await readFile(join(folder, 'adjusted.json'), 'utf8')));
    expect(paid.metrics.finalEquity - ignored.metrics.finalEquity).toBe(500);
    expect([paid.settings.adjust, paid.settings.corporateActions, ignored.settings.corporateActions]).toEqual(['none', 1, 0]);
  });
});
