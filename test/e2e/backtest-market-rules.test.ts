// `trader backtest` on Hong Kong data with a securities file: the venue refuses an odd lot and sells beyond
// the holding unless --short, which opens a short that pays its borrow fee.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backtestResultSchema } from '../../src/backtest/result.js';
import { inBatches, runTrader, type TraderRun } from '../support/http/run-trader.js';

const STRATEGY = 'test/support/backtest/strategies/market-rules.ts';
let folder: string;
let plain: TraderRun;
let short: TraderRun;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'backtest-rules-'));
  const rows = Array.from({ length: 8 }, (_, index) => `2024-01-${String(2 + index).padStart(2, '0')},350,352,348,350,1000000`);
  await writeFile(join(folder, '700.HK.csv'), `date,open,high,low,close,volume\n${rows.join('\n')}\n`);
  await writeFile(join(folder, 'securities.csv'), 'symbol,name,lot_size\n700.HK,Tencent,100\n');
  [plain, short] = (await inBatches(
    [
      () => runTrader(['backtest', STRATEGY, '--data', folder, '--json', join(folder, 'plain.json'), '--quiet'], {}),
      () => runTrader(['backtest', STRATEGY, '--data', folder, '--short', '--json', join(folder, 'short.json'), '--quiet'], {}),
    ],
    2,
  )) as [TraderRun, TraderRun];
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

  it('opens a short with --short', async () => {
    expect(short.code).toBe(0);
    const result = backtestResultSchema.parse(JSON.parse(await readFile(join(folder, 'short.json'), 'utf8')));
    expect(result.denials.map((denial) => denial.code)).toEqual(['REFUSED_BY_BROKER']);
    expect(result.fills.map((fill) => [fill.side, fill.quantity])).toEqual([
      ['Buy', '200'],
      ['Sell', '400'],
    ]);
  });
});
