// `trader backtest --max-participation` through the real binary: an order larger than the cap fills over
// several bars, a bar's share at a time; a bad value is refused by name; --help lists the flag.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backtestResultSchema } from '../../src/backtest/result.js';
import { inBatches, runTrader, type TraderRun } from '../support/http/run-trader.js';
import { US, localInstant, writeCandleFolder } from '../support/sim/candles.js';

let folder: string;
let capped: TraderRun;
let refused: TraderRun;
let help: TraderRun;

beforeAll(async () => {
  // Ten minute bars at 100, 1,000 shares each.
  const bars = Array.from({ length: 10 }, (_, index) => ({
    symbol: US,
    period: '1m' as const,
    time: localInstant(US, '2024-01-02', 9, 30 + index),
    open: 100,
    high: 100,
    low: 100,
    close: 100,
    volume: 1_000,
  }));
  folder = await writeCandleFolder([bars]);
  // DCA puts 50,000 toward AAPL.US at its first bar: one market order for 500 shares.
  const backtest = ['backtest', 'strategies/dca.ts', '--data', folder, '--symbols', US, '--period', '1m'];
  const dca = ['--param', 'amount=50000', '--param', 'everyDays=100'];
  [capped, refused, help] = (await inBatches(
    [
      () => runTrader([...backtest, ...dca, '--max-participation', '0.1', '--json', join(folder, 'capped.json'), '--quiet'], {}),
      () => runTrader([...backtest, '--max-participation', '1.5'], {}),
      () => runTrader(['backtest', '--help'], {}),
    ],
    3,
  )) as [TraderRun, TraderRun, TraderRun];
}, 60_000);

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('trader backtest --max-participation', () => {
  it("fills an order larger than the cap over the next bars, 10 % of each bar's volume at a time", async () => {
    expect(capped.code).toBe(0);
    const result = backtestResultSchema.parse(JSON.parse(await readFile(join(folder, 'capped.json'), 'utf8')));
    // Decided at the first bar's close (09:31), filled from the next bar's open on.
    expect(result.fills.map((fill) => `${fill.time.slice(11, 16)} ${fill.side} ${fill.quantity} @ ${fill.price}`)).toEqual([
      '09:31 Buy 100 @ 100',
      '09:32 Buy 100 @ 100',
      '09:33 Buy 100 @ 100',
      '09:34 Buy 100 @ 100',
      '09:35 Buy 100 @ 100',
    ]);
    expect(result.settings).toMatchObject({ maxParticipation: 0.1 });
  });

  it('refuses a share beyond the whole volume, naming the flag', () => {
    expect(refused).toMatchObject({
      code: 2,
      stderr: "error: --max-participation: expected a share of a bar's volume, more than 0 and at most 1 (0.1 = 10 %), got 1.5\n",
    });
  });

  it('is listed in --help', () => {
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--max-participation +Largest share of a bar's volume its fills may take/);
  });
});
