// The loader every command over candle history shares (backtest, optimize, walkforward, check): --adjust none
// reads the data's dividends and splits, --adjust forward none, and the research trials (which cross to
// worker threads as plain data) apply them as `trader backtest` does.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BACKTEST_OPTIONS, type BacktestArgs } from '../../../src/cli/backtest/flags.js';
import { loadBacktestInputs } from '../../../src/cli/backtest/inputs.js';
import { trialSettings, type ResearchArgs } from '../../../src/cli/research/setup.js';
import { runTrialBacktest } from '../../../src/research/trial.js';

let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'inputs-'));
  // Twelve US trading days at 10, with a dividend of 1 a share on the 10th and a 2-for-1 split on the 16th.
  const days = ['02', '03', '04', '05', '08', '09', '10', '11', '12', '16', '17', '18'];
  const rows = days.map((day) => {
    const price = day >= '16' ? 5 : 10;
    const dividend = day === '10' ? 1 : 0;
    const split = day === '16' ? 2 : 0;
    return `2024-01-${day},${price},${price},${price},${price},1000000,${dividend},${split}`;
  });
  await writeFile(join(folder, 'AAPL.US.csv'), `Date,Open,High,Low,Close,Volume,Dividends,Stock Splits\n${rows.join('\n')}\n`);
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

const args = (adjust: string): ResearchArgs =>
  ({
    strategy: 'strategies/dca.ts',
    data: folder,
    cash: '100000',
    fill: BACKTEST_OPTIONS.fill.default,
    intrabar: BACKTEST_OPTIONS.intrabar.default,
    'on-bad-row': 'fail',
    adjust,
  }) satisfies BacktestArgs;

describe('the shared backtest inputs', () => {
  it('reads the data’s dividends and splits with --adjust none and none with forward, and the trials apply them', async () => {
    const params = { amount: 10_000, everyDays: 100 };
    const unadjusted = await loadBacktestInputs(args('none'), params);
    expect(unadjusted.actions.map((action) => `${action.kind} ${action.exDate}`)).toEqual(['dividend 2024-01-10', 'split 2024-01-16']);
    const adjusted = await loadBacktestInputs(args('forward'), params);
    expect(adjusted.actions).toEqual([]);

    const settings = trialSettings(args('none'), unadjusted, 2);
    expect(settings.actions).toEqual([
      { kind: 'dividend', symbol: 'AAPL.US', exDate: '2024-01-10', value: '1' },
      { kind: 'split', symbol: 'AAPL.US', exDate: '2024-01-16', value: '2' },
    ]);
    // A worker receives the settings as JSON.
    const crossed = JSON.parse(JSON.stringify(settings)) as typeof settings;
    const run = await runTrialBacktest(unadjusted.strategy, unadjusted, crossed);
    // 1000 shares bought at 10 on the 3rd: paid 1000 on the 10th, then 2000 shares at 5.
    expect(run.venue.positions().map((held) => held.quantity.toFixed())).toEqual(['2000']);
    expect(run.venue.accountBalance('USD')[0]!.totalCash.toFixed()).toBe('91000');
    const plain = await runTrialBacktest(adjusted.strategy, adjusted, trialSettings(args('forward'), adjusted, 2));
    expect(plain.venue.positions().map((held) => held.quantity.toFixed())).toEqual(['1000']);
  });

  it("caps the research trials' fills at --max-participation of each bar's volume, as trader backtest does", async () => {
    const capped = { ...args('forward'), 'max-participation': '0.0001' };
    const inputs = await loadBacktestInputs(capped, { amount: 10_000, everyDays: 100 });
    const crossed = JSON.parse(JSON.stringify(trialSettings(capped, inputs, 2))) as ReturnType<typeof trialSettings>;

    const run = await runTrialBacktest(inputs.strategy, inputs, crossed);

    // The day order for 1,000 shares takes 100 of the next bar's 1,000,000; the rest expires with the day.
    expect(run.record.fills.map((fill) => fill.quantity.toFixed())).toEqual(['100']);
  });

  it('names the flag of a bad --adjust', async () => {
    await expect(loadBacktestInputs(args('back'), {})).rejects.toThrow('--adjust: "back" is not one of none, forward');
  });
});
